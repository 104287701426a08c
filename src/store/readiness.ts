// /readyz's check of the database: a real read of a table, never queued behind request traffic, and on a Galera node
// the node's own state (a node that left the cluster still answers SELECT 1, but refuses the API's statements).
import { createConnection, type Connection } from 'mysql2';
import type { Config } from '../config';
import { deadline, isSqlite, server, type Store } from './database';
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

export function databaseReadiness(config: Pick<Config, 'DATABASE_URL' | 'DATABASE_TIMEOUT_MS'>, store: Store): Readiness {
  const ms = config.DATABASE_TIMEOUT_MS;
  if (isSqlite(store)) return { check: () => deadline(lookup(store, READ, []).then(() => undefined), ms), close: () => {} };

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
      connection ??= createConnection({ host, port, user, password, database, connectTimeout: ms, charset: 'utf8mb4' }).on('error', drop);
      connection.query({ sql, timeout: ms }, (err, rows) => (err ? reject(err) : resolve(rows as T)));
    });
  return {
    async check() {
      try {
        await deadline(
          (async () => {
            await query(READ);
            const status = new Map((await query<{ Variable_name: string; Value: string }[]>(GALERA)).map((r) => [r.Variable_name, r.Value]));
            if (status.has('wsrep_local_state') && (status.get('wsrep_ready') !== 'ON' || status.get('wsrep_local_state') !== '4')) {
              throw new Error(`this Galera node is not ready (wsrep_ready=${status.get('wsrep_ready')}, wsrep_local_state=${status.get('wsrep_local_state')})`);
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
