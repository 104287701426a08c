// SQLite's snippet search: terms of three characters or more through the FTS5 trigram index (snippet_search, kept by
// triggers in the row's own transaction), each asked as the AND of its trigrams and checked whole with GLOB on the rows
// it finds (./long-terms.ts); shorter ones by instr() on the rows left. A selective query hands the list
// the ids of its matches; a common one is read along the list's order, window by window, each window's matches asked
// of the index by rowid range. Every statement here runs on the search lane (src/store/sqlite/engine.ts).
import { listOrder, pastKey, whereOf, type Key } from '../keyset';
import { termCheck, trigramQuery } from './long-terms';
import {
  rarerFirst,
  type Bounds,
  type Condition,
  type SearchIndexUse,
  type SearchSql,
  type SearchTerms,
} from '../search';

/** A SELECT on the search lane. */
type Select = <T extends object>(sql: string, params: readonly unknown[]) => Promise<T[]>;

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
 * Every spelling of a short term that FTS5's case folding would take for it: each character in its lower and upper
 * case. A term of one or two characters has at most four, each looked for with instr() (SQLite's lower() and LIKE
 * fold ASCII only, where FTS5 folds every script).
 */
function caseVariants(term: string): string[] {
  let variants = [''];
  for (const ch of term) {
    const forms = new Set(
      [ch, ch.toLowerCase(), ch.toUpperCase()].filter(
        (f) => [...f].length === 1 && f.toLowerCase() === ch.toLowerCase(),
      ),
    );
    variants = variants.flatMap((v) => [...forms].map((f) => v + f));
  }
  return variants;
}

/**
 * The search's conditions: the index's for the terms of three characters or more (each asked by its trigrams and
 * checked whole on the rows they find: ./long-terms.ts), instr()'s checks for the short ones.
 */
export async function sqliteSearch(select: Select, { long, short }: SearchTerms): Promise<SearchSql> {
  const where: string[] = [];
  const params: unknown[] = [];
  const check: string[] = [];
  const checkParams: unknown[] = [];
  let index: SearchIndexUse | undefined;
  const ordered = rarerFirst(long);
  const checks = ordered.map(termCheck);
  const whole: Condition = {
    where: checks.map((c) => c.where).join(' AND '),
    params: checks.flatMap((c) => c.params),
  };
  if (long.length) {
    const use = await searchIndex(select, [...new Set(ordered.map(trigramQuery))], whole);
    if ('page' in use) index = use;
    else {
      where.push(use.where);
      params.push(...use.params);
    }
    check.push(whole.where);
    checkParams.push(...whole.params);
  }
  for (const term of short) {
    const variants = caseVariants(term);
    check.push(`(${variants.map(() => 'instr(s.title, ?) > 0 OR instr(s.code, ?) > 0').join(' OR ')})`);
    for (const v of variants) checkParams.push(v, v);
  }
  return { where, params, check, checkParams, index };
}

/**
 * How the list uses the index for FTS5 queries `terms` (each a term's trigrams, the likely rarest term's first:
 * rarerFirst; a snippet may hold the terms when it matches them all, and does when it also passes `whole`, their
 * checks). The likely rarest is asked alone for its first FEW_MATCHES + 1 matches, and the AND of them all only when
 * it is rare: FTS5 then steps through the rare term's matches, seeking in the other lists. When it is common, the
 * others likely are too (`return self`: 69% and 16% of the bench's snippets), and asking each would read FEW_MATCHES
 * + 1 matches of every one, 3 ms each at 100,000 snippets (docs/search.md, "Two common terms"); two common terms that
 * seldom meet are never asked at once over the whole index, which reads both lists to their ends: the list is walked,
 * window by window, each window's matches of them all asked by id range.
 */
async function searchIndex(select: Select, terms: string[], whole: Condition): Promise<Condition | SearchIndexUse> {
  const match = terms.map((t) => `(${t})`).join(' AND ');
  const matches = (query: string) =>
    select<{ id: number }>('SELECT rowid AS id FROM snippet_search WHERE snippet_search MATCH ? LIMIT ?', [
      query,
      FEW_MATCHES + 1,
    ]);
  const rows = await matches(terms[0]!);
  if (rows.length <= FEW_MATCHES)
    return idsIn((terms.length === 1 || !rows.length ? rows : await matches(match)).map((r) => r.id));
  return {
    whole: {
      where: `s.id IN (SELECT rowid FROM snippet_search WHERE snippet_search MATCH ?) AND ${whole.where}`,
      params: [match, ...whole.params],
    },
    page: (bounds, wanted) => walk(select, match, whole, bounds, wanted),
  };
}

/**
 * The ids of the first `wanted` snippets within `bounds`, in its order, that match: windows of the list (ids and
 * creation times from the (created, id) index), each window's matches found by one index query over its id range and
 * checked whole (the ids handed on must be the page's, not candidates a later check would drop),
 * the window doubling while matches are sparse. Ids that follow creation order keep each range as small as its window.
 */
async function walk(
  select: Select,
  match: string,
  whole: Condition,
  bounds: Bounds,
  wanted: number,
): Promise<Condition> {
  const found: number[] = [];
  let last: Key | undefined;
  for (let window = FIRST_WINDOW; ; window = Math.min(window * 2, LARGEST_WINDOW)) {
    const past = last && pastKey(last, bounds.descending ? '<' : '>');
    const where = past ? [...bounds.where, past.where] : bounds.where;
    const params = past ? [...bounds.params, ...past.params] : bounds.params;
    const rows = await select<Key>(
      `SELECT s.id, s.created FROM snippets s${whereOf(where)} ${listOrder(bounds.descending)} LIMIT ?`,
      [...params, window],
    );
    if (!rows.length) break;
    const ids = rows.map((r) => r.id);
    const hits = await select<{ id: number }>(
      `SELECT s.id FROM snippets s WHERE s.id IN (SELECT rowid FROM snippet_search WHERE snippet_search MATCH ? AND rowid BETWEEN ? AND ?) AND ${whole.where}`,
      [match, Math.min(...ids), Math.max(...ids), ...whole.params],
    );
    const matching = new Set(hits.map((r) => r.id));
    found.push(...ids.filter((id) => matching.has(id)));
    if (found.length >= wanted || rows.length < window) break;
    last = rows[rows.length - 1];
  }
  return idsIn(found.slice(0, wanted));
}
