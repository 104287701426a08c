// Each procedure's page view: what the browsable page shows beside its answer, rendered from the procedure's typed
// result (or, for a refused write, its field errors and what it sent). The page never looks at the answer's shape.
import type { Request, Response } from 'express';
import type { inferRouterOutputs } from '@trpc/server';
import type { AuthUser } from '../../src/auth/users';
import type { AppRouter } from '../../src/routers';
import type { Runtime } from '../../src/runtime';
import { DIFF_TYPE } from '../../src/snippets/history-router';
import type { SnippetFields } from '../../src/snippets/schema';
import { callerFor } from '../auth/context';
import type { Urls } from '../http/urls';
import { diffView, revisionsSection, type DiffAt } from './history';
import { html, type Html } from './html';
import { listFilters } from './list-filters';
import { deleteForm, snippetForm, submittedValues, type FieldErrors } from './snippet-form';
import { keyNotice, tokenForm, tokenTable } from './token-views';

type Outputs = inferRouterOutputs<AppRouter>;

export interface ViewContext {
  req: Request;
  res: Response;
  reverse: Urls['reverse'];
  user: AuthUser | null;
  /** The route's path parameters. */
  params: Record<string, string>;
  /** A write refused with a field map: the messages and what was sent, which its form shows again (as DRF's do). */
  refused?: { errors: FieldErrors; values: Partial<SnippetFields> };
}

/** The parts of a page a view fills; each is optional. */
export interface PageParts {
  /** The crumb between Api Root and this page. */
  parent?: { href: string; label: string };
  /** What an `id` in the shown answer links to. */
  ids?: 'snippet-detail' | 'user-detail';
  /** Owners named in the answer, linked to their user records. */
  owners?: string[];
  /** Links to the resource's other views, under the title. */
  views?: Html;
  /** Above the request: a list's create form. */
  top?: Html;
  /** The answer shown otherwise than as JSON (a diff), and its media type. */
  answer?: { html: Html; type: string };
  /** Below the answer: the history, the edit and delete forms. */
  bottom?: Html;
}

/** A view of a procedure that answers `T`: it gets the result of a success, undefined otherwise. */
type View<T> = (ctx: ViewContext, result: T | undefined) => PageParts | Promise<PageParts>;

const view = <T>(render: View<T>) => render as View<unknown>;

/** The create form, with the messages and input of a refused create; first on the page, where a visitor looks. */
const createForm = ({ res, reverse, user, refused }: ViewContext) =>
  user
    ? html`<section class="forms"><h2>Create a snippet</h2>${snippetForm(res, { method: 'POST', action: reverse('snippet-list'), ...refused })}</section>`
    : undefined;

const snippetList: View<Outputs['snippets']['list']['items']> = (ctx, snippets) => ({
  ids: 'snippet-detail',
  owners: snippets?.map((s) => s.owner),
  top: html`${createForm(ctx) ?? ''}${listFilters(ctx.req, ctx.reverse('snippet-list'))}`,
});

const snippetCreated: View<Outputs['snippets']['create']> = (ctx, snippet) => ({
  ids: 'snippet-detail',
  owners: snippet && [snippet.owner],
  top: createForm(ctx),
});

const snippetDetail: View<Outputs['snippets']['get'] | Outputs['snippets']['update']> = async (
  { req, res, reverse, user, params, refused },
  snippet,
) => {
  const id = Number(params.id);
  const action = reverse('snippet-detail', { id });
  // The owner's forms: on the snippet, or again with the messages of a refused edit and what it sent.
  const owner =
    user && (snippet ? snippet.owner === user.username : refused && (await callerFor(req).snippets.writable({ id })));
  return {
    parent: { href: reverse('snippet-list'), label: 'Snippet List' },
    ids: 'snippet-detail',
    owners: snippet && [snippet.owner],
    views: snippet
      ? html`<p class="views"><a id="highlight-link" href="${reverse('snippet-highlight', { id })}">Highlighted</a>
 · <a id="raw-link" href="${reverse('snippet-raw', { id })}">Raw</a>
 · <a id="history-link" href="${reverse('snippet-revisions', { id })}">History</a></p>`
      : undefined,
    bottom: owner
      ? html`<section class="forms"><h2>Edit this snippet</h2>${snippetForm(res, { method: 'PUT', action, values: refused?.values ?? snippet, errors: refused?.errors })}
<h2>Delete</h2>${deleteForm(res, action, reverse('snippet-list'))}</section>`
      : undefined,
  };
};

