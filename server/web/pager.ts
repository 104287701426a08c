// The browsable list's Previous and Next links: Next from the answer's own Link header, Previous read back from the
// page's cursor. Both are ordinary forward pages of the JSON API (`?limit=N&cursor=…`), so a link works in either format.
import type { Request, Response } from 'express';
import { previousCursor } from '../../src/store/snippets';
import { html, type Html } from './html';

/** The cursor of the `rel="next"` target of a Link header (the facade writes it; RFC 8288). */
function nextCursor(link: unknown): string | undefined {
  const target = typeof link === 'string' ? /<([^>]*)>;\s*rel="next"/.exec(link)?.[1] : undefined;
  return target ? (new URL(target).searchParams.get('cursor') ?? undefined) : undefined;
}

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
  const next = nextCursor(res.getHeader('link'));
  const previous = page.cursor ? await previousCursor(page.limit, page.cursor) : undefined;
  if (!next && !previous) return html``;
  return html`<nav class="pager">${previous ? html`<a class="previous" rel="prev" href="${hrefAt(req, previous.cursor)}">← Previous</a>` : ''}${
    next ? html`<a class="next" rel="next" href="${hrefAt(req, next)}">Next →</a>` : ''
  }</nav>`;
}
