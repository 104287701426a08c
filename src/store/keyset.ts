// Keyset paging over the (created, id) index of `snippets s`, written once for every list and the search's walk.
import type { Condition } from './search';

/** A position in the list: the (created, id) of a snippet. */
export interface Key {
  created: unknown;
  id: number;
}

/**
 * The rows past `key` in (created, id) order: after it with `>`, before it with `<`; `inclusive` takes the key's own
 * row too. The leading `created >= ?` (`<=`) is implied by the rest and is there for the planner: from the OR alone
 * SQLite takes no range and read the index from the list's first row, 21.8 ms for a page at row 90,000 of 100,000
 * against 0.34 ms seeking it (test/src/store/keyset-seek.test.ts; docs/search.md, "A page after a cursor seeks it").
 */
export function pastKey(key: Key, cmp: '<' | '>', inclusive = false): Condition {
  return {
    where: `s.created ${cmp}= ? AND (s.created ${cmp} ? OR (s.created = ? AND s.id ${cmp}${inclusive ? '=' : ''} ?))`,
    params: [key.created, key.created, key.created, key.id],
  };
}

/** The keys in the list's order, oldest first or newest first, as `prefix` names them (`s.`, or none for a result's). */
export const keyOrder = (descending: boolean, prefix = 's.') =>
  descending ? `${prefix}created DESC, ${prefix}id DESC` : `${prefix}created, ${prefix}id`;

/** The list's order, oldest first or newest first. */
export const listOrder = (descending: boolean) => `ORDER BY ${keyOrder(descending)}`;

/** ` WHERE` and every condition, each in parentheses (one may be an OR), or nothing. */
export const whereOf = (conditions: readonly string[]) =>
  conditions.length ? ` WHERE ${conditions.map((c) => `(${c})`).join(' AND ')}` : '';
