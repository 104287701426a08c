// The list's filters as SQL conditions on `snippets s`: owner, language, the creation window, and the search (its SQL
// the engine's: docs/api.md, "Finding snippets"), with the list's direction and the key its cursors carry.
import { filterKey, parseInstant, parseSearch, type SnippetFilters } from '../../snippets/query';
import type { Store } from '../database';
import type { ReadKind } from '../engine';
import type { SearchIndexUse, SearchTerms } from '../search';

/**
 * What a list selects and in which direction; `key` binds its cursors to it (none for the plain list). `index`, when
 * present, is one more condition, worked out for each page (src/store/sqlite/search.ts). `kind` is 'search' for a
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
  /** A search's bound (src/store/snippets/scan-window.ts): the rows a page examines at most, and the checks run on those only. */
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

/** The rows a search page examines at most by default (SEARCH_SCAN_ROWS, docs/configuration.md). */
export const SCAN_ROWS = 2000;

export const PLAIN_LIST: ListSelection = { where: [], params: [], descending: false };

/**
 * The selection the procedure's filters ask for; the plain list when they ask for nothing. A search's pages examine
 * at most `scanRows` snippets each. `terms`: the search text as the procedure split it (once: the engine and the
 * cursor's key take these).
 */
export async function selectionOf(
  store: Store,
  filters: SnippetFilters,
  terms: SearchTerms = parseSearch(filters.search),
  scanRows = SCAN_ROWS,
): Promise<ListSelection> {
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
    params.push(store.engine.time(after));
  }
  const before = filters.created_before ? parseInstant(filters.created_before) : undefined;
  if (before) {
    where.push('s.created < ?');
    params.push(store.engine.time(before));
  }
  const search = await store.engine.search(terms);
  where.push(...search.where);
  params.push(...search.params);
  return {
    where,
    params,
    descending: filters.ordering === '-created',
    key: filterKey(filters, terms.all),
    index: search.index,
    kind: terms.all.length ? 'search' : 'read',
    scan: terms.all.length ? { rows: scanRows, check: search.check, params: search.checkParams } : undefined,
  };
}
