// SQLite's snippet search: terms of three characters or more through the FTS5 trigram index (snippet_search, kept by
// triggers in the row's own transaction), each asked as the AND of its trigrams and checked whole with GLOB on the rows
// it finds (./long-terms.ts); shorter ones by instr() on the rows left. A selective query hands the list
// the ids of its matches; a common one is read along the list's order, window by window, each window's matches asked
// of the index by rowid range. Every statement here runs on the search lane (src/store/sqlite/engine.ts).
import { LRUCache } from 'lru-cache';
import { listOrder, pastKey, whereOf, type Key } from '../keyset';
import { termCheck, trigramQuery } from './long-terms';
import {
  isAscii,
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
/**
 * The terms found common lately (more than FEW_MATCHES matches), each with its density, by FTS5 query: a common term's
 * pages walk the list at once, where each page asked the index for the term's first FEW_MATCHES + 1 matches again
 * (0.6 ms of the search lane's one connection a page: docs/search.md, "Common terms remembered"). Only the way a page
 * is read comes from here, never its rows: a term that has since become rare is walked, window by window, and found
 * exactly. A minute, and the 1,000 latest terms, at most.
 */
export type CommonTerms = LRUCache<string, number>;

export const commonTerms = (): CommonTerms => new LRUCache<string, number>({ max: 1000, ttl: 60_000 });

/** A walk's windows: the first sized to hold a page of matches at the likely rarest term's density, then doubling. */
const SMALLEST_WINDOW = 256;
const LARGEST_WINDOW = 8192;

/**
 * The first window of a walk for `wanted` matches, when the likely rarest term is in `density` of the snippets (its
 * first FEW_MATCHES + 1 matches over the ids they span): the power of two that holds half again as many rows as that
 * density needs, since the other terms only make matches sparser (`return self`: `self` in 20% of the bench's first
 * snippets, both in 13%). Each window more costs two statements.
 */
const firstWindow = (wanted: number, density: number) =>
  Math.min(LARGEST_WINDOW, Math.max(SMALLEST_WINDOW, 2 ** Math.ceil(Math.log2((1.5 * wanted) / density))));

/** The list's condition for the ids an index query found, as the JSON array SQLite's json_each reads. */
const idsIn = (json: string): Condition => ({
  where: 's.id IN (SELECT value FROM json_each(?))',
  params: [json],
});

/**
 * The check of a short term of other characters than ASCII: every spelling that FTS5's case folding would take for
 * it, each character in its lower and upper case (at most four for one or two characters), each looked for with
 * instr() (SQLite's lower() and LIKE fold ASCII only, where FTS5 folds every script). An ASCII one is termCheck's.
 */
function spellingsCheck(term: string): { where: string; params: string[] } {
  let variants = [''];
  for (const ch of term) {
    const forms = new Set(
      [ch, ch.toLowerCase(), ch.toUpperCase()].filter(
        (f) => [...f].length === 1 && f.toLowerCase() === ch.toLowerCase(),
      ),
    );
    variants = variants.flatMap((v) => [...forms].map((f) => v + f));
  }
  return {
    where: `(${variants.map(() => 'instr(s.title, ?) > 0 OR instr(s.code, ?) > 0').join(' OR ')})`,
    params: variants.flatMap((v) => [v, v]),
  };
}

/**
 * The search's conditions: the index's for the terms of three characters or more (each asked by its trigrams and
 * checked whole on the rows they find: ./long-terms.ts), the checks alone for the short ones; the long terms' checks
 * first, the likely rarest first.
 */
export async function sqliteSearch(
  select: Select,
  { long, short }: SearchTerms,
  common: CommonTerms,
): Promise<SearchSql> {
  const ordered = rarerFirst(long);
  const checks = [...ordered.map(termCheck), ...short.map((t) => (isAscii(t) ? termCheck(t) : spellingsCheck(t)))];
  const check = checks.map((c) => c.where);
  const checkParams = checks.flatMap((c) => c.params);
  if (!long.length) return { where: [], params: [], check, checkParams };
  const every: Condition = { where: check.map((c) => `(${c})`).join(' AND '), params: checkParams };
  const use = await searchIndex(select, [...new Set(ordered.map(trigramQuery))], every, common);
  if ('page' in use) return { where: [], params: [], check, checkParams, index: use };
  return { where: [use.where], params: use.params, check, checkParams };
}

/**
 * How the list uses the index for FTS5 queries `terms` (each a term's trigrams, the likely rarest term's first:
 * rarerFirst; a snippet may hold the terms when it matches them all, and does when it also passes `checks`, every
 * term's). The likely rarest is asked alone for its first FEW_MATCHES + 1 matches, and the AND of them all only when
 * it is rare: FTS5 then steps through the rare term's matches, seeking in the other lists. When it is common, the
 * others likely are too (`return self`: 69% and 16% of the bench's snippets), and asking each would read FEW_MATCHES
 * + 1 matches of every one, 3 ms each at 100,000 snippets (docs/search.md, "Two common terms"); two common terms that
 * seldom meet are never asked at once over the whole index, which reads both lists to their ends: the list is walked,
 * window by window, each window's matches of them all asked by id range.
 */
async function searchIndex(
  select: Select,
  terms: string[],
  checks: Condition,
  common: CommonTerms,
): Promise<Condition | SearchIndexUse> {
  const match = terms.map((t) => `(${t})`).join(' AND ');
  const walked = (density: number): SearchIndexUse => ({
    page: (bounds, wanted) => walk(select, match, checks, bounds, firstWindow(wanted, density), wanted),
  });
  const known = common.get(terms[0]!);
  if (known !== undefined) return walked(known);
  // Counted and joined by SQLite: one row, not an object for each of up to FEW_MATCHES + 1 ids (2 ms for a common
  // term's 2,001: docs/search.md, "Two common terms, walked by the index").
  const matches = async (query: string) =>
    (
      await select<{ n: number; ids: string | null; lo: number | null; hi: number | null }>(
        `SELECT count(*) AS n, '[' || group_concat(rowid) || ']' AS ids, min(rowid) AS lo, max(rowid) AS hi FROM (SELECT rowid FROM snippet_search WHERE snippet_search MATCH ? LIMIT ?)`,
        [query, FEW_MATCHES + 1],
      )
    )[0]!;
  const first = await matches(terms[0]!);
  if (first.n <= FEW_MATCHES) return idsIn((terms.length === 1 || !first.n ? first : await matches(match)).ids ?? '[]');
  const density = first.n / (first.hi! - first.lo! + 1);
  common.set(terms[0]!, density);
  return walked(density);
}

/**
 * The ids of the first `wanted` snippets within `bounds`, in its order, that match: windows of the list, each
 * window's matches found by one index query over its id range, checked for every term (the ids handed on are the
 * page's: it runs no check again) and kept to the window by its bounds, the window doubling while matches are
 * sparse. Of a window only its last row and its id range come back (one statement, each from the (created, id)
 * index), not its every row: 1,024 rows took 1.25 ms to hand over (docs/search.md, "Two common terms, walked by the
 * index"). Ids that follow creation order keep each range as small as its window.
 */
async function walk(
  select: Select,
  match: string,
  checks: Condition,
  bounds: Bounds,
  first: number,
  wanted: number,
): Promise<Condition> {
  const found: number[] = [];
  const order = listOrder(bounds.descending);
  let last: Key | undefined;
  for (let window = first; ; window = Math.min(window * 2, LARGEST_WINDOW)) {
    const past = last && pastKey(last, bounds.descending ? '<' : '>');
    const where = past ? [...bounds.where, past.where] : bounds.where;
    const params = past ? [...bounds.params, ...past.params] : bounds.params;
    // The window's last row (none when fewer rows than a window are left) and its id range, in one statement, each
    // read along the (created, id) index.
    const inOrder = `FROM snippets s${whereOf(where)} ${order} LIMIT`;
    const [span] = await select<{ id: number | null; created: unknown; lo: number | null; hi: number | null }>(
      `SELECT (SELECT s.id ${inOrder} 1 OFFSET ?) AS id, (SELECT s.created ${inOrder} 1 OFFSET ?) AS created,
         min(id) AS lo, max(id) AS hi FROM (SELECT s.id AS id ${inOrder} ?)`,
      [...params, window - 1, ...params, window - 1, ...params, window],
    );
    if (span?.lo == null) break;
    const end: Key | undefined = span.id == null ? undefined : { id: span.id, created: span.created };
    const through = end ? pastKey(end, bounds.descending ? '>' : '<', true) : undefined;
    const inWindow = through ? [...where, through.where] : where;
    const windowParams = through ? [...params, ...through.params] : params;
    const inRange = 's.id IN (SELECT rowid FROM snippet_search WHERE snippet_search MATCH ? AND rowid BETWEEN ? AND ?)';
    const hits = await select<{ id: number }>(
      `SELECT s.id FROM snippets s${whereOf([inRange, ...inWindow, checks.where])} ${order}`,
      [match, span.lo, span.hi, ...windowParams, ...checks.params],
    );
    found.push(...hits.map((r) => r.id));
    if (found.length >= wanted || !end) break;
    last = end;
  }
  return idsIn(JSON.stringify(found.slice(0, wanted)));
}
