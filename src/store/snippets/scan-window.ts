// A search page's window: the snippets it may examine, at most Scan.rows of those that pass the list's other
// conditions, in list order from the page's position. The costly checks of its terms run on those rows alone, so a page
// costs a bounded amount whatever it searches for; what lies past the window is its cursor's (docs/api.md, "Finding
// snippets").
import type { Store } from '../database';
import { select } from '../select';
import type { Bounds } from '../search';
import { listOrder, pastKey, whereOf, type Key } from '../keyset';
import type { Scan } from './selection';

/** A position in the list: the (created, id) of a snippet. */
export type Position = Key & { created: string | Date };

export interface Window {
  /** The page's bounds, narrowed to the window. */
  bounds: Bounds;
  /** The costly checks and their parameters, to add to the page's conditions after the index's. */
  check: string[];
  params: unknown[];
  /**
   * Where the window ends, when rows lie past it: its last row (`inclusive`), or the first row past it. Undefined when
   * the window holds every row left.
   */
  end?: Position;
}

/**
 * The window of a page within `bounds`: the rows before the one at Scan.rows (inclusive: the window's last row is its
 * end; otherwise the first row past it is), found by one read of the list's index, no text read.
 */
export async function windowOf(store: Store, scan: Scan, bounds: Bounds, inclusive: boolean): Promise<Window> {
  const [end] = await select<Position>(
    store,
    `SELECT s.id, s.created FROM ${store.engine.snippetsTable}${whereOf(bounds.where)} ${listOrder(bounds.descending)} LIMIT 1 OFFSET ?`,
    [...bounds.params, inclusive ? scan.rows - 1 : scan.rows],
    'search',
  );
  if (!end) return { bounds, check: scan.check, params: scan.params };
  const limit = pastKey(end, bounds.descending ? '>' : '<', inclusive);
  return {
    bounds: {
      where: [...bounds.where, limit.where],
      params: [...bounds.params, ...limit.params],
      descending: bounds.descending,
    },
    check: scan.check,
    params: scan.params,
    end: { created: end.created, id: end.id },
  };
}
