// MySQL/MariaDB's /readyz probe: a real read of a table on a connection of its own, and on a Galera node the node's
// own state (a node that left the cluster still answers SELECT 1, but refuses the API's statements).
import { createConnection, type Connection } from 'mysql2';
import { deadline } from '../deadline';
import { READINESS_READ, type Readiness } from '../engine';
import { server } from './server';

/**
 * Galera's state of this node. MariaDB without a provider loaded says wsrep_ready=OFF and has no wsrep_local_state
 * (MySQL has neither): only a node with the state is judged by them. 4 is Synced.
 */
const GALERA = "SHOW GLOBAL STATUS WHERE Variable_name IN ('wsrep_ready', 'wsrep_local_state')";

/**
 * A connection of its own, outside both pools, so a full pool (a burst of writes, a stalled node) never makes the probe
 * wait for a slot; made again after any failure.
 */
export function mysqlReadiness(url: string, ms: number): Readiness {
  const { host, port, username: user, password, database } = server(url);
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
            await query(READINESS_READ);
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