/** The token page's create form, with the messages of a refused create. */
function tokenCreateForm({ req, res, reverse, refused }: ViewContext): Html {
  const config = (req.app.locals.runtime as Runtime).config;
  return html`<section class="forms"><h2>Create a personal access token</h2>${tokenForm(res, {
    action: reverse('token-list'),
    defaultExpiresIn: config.PERSONAL_TOKEN_EXPIRES_IN,
    maxExpiresIn: config.PERSONAL_TOKEN_EXPIRES_MAX,
    errors: refused?.errors,
  })}</section>`;
}

const tokenList: View<Outputs['tokens']['list']> = (ctx, tokens) => ({
  top: tokens && tokenCreateForm(ctx),
  bottom:
    tokens &&
    html`<section class="forms"><h2>Your tokens</h2>${tokenTable(ctx.res, tokens, (id) => ctx.reverse('token-detail', { id }), ctx.reverse('token-list'))}</section>`,
});

const tokenCreated: View<Outputs['tokens']['create']> = (ctx, created) => ({
  parent: { href: ctx.reverse('token-list'), label: 'Token List' },
  top: created ? keyNotice(created.key) : ctx.refused && tokenCreateForm(ctx),
});

/** The revisions a diff page's path and `?from=` name. */
function diffAt({ req, params }: ViewContext): DiffAt {
  const from = new URL(req.originalUrl, 'http://local').searchParams.get('from');
  return { id: Number(params.id), n: Number(params.n), from: from === null ? undefined : Number(from) };
}

const revisionPage = (ctx: ViewContext): PageParts => ({
  parent: { href: ctx.reverse('snippet-detail', { id: Number(ctx.params.id) }), label: 'Snippet Detail' },
});

/** The views by procedure (the path the routing table calls), and the API root's. */
export const PAGE_VIEWS: Record<string, View<unknown>> = {
  'api-root': view(() => ({
    views: html`<p class="views"><a id="docs-link" href="/docs">API reference</a> · <a id="openapi-link" href="/openapi.json">OpenAPI document</a></p>`,
  })),
  'snippets.list': view(snippetList),
  'snippets.create': view(snippetCreated),
  'snippets.get': view(snippetDetail),
  'snippets.update': view(snippetDetail),
  'users.list': view<Outputs['users']['list']['items']>(() => ({ ids: 'user-detail' })),
  'users.get': view<Outputs['users']['get']>(({ reverse }, user) => ({
    parent: { href: reverse('user-list'), label: 'User List' },
    ids: 'user-detail',
    views:
      user &&
      html`<p class="views"><a id="user-snippets-link" href="${reverse('snippet-list')}?owner=${encodeURIComponent(user.username)}">Snippets of ${user.username}</a></p>`,
  })),
  'snippets.revisions': view<Outputs['snippets']['revisions']['items']>(async (ctx, revisions) => ({
    ...revisionPage(ctx),
    bottom: revisions && (await revisionsSection(ctx.req, ctx.res, ctx.reverse, Number(ctx.params.id), revisions)),
  })),
  'snippets.revision': view<Outputs['snippets']['revision']>(revisionPage),
  'snippets.diff': view<Outputs['snippets']['diff']>(async (ctx, diff) => ({
    ...revisionPage(ctx),
    answer: diff === undefined ? undefined : { html: await diffView(ctx.req, diffAt(ctx), diff), type: DIFF_TYPE },
  })),
  'tokens.list': view(tokenList),
  'tokens.create': view(tokenCreated),
  'snippets.restore': view<Outputs['snippets']['restore']>((ctx, snippet) => ({
    ...revisionPage(ctx),
    ids: 'snippet-detail',
    owners: snippet && [snippet.owner],
  })),
};

/** The refused write's messages and input, when the refusal rule answered it with a field map. */
export function refusedWrite(res: Response): ViewContext['refused'] {
  const errors = res.locals.fieldErrors;
  return errors ? { errors, values: submittedValues(res.locals.submitted ?? {}) } : undefined;
}
