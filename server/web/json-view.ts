// Pretty-printed JSON as HTML, with ids, owners and URLs turned into links.
import { html, type Html } from './html';
import type { Urls } from '../http/urls';

export interface LinkContext {
  /** The route an `id` links to (the route's view says which), or none. */
  ids?: 'snippet-detail' | 'user-detail';
  ownerIds: Map<string, number>;
  origin: string;
  urls: Urls;
}

const INDENT = '    ';

function scalar(value: unknown): Html {
  return html`<span class="${typeof value === 'string' ? 'str' : 'lit'}">${JSON.stringify(value)}</span>`;
}

function link(href: string, value: unknown): Html {
  return html`<a href="${href}">${scalar(value)}</a>`;
}

function member(key: string, value: unknown, ctx: LinkContext, depth: number): Html {
  if (key === 'id' && typeof value === 'number' && ctx.ids)
    return link(ctx.urls.reverse(ctx.ids, { id: value }), value);
  if (key === 'owner' && typeof value === 'string' && ctx.ownerIds.has(value)) {
    return link(ctx.urls.reverse('user-detail', { id: ctx.ownerIds.get(value)! }), value);
  }
  if (key === 'snippets' && Array.isArray(value) && ctx.ids === 'user-detail') {
    return array(value, depth, (id) =>
      typeof id === 'number' ? link(ctx.urls.reverse('snippet-detail', { id }), id) : scalar(id),
    );
  }
  return node(value, ctx, depth);
}

function array(items: unknown[], depth: number, item: (v: unknown) => Html): Html {
  if (!items.length) return html`[]`;
  const pad = INDENT.repeat(depth + 1);
  return html`[\n${items.map((v, i) => html`${pad}${item(v)}${i < items.length - 1 ? ',' : ''}\n`)}${INDENT.repeat(depth)}]`;
}

function node(value: unknown, ctx: LinkContext, depth: number): Html {
  if (Array.isArray(value)) return array(value, depth, (v) => node(v, ctx, depth + 1));
  if (value && typeof value === 'object') {
    const entries = Object.entries(value);
    if (!entries.length) return html`{}`;
    const pad = INDENT.repeat(depth + 1);
    return html`{\n${entries.map(
      ([k, v], i) =>
        html`${pad}<span class="key">${JSON.stringify(k)}</span>: ${member(k, v, ctx, depth + 1)}${i < entries.length - 1 ? ',' : ''}\n`,
    )}${INDENT.repeat(depth)}}`;
  }
  if (typeof value === 'string' && value.startsWith(ctx.origin + '/'))
    return link(value.slice(ctx.origin.length), value);
  return scalar(value);
}

export function jsonView(value: unknown, ctx: LinkContext): Html {
  return node(value, ctx, 0);
}
