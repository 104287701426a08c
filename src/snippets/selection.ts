// The list's filters as SQL conditions on `snippets s`, for each engine: owner, language, the creation window, and
// the search (docs/api.md, "Finding snippets"), with the list's direction and the key its cursors carry.
import { filterKey, isShortTerm, parseInstant, searchTerms, type SnippetFilters } from './query';
import { isSqlite, type Store } from '../store/database';
import type { ReadKind } from '../store/select';
import { searchIndex, type SearchIndexUse } from './search-index';
import { globOf, indexedChunks, isLongTerm } from './long-terms';

/**
 * What a list selects and in which direction; `key` binds its cursors to it (none for the plain list). `index`, when
 * present, is one more condition, worked out for each page (src/snippets/search-index.ts). `kind` is 'search' for a
 * list with search terms: its statements run on the search lane (src/store/database.ts Lane), never on the readers of
 * detail reads and plain lists.
 */
export interface ListSelection {
  where: string[];
  params: unknown[];
  descending: boolean;
  key?: string;
  index?: SearchIndexUse;
  kind?: ReadKind;
  /** A search's bound (src/snippets/scan-window.ts): the rows a page examines at most, and the checks run on those only. */
  scan?: Scan;
}

/**
 * The work of a search page, bounded: it examines at most `rows` snippets that pass the list's other conditions (the
 * index's ids among them), in list order, runs `check` (the costly conditions: a substring looked for in the text) on
 * those alone, and hands what lies past them to its cursor.
 */
export interface Scan {
  rows: number;
  check: string[];
  params: unknown[];
}

export const PLAIN_LIST: ListSelection = { where: [], params: [], descending: false };

/** SQLite keeps `created` as the text Sequelize wrote (`2026-11-24 11:30:00.123 +00:00`), compared as text; MySQL compares a Date. */
function createdParam(store: Store, instant: Date): unknown {
  return isSqlite(store) ? `${instant.toISOString().replace('T', ' ').replace('Z', '')} +00:00` : instant;
}

/** An FTS5 string: the term between double quotes, each of its own doubled, so no character is FTS5 syntax. */
const ftsString = (term: string) => `"${term.replaceAll('"', '""')}"`;

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
 * Search on SQLite: terms of three characters or more through the FTS5 trigram index (snippet_search, kept by
 * triggers in the row's own transaction), shorter ones by instr() on the rows left. On MySQL/MariaDB every term is
 * looked for in the lowered title and code (no index: docs/api.md, "Finding snippets").
 */
async function searchConditions(
  store: Store,
  terms: string[],
): Promise<{ where: string[]; params: unknown[]; check: string[]; checkParams: unknown[]; index?: SearchIndexUse }> {
  const where: string[] = [];
  const params: unknown[] = [];
  const check: string[] = [];
  const checkParams: unknown[] = [];
  let index: SearchIndexUse | undefined;
  if (isSqlite(store)) {
    const long = terms.filter((t) => !isShortTerm(t));
    if (long.length) {
      // A long term is asked of the index by a few of its pieces, and checked whole on the rows they find.
      const use = await searchIndex(store, [...new Set(long.flatMap(indexedChunks))].map(ftsString));
      if ('page' in use) index = use;
      else {
        where.push(use.where);
        params.push(...use.params);
      }
    }
    for (const term of long.filter(isLongTerm)) {
      check.push('(s.title GLOB ? OR s.code GLOB ?)');
      checkParams.push(globOf(term), globOf(term));
    }
    for (const term of terms.filter(isShortTerm)) {
      const variants = caseVariants(term);
      check.push(`(${variants.map(() => 'instr(s.title, ?) > 0 OR instr(s.code, ?) > 0').join(' OR ')})`);
      for (const v of variants) checkParams.push(v, v);
    }
    return { where, params, check, checkParams, index };
  }
  for (const term of terms) {
    check.push('(INSTR(LOWER(s.title), LOWER(?)) > 0 OR INSTR(LOWER(s.code), LOWER(?)) > 0)');
    checkParams.push(term, term);
  }
  return { where, params, check, checkParams };
}

/** The rows a search page examines at most by default (SEARCH_SCAN_ROWS, docs/configuration.md). */
export const SCAN_ROWS = 2000;

/**
 * The selection the procedure's filters ask for; the plain list when they ask for nothing. A search's pages examine
 * at most `scanRows` snippets each.
 */
export async function selectionOf(store: Store, filters: SnippetFilters, scanRows = SCAN_ROWS): Promise<ListSelection> {
  const where: string[] = [];
  const params: unknown[] = [];
  if (filters.owner !== undefined) {
    where.push('s.owner_id = (SELECT id FROM users WHERE username = ?)');
    params.push(filters.owner);
  }
  if (filters.language !== undefined) {
    where.push('s.language = ?');
    params.push(filters.language);
  }
  const after = filters.created_after ? parseInstant(filters.created_after) : undefined;
  if (after) {
    where.push('s.created >= ?');
    params.push(createdParam(store, after));
  }
  const before = filters.created_before ? parseInstant(filters.created_before) : undefined;
  if (before) {
    where.push('s.created < ?');
    params.push(createdParam(store, before));
  }
  const terms = searchTerms(filters.search);
  const search = await searchConditions(store, terms);
  where.push(...search.where);
  params.push(...search.params);
  return {
    where,
    params,
    descending: filters.ordering === '-created',
    key: filterKey(filters),
    index: search.index,
    kind: terms.length ? 'search' : 'read',
    scan: terms.length ? { rows: scanRows, check: search.check, params: search.checkParams } : undefined,
  };
}
