// SELECTs as prepared statements on the engine's read connections (src/store/engine.ts): the ORM re-plans every query.
// A read of a search runs on the search lane: its own connections, its own deadline.
import type { Store } from './database';
import type { ReadKind } from './engine';

export type { ReadKind };

/** Runs a SELECT with `?` placeholders as a prepared statement, kept for the life of the connection. */
export function select<T extends object>(
  store: Store,
  sql: string,
  params: readonly unknown[] = [],
  kind: ReadKind = 'read',
): Promise<T[]> {
  return store.engine.select<T>(sql, params, kind, false);
}

/**
 * Runs a SELECT of many rows (a page) as select(): `columns` are its result columns, `order` its ORDER BY in their
 * names; the engine may read them in one value (Engine.selectMany).
 */
export function selectMany<T extends object>(
  store: Store,
  sql: string,
  params: readonly unknown[],
  columns: readonly string[],
  order: string,
  kind: ReadKind = 'read',
): Promise<T[]> {
  return store.engine.selectMany<T>(sql, params, kind, columns, order);
}

/** A SELECT of one row by key that a request needs before its real work (who sent it): it goes ahead of select()s in line. */
export async function lookup<T extends object>(
  store: Store,
  sql: string,
  params: readonly unknown[],
): Promise<T | undefined> {
  return (await store.engine.select<T>(sql, params, 'read', true))[0];
}

/** Rows a request needs before its real work, as lookup() (ahead of select()s in line), all of them. */
export function lookupAll<T extends object>(store: Store, sql: string, params: readonly unknown[]): Promise<T[]> {
  return store.engine.select<T>(sql, params, 'read', true);
}
