// A mysql:// (or mariadb://) URL's connection settings.
import type { PoolOptions } from 'mysql2';

/** Connection settings of one mysql:// URL, in the shape Sequelize's replication option takes. */
export function server(url: string) {
  const u = new URL(url.replace(/^mariadb:/, 'mysql:'));
  return {
    host: u.hostname,
    port: Number(u.port || 3306),
    username: decodeURIComponent(u.username),
    password: decodeURIComponent(u.password),
    database: decodeURIComponent(u.pathname.slice(1)),
  };
}

/**
 * A mysql2 pool of up to `size` connections to `url`'s server, for the statements the store runs on its own: dates in
 * UTC (as Sequelize's), connections kept between statements, a connect bounded by `connectTimeoutMs`, and an UPDATE's
 * affected rows those it changed, not those it matched (`-FOUND_ROWS`, as Sequelize's connections: the Tx contract,
 * src/store/engine.ts). With `maxIdle` under the pool's size mysql2 closes, every second, each free connection past
 * it, whatever its idle time (its Pool's _removeIdleTimeoutConnections): the next statements paid a new connection and
 * the preparing of each statement again (test/src/store/mysql-pool.test.ts). A connection the server ends (its
 * wait_timeout) leaves the pool, which opens another.
 */
export function poolOptions(url: string, size: number, connectTimeoutMs: number): PoolOptions {
  const s = server(url);
  return {
    host: s.host,
    port: s.port,
    user: s.username,
    password: s.password,
    database: s.database,
    charset: 'utf8mb4',
    timezone: 'Z',
    supportBigNumbers: true,
    connectionLimit: size,
    maxIdle: size,
    connectTimeout: connectTimeoutMs,
    flags: ['-FOUND_ROWS'],
  };
}

/** The store's own credentials on `url`'s server, for its killer (src/store/mysql-kill.ts). */
export function killerOptions(url: string) {
  const s = server(url);
  return { host: s.host, port: s.port, user: s.username, password: s.password, database: s.database };
}
