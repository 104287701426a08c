// The browsable API page: the request, the response (status, headers, linked JSON), and what the route's view adds
// (server/web/views.ts): links to other views, forms, the history.
import { STATUS_CODES } from 'node:http';
import type { Request, Response } from 'express';
import { callerFor } from '../auth/context';
import { urls, type Urls } from '../http/urls';
import { html, type Html } from './html';
import { jsonView } from './json-view';
import { layout } from './layout';
import { pager } from './pager';
import { PAGE_VIEWS, refusedWrite, type PageParts } from './views';

const SHOWN_HEADERS = ['allow', 'content-type', 'link', 'vary', 'www-authenticate', 'retry-after', 'location'];

function breadcrumbs(
  reverse: Urls['reverse'],
  routeName: string | undefined,
  viewName: string,
  parent: PageParts['parent'],
): Html {
  const crumbs: Html[] = [html`<a href="${reverse('api-root')}">Api Root</a>`];
  if (parent) crumbs.push(html`<a href="${parent.href}">${parent.label}</a>`);
  if (routeName !== 'api-root') crumbs.push(html`<span>${viewName}</span>`);
  return html`<nav class="breadcrumbs">${crumbs.map((c, i) => html`${i ? ' / ' : ''}${c}`)}</nav>`;
}

/** The page of an answer: `body` is what the answer's JSON says (the procedure's result on a success, else the refusal). */
export async function renderApiPage(req: Request, res: Response, status: number, body: unknown): Promise<string> {
  const registry = urls(req);
  const reverse = registry.reverse.bind(registry);
  const route = res.locals.route;
  const routeName = req.path === '/' ? 'api-root' : route?.name;
  const viewName = req.path === '/' ? 'Api Root' : (route?.viewName ?? STATUS_CODES[status] ?? 'Error');
  const view = PAGE_VIEWS[req.path === '/' ? 'api-root' : (route?.procedure ?? '')];
  const succeeded = status >= 200 && status < 300;
  const parts: PageParts = view
    ? await view(
        {
          req,
          res,
          reverse,
          user: req.requester?.user ?? null,
          params: res.locals.params ?? {},
          refused: refusedWrite(res),
        },
        succeeded ? body : undefined,
      )
    : {};
  const owners = [...new Set(parts.owners ?? [])];
  const ownerIds = new Map(
    owners.length ? Object.entries(await callerFor(req).users.idsByUsername({ usernames: owners })) : [],
  );
  const headers = SHOWN_HEADERS.flatMap((name) => {
    const value = name === 'content-type' ? (parts.answer?.type ?? 'application/json') : res.getHeader(name);
    return value === undefined
      ? []
      : [html`<b>${name.replace(/(^|-)\w/g, (s) => s.toUpperCase())}:</b> ${String(value)}\n`];
  });
  const answer =
    parts.answer?.html ??
    html`<pre class="json">${jsonView(body, { ids: parts.ids, ownerIds, origin: `${req.protocol}://${req.get('host')}`, urls: registry })}</pre>`;
  const pages = await pager(req, res, status);
  const content = html`${breadcrumbs(reverse, routeName, viewName, parts.parent)}
<h1>${viewName}</h1>
${parts.views ?? ''}
${parts.top ?? ''}
<div class="request"><b>${req.method}</b> ${req.originalUrl}</div>
${pages}
<div class="response" id="response"><pre class="headers"><b>HTTP ${status} ${STATUS_CODES[status] ?? ''}</b>
${headers}</pre>${answer}</div>
${pages}
${parts.bottom ?? ''}`;
  return layout(req, res, viewName, content);
}
