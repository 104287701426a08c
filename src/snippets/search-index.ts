// SQLite's search through the FTS5 trigram index: a selective query hands the list the ids of its matches; a common
// one is read along the list's order, window by window, each window's matches asked of the index by rowid range.
// Every statement here runs on the search lane (src/store/database.ts Lane).
import type { Store } from '../store/database';
import { select } from '../store/select';

/** A condition on `snippets s` with its parameters. */
export interface Condition {
  where: string;
  params: unknown[];
}

/** Where a page is read: the list's conditions (its position included) and its direction. */
export interface Bounds {
  where: string[];
  params: unknown[];
  descending: boolean;
}

/** A search index condition that depends on the page: `whole` for the list at once, `page` for `wanted` rows within bounds. */
export interface SearchIndexUse {
  whole: Condition;
  page(bounds: Bounds, wanted: number): Promise<Condition>;
}

/**
 * Up to this many matches, the list is given their ids. Past it, reading every match for each page costs more than
 * walking the list: 100,000 snippets, 69,000 matches of `return`, 72 ms to read them all (docs/benchmarks.md, "Search").
 */
const FEW_MATCHES = 2000;
const FIRST_WINDOW = 256;
const LARGEST_WINDOW = 8192;

const idsIn = (ids: number[]): Condition => ({
  where: 's.id IN (SELECT value FROM json_each(?))',
  params: [JSON.stringify(ids)],
});

/**
 * How the list uses the index for FTS5 strings `terms` (each a phrase; a snippet matches when it holds them all). Each
 * term is first asked alone for its first FEW_MATCHES + 1 matches, longest first (the likelier rare), and their AND
 * only once one of them is rare: FTS5 then steps through the rare term's matches, seeking in the other lists. Two
 * common terms that seldom meet (`return self`) are never asked at once over the whole index, which reads both lists
 * to their ends: the list is walked, window by window, each window's matches of them all asked by id range.
 */
export async function searchIndex(store: Store, terms: string[]): Promise<Condition | SearchIndexUse> {
  const match = terms.join(' AND ');
  const matches = (query: string) =>
    select<{ id: number }>(
      store,
      'SELECT rowid AS id FROM snippet_search WHERE snippet_search MATCH ? LIMIT ?',
      [query, FEW_MATCHES + 1],
      'search',
    );
  for (const term of [...terms].sort((a, b) => b.length - a.length)) {
    const rows = await matches(term);
    if (rows.length > FEW_MATCHES) continue;
    return idsIn((terms.length === 1 || !rows.length ? rows : await matches(match)).map((r) => r.id));
  }
  return {
    whole: { where: 's.id IN (SELECT rowid FROM snippet_search WHERE snippet_search MATCH ?)', params: [match] },
    page: (bounds, wanted) => walk(store, match, bounds, wanted),
  };
}

/**
 * The ids of the first `wanted` snippets within `bounds`, in its order, that match: windows of the list (ids and
 * creation times from the (created, id) index), each window's matches found by one index query over its id range,
 * the window doubling while matches are sparse. Ids that follow creation order keep each range as small as its window.
 */
async function walk(store: Store, match: string, bounds: Bounds, wanted: number): Promise<Condition> {
  const cmp = bounds.descending ? '<' : '>';
  const order = bounds.descending ? 'ORDER BY s.created DESC, s.id DESC' : 'ORDER BY s.created, s.id';
  const found: number[] = [];
  const within = bounds.where.map((w) => `(${w})`); // the plain list's position is an OR written bare
  let last: { id: number; created: unknown } | undefined;
  for (let window = FIRST_WINDOW; ; window = Math.min(window * 2, LARGEST_WINDOW)) {
    const where = last ? [...within, `(s.created ${cmp} ? OR (s.created = ? AND s.id ${cmp} ?))`] : within;
    const params = last ? [...bounds.params, last.created, last.created, last.id] : bounds.params;
    const rows = await select<{ id: number; created: unknown }>(
      store,
      `SELECT s.id, s.created FROM snippets s${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ${order} LIMIT ?`,
      [...params, window],
      'search',
    );
    if (!rows.length) break;
    const ids = rows.map((r) => r.id);
    const hits = await select<{ id: number }>(
      store,
      'SELECT rowid AS id FROM snippet_search WHERE snippet_search MATCH ? AND rowid BETWEEN ? AND ?',
      [match, Math.min(...ids), Math.max(...ids)],
      'search',
    );
    const matching = new Set(hits.map((r) => r.id));
    found.push(...ids.filter((id) => matching.has(id)));
    if (found.length >= wanted || rows.length < window) break;
    last = rows[rows.length - 1];
  }
  return idsIn(found.slice(0, wanted));
}
