// /readyz's check of the database: a real read of a table, never queued behind request traffic, and on a Galera node
// the node's own state (a node that left the cluster still answers SELECT 1, but refuses the API's statements); and
// whether it can take writes (a full disk).
import { statfs } from 'node:fs/promises';
import path from 'node:path';
import { createConnection, type Connection } from 'mysql2';
import type { Config } from '../config';
import { deadline, isSqlite, server, sqliteFile, type Store } from './database';
import { lookup } from './select';

/** A read of a table the API reads: the table exists, the connection reads it. */
const READ = 'SELECT id FROM snippets ORDER BY id LIMIT 1';
/**
 * Galera's state of this node. MariaDB without a provider loaded says wsrep_ready=OFF and has no wsrep_local_state
 * (MySQL has neither): only a node with the state is judged by them. 4 is Synced.
 */
const GALERA = "SHOW GLOBAL STATUS WHERE Variable_name IN ('wsrep_ready', 'wsrep_local_state')";

export interface Readiness {
  /** Resolves when the database can serve this instance, rejects (within DATABASE_TIMEOUT_MS) otherwise. */
  check(): Promise<void>;
  close(): void;
}

export function databaseReadiness(
  config: Pick<Config, 'DATABASE_URL' | 'DATABASE_TIMEOUT_MS'>,
  store: Store,
): Readiness {
  const ms = config.DATABASE_TIMEOUT_MS;
  if (isSqlite(store))
    return {
      check: () =>
        deadline(
          lookup(store, READ, []).then(() => undefined),
          ms,
        ),
      close: () => {},
    };

  // MySQL/MariaDB: a connection of its own, outside both pools, so a full pool (a burst of writes, a stalled node)
  // never makes the probe wait for a slot; made again after any failure.
  const { host, port, username: user, password, database } = server(config.DATABASE_URL);
  let connection: Connection | undefined;
  const drop = () => {
    connection?.destroy();
    connection = undefined;
  };
  const query = <T>(sql: string) =>
    new Promise<T>((resolve, reject) => {
      connection ??= createConnection({
        host,
        port,
        user,
        password,
        database,
        connectTimeout: ms,
        charset: 'utf8mb4',
      }).on('error', drop);
      connection.query({ sql, timeout: ms }, (err, rows) => (err ? reject(err) : resolve(rows as T)));
    });
  return {
    async check() {
      try {
        await deadline(
          (async () => {
            await query(READ);
            const status = new Map(
              (await query<{ Variable_name: string; Value: string }[]>(GALERA)).map((r) => [r.Variable_name, r.Value]),
            );
            if (
              status.has('wsrep_local_state') &&
              (status.get('wsrep_ready') !== 'ON' || status.get('wsrep_local_state') !== '4')
            ) {
              throw new Error(
                `this Galera node is not ready (wsrep_ready=${status.get('wsrep_ready')}, wsrep_local_state=${status.get('wsrep_local_state')})`,
              );
            }
          })(),
          ms,
        );
      } catch (err) {
        drop();
        throw err;
      }
    },
    close: drop,
  };
}

/** Free space below this on a SQLite file's filesystem counts as full: a save's WAL frames alone can take more. */
const SQLITE_MIN_FREE_BYTES = 1024 * 1024;

/**
 * Why the database cannot take writes now, or undefined: the last write found the disk full (and none has gone through
 * since), or, for a SQLite file, its filesystem has (next to) no space left for this process. Reads go on either way.
 */
export async function writesRefusedBecause(store: Store): Promise<string | undefined> {
  if (store.diskFullSince !== undefined)
    return `The database cannot take writes: its disk has been full since ${new Date(store.diskFullSince).toISOString()}.`;
  const file = sqliteFile(store);
  if (!file) return undefined;
  const { bavail, bsize } = await statfs(path.dirname(path.resolve(file)));
  if (bavail * bsize < SQLITE_MIN_FREE_BYTES)
    return `The database cannot take writes: the disk of its file has ${bavail * bsize} bytes free.`;
  return undefined;
}
