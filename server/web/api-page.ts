// The browsable API page: the request, the response (status, headers, linked JSON) and the forms the requester may use.
import { STATUS_CODES } from 'node:http';
import type { Request, Response } from 'express';
import type { Snippet, SnippetFields } from '../../src/schemas/snippet';
import { userIdsByUsername } from '../../src/store/users';
import { parseBody } from '../http/body';
import { urls, type Urls } from '../http/urls';
import { html, type Html } from './html';
import { jsonView, type LinkContext } from './json-view';
import { layout } from './layout';
import { listFilters } from './list-filters';
import { pager } from './pager';
import { deleteForm, snippetForm, submittedValues, type FieldErrors } from './snippet-form';

const SHOWN_HEADERS = ['allow', 'content-type', 'link', 'vary', 'www-authenticate', 'retry-after', 'location'];

function isSnippet(body: unknown): body is Snippet {
  return !!body && typeof body === 'object' && 'code' in body && 'owner' in body && 'id' in body;
}

function isUser(body: unknown): body is { username: string } {
  return !!body && typeof body === 'object' && typeof (body as { username?: unknown }).username === 'string';
}

function ownersIn(body: unknown): string[] {
  const items = Array.isArray(body) ? body : [body];
  return items.flatMap((i) => (i && typeof i === 'object' && typeof (i as { owner?: unknown }).owner === 'string' ? [(i as { owner: string }).owner] : []));
}

function breadcrumbs(reverse: Urls['reverse'], routeName: string | undefined, viewName: string): Html {
  const crumbs: Html[] = [html`<a href="${reverse('api-root')}">Api Root</a>`];
  if (routeName === 'snippet-detail') crumbs.push(html`<a href="${reverse('snippet-list')}">Snippet List</a>`);
  if (routeName === 'user-detail') crumbs.push(html`<a href="${reverse('user-list')}">User List</a>`);
  if (routeName !== 'api-root') crumbs.push(html`<span>${viewName}</span>`);
  return html`<nav class="breadcrumbs">${crumbs.map((c, i) => html`${i ? ' / ' : ''}${c}`)}</nav>`;
}

function extraLinks(reverse: Urls['reverse'], routeName: string | undefined, body: unknown): Html {
  if (routeName === 'api-root') {
    return html`<p class="views"><a id="docs-link" href="/docs">API reference</a> · <a id="openapi-link" href="/openapi.json">OpenAPI document</a></p>`;
  }
  if (routeName === 'user-detail' && isUser(body)) {
    return html`<p class="views"><a id="user-snippets-link" href="${reverse('snippet-list')}?owner=${encodeURIComponent(body.username)}">Snippets of ${body.username}</a></p>`;
  }
  if (routeName !== 'snippet-detail' || !isSnippet(body)) return html``;
  return html`<p class="views"><a id="highlight-link" href="${reverse('snippet-highlight', { id: body.id })}">Highlighted</a>
 · <a id="raw-link" href="${reverse('snippet-raw', { id: body.id })}">Raw</a></p>`;
}

/** A POST refused with a field map: what was sent and the messages, so the form shows them again (DRF keeps the input). */
async function refusedInput(req: Request, status: number, body: unknown): Promise<{ values?: Partial<SnippetFields>; errors?: FieldErrors }> {
  if (req.method !== 'POST' || status !== 400 || !isFieldErrors(body)) return {};
  try {
    return { values: submittedValues(await parseBody(req)), errors: body };
  } catch {
    return { errors: body }; // a body that cannot be read shows its messages over an empty form
  }
}

function isFieldErrors(body: unknown): body is FieldErrors {
  return !!body && typeof body === 'object' && !Array.isArray(body) && Object.values(body).every((v) => Array.isArray(v) && v.every((m) => typeof m === 'string'));
}

async function forms(req: Request, res: Response, reverse: Urls['reverse'], routeName: string | undefined, status: number, body: unknown): Promise<Html> {
  const user = req.requester?.user;
  if (!user) return html``;
  if (routeName === 'snippet-list') {
    const form = snippetForm(res, { method: 'POST', action: reverse('snippet-list'), ...(await refusedInput(req, status, body)) });
    return html`<section class="forms"><h2>Create a snippet</h2>${form}</section>`;
  }
  if (routeName === 'snippet-detail' && status === 200 && isSnippet(body) && body.owner === user.username) {
    const action = reverse('snippet-detail', { id: body.id });
    return html`<section class="forms"><h2>Edit this snippet</h2>${snippetForm(res, { method: 'PUT', action, values: body })}
<h2>Delete</h2>${deleteForm(res, action)}</section>`;
  }
  return html``;
}

export async function renderApiPage(req: Request, res: Response, status: number, body: unknown): Promise<string> {
  const registry = urls(req);
  const reverse = registry.reverse.bind(registry);
  const route = res.locals.route;
  const routeName = req.path === '/' ? 'api-root' : route?.name;
  const viewName = req.path === '/' ? 'Api Root' : route?.viewName ?? (STATUS_CODES[status] ?? 'Error');
  const ctx: LinkContext = {
    kind: routeName?.startsWith('snippet') ? 'snippet' : routeName?.startsWith('user') ? 'user' : 'other',
    ownerIds: await userIdsByUsername(ownersIn(body)),
    origin: `${req.protocol}://${req.get('host')}`,
    urls: registry,
  };
  const headers = SHOWN_HEADERS.flatMap((name) => {
    const value = name === 'content-type' ? 'application/json' : res.getHeader(name);
    return value === undefined ? [] : [html`<b>${name.replace(/(^|-)\w/g, (s) => s.toUpperCase())}:</b> ${String(value)}\n`];
  });
  const pages = await pager(req, res, status);
  const formSection = await forms(req, res, reverse, routeName, status, body);
  // The list's create form comes first: below a page of snippets a visitor would scroll to find it.
  const formFirst = routeName === 'snippet-list';
  const content = html`${breadcrumbs(reverse, routeName, viewName)}
<h1>${viewName}</h1>
${extraLinks(reverse, routeName, body)}
${formFirst ? formSection : ''}
${routeName === 'snippet-list' ? listFilters(req, reverse('snippet-list')) : ''}
<div class="request"><b>${req.method}</b> ${req.originalUrl}</div>
${pages}
<div class="response" id="response"><pre class="headers"><b>HTTP ${status} ${STATUS_CODES[status] ?? ''}</b>
${headers}</pre><pre class="json">${jsonView(body, ctx)}</pre></div>
${pages}
${formFirst ? '' : formSection}`;
  return layout(req, res, viewName, content);
}
