// SELECTs as prepared statements, on the reader connection (SQLite) or the pool (MySQL): the ORM re-plans every query.
// A read of a search runs on the search lane (database.ts Lane): its own connections, its own deadline.
import type { PoolConnection } from 'mysql2';
import { statementStop, stoppable } from './cancellation';
import { isSqlite, killerOf, mysqlReader, withReader, type Lane, type Store } from './database';
import { StatementCache } from './statements';

const sqliteStatements = new StatementCache();

/** Which connections a read runs on: the store's readers, or the search lane's (a list with `search` terms). */
export type ReadKind = 'read' | 'search';

const laneOf = (store: Store, kind: ReadKind): Lane => (kind === 'search' ? store.search : store);

/** Runs a SELECT with `?` placeholders as a prepared statement, kept for the life of the connection. */
export function select<T extends object>(
  store: Store,
  sql: string,
  params: readonly unknown[] = [],
  kind: ReadKind = 'read',
): Promise<T[]> {
  return run<T>(store, laneOf(store, kind), sql, params, false);
}

/** A SELECT of one row by key that a request needs before its real work (who sent it): it goes ahead of select()s in line. */
export async function lookup<T extends object>(
  store: Store,
  sql: string,
  params: readonly unknown[],
): Promise<T | undefined> {
  return (await run<T>(store, store, sql, params, true))[0];
}

/** Rows a request needs before its real work, as lookup() (ahead of select()s in line), all of them. */
export function lookupAll<T extends object>(store: Store, sql: string, params: readonly unknown[]): Promise<T[]> {
  return run<T>(store, store, sql, params, true);
}

/**
 * Every read has a stop: its lane's deadline from the call (DATABASE_TIMEOUT_MS; a search's SEARCH_TIMEOUT_MS, so a
 * search waiting that long for its lane is refused: 503 with Retry-After), and its query's client going away
 * (src/store/cancellation.ts).
 * Stopped before it has a connection, it never starts; stopped while it runs, the engine stops it: SQLite interrupts
 * it on its reader (database.ts withReader), MySQL/MariaDB ends its connection on the server (KILL, mysql-kill.ts).
 */
async function run<T extends object>(
  store: Store,
  lane: Lane,
  sql: string,
  params: readonly unknown[],
  urgent: boolean,
): Promise<T[]> {
  const stop = statementStop(lane.timeoutMs);
  try {
    if (isSqlite(store)) {
      return await withReader(
        store,
        lane,
        async (db) => {
          const prepared = await sqliteStatements.get(db, sql);
          return new Promise<T[]>((resolve, reject) =>
            prepared.all(params, (err: Error | null, rows: T[]) => (err ? reject(err) : resolve(rows))),
          );
        },
        urgent,
        stop.signal,
      );
    }
    // mysql2's execute() on a pooled connection (a replica's, with DATABASE_REPLICA_URLS): a server-side prepared
    // statement, cached per connection. A connection that comes after the stop is handed straight back, unused.
    const pool = mysqlReader(lane);
    return await stoppable(stop.signal, {
      take: () =>
        new Promise<PoolConnection>((resolve, reject) =>
          pool.getConnection((err, connection) => (err ? reject(err) : resolve(connection))),
        ),
      run: (connection) =>
        new Promise<T[]>((resolve, reject) =>
          connection.execute(sql, params as never, (err, rows) => (err ? reject(err) : resolve(rows as T[]))),
        ),
      // The server ends the connection and its statement; here it is closed, so the pool never hands it out again
      // (its release() is then a no-op).
      halt(connection) {
        killerOf(store, connection)?.kill(connection.threadId);
        connection.destroy();
      },
      give: (connection) => connection.release(),
    });
  } finally {
    stop.done();
  }
}
