// The browsable list's Previous and Next links: Next is the page's own next cursor (the one its Link header names),
// Previous is read back from the page's cursor. Both are ordinary forward pages of the API (`?limit=N&cursor=…`).
import type { Request, Response } from 'express';
import { callerFor } from '../auth/context';
import { html, type Html } from './html';

/** This page's path and query with another cursor (none: the first page); `limit` and `format` stay as asked. */
function hrefAt(req: Request, cursor: string | undefined): string {
  const url = new URL(req.originalUrl, 'http://local');
  if (cursor) url.searchParams.set('cursor', cursor);
  else url.searchParams.delete('cursor');
  return url.pathname + url.search;
}

/** The links of a list page the facade marked (`res.locals.listPage`); empty for anything else. */
export async function pager(req: Request, res: Response, status: number): Promise<Html> {
  const page = res.locals.listPage;
  if (!page || status !== 200) return html``;
  // The page before, in the same filtered list; other lists (revisions) link forward only.
  const query = {
    ...Object.fromEntries(new URL(req.originalUrl, 'http://local').searchParams),
    limit: String(page.limit),
    cursor: page.cursor,
  };
  const previous =
    page.cursor && res.locals.route?.name === 'snippet-list'
      ? await callerFor(req).snippets.previousPage(query)
      : undefined;
  const { next } = page;
  if (!next && !previous) return html``;
  return html`<nav class="pager">${previous ? html`<a class="previous" rel="prev" href="${hrefAt(req, previous.cursor)}">← Previous</a>` : ''}${
    next ? html`<a class="next" rel="next" href="${hrefAt(req, next)}">Next →</a>` : ''
  }</nav>`;
}
