// A Galera node's health as HTTP, for HAProxy's `option httpchk`: 200 when the node is Synced and ready, else 503.
// Usage: node galera-check.mjs LISTEN_PORT=DB_HOST:DB_PORT [...]   (one HTTP port per node checked)
// Env: GALERA_CHECK_USER, GALERA_CHECK_PASSWORD (any account: SHOW STATUS needs no privilege), GALERA_CHECK_HOST
// (the address the checks listen on; 127.0.0.1 unless set). Runs from the repo (or its image): mysql2 is a dependency.
/* global process, console */
import http from 'node:http';
import mysql from 'mysql2/promise';

const user = process.env.GALERA_CHECK_USER ?? 'root';
const password = process.env.GALERA_CHECK_PASSWORD ?? '';
const listenHost = process.env.GALERA_CHECK_HOST ?? '127.0.0.1';

/**
 * Synced (wsrep_local_state 4) and wsrep_ready ON: the node is in the primary component and applies writes. A node
 * that is isolated, joining, or a donor still accepts connections (a TCP check or `mysql-check` passes), but its
 * queries fail ("WSREP has not yet prepared node for application use") or see stale data.
 */
async function state(host, port) {
  const conn = await mysql.createConnection({ host, port, user, password, connectTimeout: 2000 });
  try {
    const [rows] = await conn.query({
      sql: "SHOW GLOBAL STATUS WHERE Variable_name IN ('wsrep_local_state', 'wsrep_ready')",
      timeout: 2000,
    });
    const status = Object.fromEntries(rows.map((r) => [r.Variable_name, r.Value]));
    return { synced: status.wsrep_local_state === '4' && status.wsrep_ready === 'ON', status };
  } finally {
    // A quit, not a dropped socket: the node would log every check as an aborted connection.
    await conn.end().catch(() => conn.destroy());
  }
}

for (const arg of process.argv.slice(2)) {
  const m = /^(\d+)=(.+):(\d+)$/.exec(arg);
  if (!m) {
    console.error(`galera-check: expected LISTEN_PORT=HOST:PORT, got ${arg}`);
    process.exit(2);
  }
  const [, listen, host, port] = m;
  http
    .createServer((_req, res) => {
      state(host, Number(port)).then(
        ({ synced, status }) => {
          res.writeHead(synced ? 200 : 503, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ node: `${host}:${port}`, synced, ...status }));
        },
        (err) => {
          res.writeHead(503, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ node: `${host}:${port}`, synced: false, error: err.code ?? 'unreachable' }));
        },
      );
    })
    .listen(Number(listen), listenHost);
}
