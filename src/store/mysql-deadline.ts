// mysql2 with a deadline on every statement: a server that stops answering fails the statement, it does not hold it,
// and the server is told to stop it too (src/store/mysql-kill.ts).
import { AsyncLocalStorage } from 'node:async_hooks';
import mysql2, { type Connection, type ConnectionOptions, type QueryError } from 'mysql2';
import type { Killer } from './mysql-kill';

type Callback = (err: QueryError | null, ...rest: unknown[]) => void;
type Run = (sql: unknown, values?: unknown, cb?: unknown) => unknown;

/** mysql2's code for a statement that got no answer within its `timeout`. */
const TIMED_OUT = 'PROTOCOL_SEQUENCE_TIMEOUT';

const undeadlined = new AsyncLocalStorage<true>();

/**
 * Runs `work` with no deadline on its statements: migrations, whose ALTER TABLE on a big table may rightly take
 * minutes, and the migration lock's claims, made while another process migrates.
 */
export function withoutStatementDeadline<T>(work: () => Promise<T>): Promise<T> {
  return undeadlined.run(true, work);
}

/**
 * Runs query()/execute() of a connection with `timeout` (unless the caller gave one). A statement past it fails with
 * PROTOCOL_SEQUENCE_TIMEOUT, `killer` ends its connection on the server (which stops the statement, and rolls back
 * its transaction), and the connection is destroyed here: the answer may still come, and would be taken for the
 * next statement's. A destroyed connection is never handed out again (Sequelize's pool validates it; mysql2's drops it).
 */
export function withDeadline<C extends Pick<Connection, 'query' | 'execute' | 'destroy' | 'threadId'>>(
  connection: C,
  timeoutMs: number,
  killer?: Killer,
): C {
  for (const method of ['query', 'execute'] as const) {
    const run = (connection[method] as unknown as Run).bind(connection);
    const patched: Run = (sql, values, cb) => {
      if (undeadlined.getStore()) return run(sql, values, cb);
      const options = typeof sql === 'string' ? { sql } : { ...(sql as object) };
      (options as { timeout?: number }).timeout ??= timeoutMs;
      const callback = typeof values === 'function' ? values : cb;
      if (typeof callback !== 'function') return run(options, values, cb);
      const guarded: Callback = (err, ...rest) => {
        if (err?.code === TIMED_OUT) {
          killer?.kill(connection.threadId);
          connection.destroy();
        }
        (callback as Callback)(err, ...rest);
      };
      return typeof values === 'function' ? run(options, guarded) : run(options, values, guarded);
    };
    (connection as unknown as Record<string, Run>)[method] = patched;
  }
  return connection;
}

/**
 * mysql2 as Sequelize loads it (its dialectModule option), every connection's statements under `timeoutMs`, a
 * connection past it ended by the killer of its server (`killerOf`).
 */
export function mysql2WithDeadline(
  timeoutMs: number,
  killerOf: (config: ConnectionOptions) => Killer | undefined = () => undefined,
): typeof mysql2 {
  return {
    ...mysql2,
    createConnection: ((config: ConnectionOptions) =>
      withDeadline(mysql2.createConnection(config), timeoutMs, killerOf(config))) as typeof mysql2.createConnection,
  };
}
