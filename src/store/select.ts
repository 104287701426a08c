// SELECTs as prepared statements, on the reader connection (SQLite) or the pool (MySQL): the ORM re-plans every query.
import { deadline, isSqlite, mysqlReader, withReader, type Store } from './database';
import { StatementCache } from './statements';

const sqliteStatements = new StatementCache();

/** Runs a SELECT with `?` placeholders as a prepared statement, kept for the life of the connection. */
export function select<T extends object>(store: Store, sql: string, params: readonly unknown[] = []): Promise<T[]> {
  return run<T>(store, sql, params, false);
}

/** A SELECT of one row by key that a request needs before its real work (who sent it): it goes ahead of select()s in line. */
export async function lookup<T extends object>(store: Store, sql: string, params: readonly unknown[]): Promise<T | undefined> {
  return (await run<T>(store, sql, params, true))[0];
}

/** Rows a request needs before its real work, as lookup() (ahead of select()s in line), all of them. */
export function lookupAll<T extends object>(store: Store, sql: string, params: readonly unknown[]): Promise<T[]> {
  return run<T>(store, sql, params, true);
}

async function run<T extends object>(store: Store, sql: string, params: readonly unknown[], urgent: boolean): Promise<T[]> {
  if (isSqlite(store)) {
    return withReader(store, async (db) => {
      const prepared = await sqliteStatements.get(db, sql);
      return new Promise<T[]>((resolve, reject) => prepared.all(params, (err: Error | null, rows: T[]) => (err ? reject(err) : resolve(rows))));
    }, urgent);
  }
  // mysql2's execute() on a pooled connection (a replica's, with DATABASE_REPLICA_URLS): a server-side prepared
  // statement, cached per connection. The pool's connections have deadlines of their own (connect, statement); the
  // one here bounds the wait for a free connection too, which mysql2's pool would let last.
  const rows = new Promise<T[]>((resolve, reject) => mysqlReader(store).execute(sql, params as never, (err, result) => (err ? reject(err) : resolve(result as T[]))));
  return deadline(rows, store.timeoutMs);
}
