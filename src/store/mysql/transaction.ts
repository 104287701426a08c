// MySQL/MariaDB's transaction of writes: prepared statements on a pooled connection used directly (the writer thread's,
// writer-worker.ts, or one of Sequelize's: its own transaction() costs four passes through its query machinery per
// save, the node process's CPU), under the connection's deadlines.
import type { Connection, QueryError, ResultSetHeader } from 'mysql2';
import type { Sequelize } from 'sequelize';
import type { Tx } from '../engine';

/** A time as the models store it, to the millisecond (the pools read and write in UTC). */
export function storedTime(date: Date): string {
  return date.toISOString().replace('T', ' ').slice(0, 23);
}

const bound = (params: readonly unknown[]) => params.map((p) => (p instanceof Date ? storedTime(p) : p));

/** A pooled mysql2 connection, its statements under DATABASE_TIMEOUT_MS (src/store/mysql-deadline.ts). */
export type MysqlConnection = Pick<Connection, 'query' | 'execute'>;

export function mysqlRun<T>(connection: MysqlConnection, sql: string, params?: readonly unknown[]): Promise<T> {
  return new Promise((resolve, reject) => {
    const done = (err: QueryError | null, result: unknown) => (err ? reject(err) : resolve(result as T));
    if (params) connection.execute(sql, bound(params) as never, done);
    else connection.query(sql, done);
  });
}

function mysqlTx(connection: MysqlConnection): Tx {
  return {
    insert: async (sql, params) => (await mysqlRun<ResultSetHeader>(connection, sql, params)).insertId,
    change: async (sql, params) => (await mysqlRun<ResultSetHeader>(connection, sql, params)).affectedRows,
    selectForUpdate: <T extends object>(sql: string, params: readonly unknown[]) =>
      mysqlRun<T[]>(connection, `${sql} FOR UPDATE`, params),
    // https://mariadb.com/kb/en/last_insert_id/ : "If expr is given [...] the value of expr is returned by the
    // function and is remembered as the next value to be returned by LAST_INSERT_ID()"; the OK packet carries it.
    increment: async (table, assignments, counter, where, params) => {
      const sql = `UPDATE ${table} SET ${assignments}, ${counter} = LAST_INSERT_ID(${counter} + 1) WHERE ${where}`;
      const result = await mysqlRun<ResultSetHeader>(connection, sql, params);
      return result.affectedRows ? Number(result.insertId) : undefined;
    },
  };
}

/** START TRANSACTION, `work`, COMMIT on `connection`; ROLLBACK when `work` throws. */
export async function inTransaction<T>(connection: MysqlConnection, work: (tx: Tx) => Promise<T>): Promise<T> {
  await mysqlRun(connection, 'START TRANSACTION');
  try {
    const result = await work(mysqlTx(connection));
    await mysqlRun(connection, 'COMMIT');
    return result;
  } catch (err) {
    await mysqlRun(connection, 'ROLLBACK').catch(() => {});
    throw err;
  }
}

/** A transaction on one of Sequelize's pooled connections (the writes that no writer thread runs). */
export async function mysqlTransaction<T>(sequelize: Sequelize, work: (tx: Tx) => Promise<T>): Promise<T> {
  const connection = (await sequelize.connectionManager.getConnection({
    type: 'write',
  })) as unknown as MysqlConnection;
  try {
    return await inTransaction(connection, work);
  } finally {
    sequelize.connectionManager.releaseConnection(connection as never);
  }
}
