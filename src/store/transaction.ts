// One transaction of writes, on every engine: all its statements take effect together or none does (a kill -9 between
// two of them leaves neither).
import type sqlite3 from 'sqlite3';
import type { Connection, QueryError, ResultSetHeader } from 'mysql2';
import { holdWriter, isSqlite, type Store } from './database';
import { StatementCache } from './statements';
import { isDiskFull } from './errors';

/** The statements a transaction runs, `?` placeholders bound to their values (never spliced into the SQL). */
export interface Tx {
  /** An INSERT; its new row's auto-increment id. */
  insert(sql: string, params: readonly unknown[]): Promise<number>;
  /** An UPDATE or DELETE; how many rows it changed. */
  change(sql: string, params: readonly unknown[]): Promise<number>;
  /** A SELECT of rows the transaction is about to change, locked until it ends (MySQL's FOR UPDATE; on SQLite the write lock covers it). */
  selectForUpdate<T extends object>(sql: string, params: readonly unknown[]): Promise<T[]>;
}

/**
 * A time as the models store it, to the millisecond. SQLite keeps the text, and its lists compare it as text: the same
 * form as the models'.
 */
function storedTime(date: Date, sqlite: boolean): string {
  const utc = date.toISOString().replace('T', ' ').slice(0, 23);
  return sqlite ? `${utc} +00:00` : utc;
}

const bound = (params: readonly unknown[], sqlite: boolean) =>
  params.map((p) => (p instanceof Date ? storedTime(p, sqlite) : p));

/** A pooled mysql2 connection, its statements under DATABASE_TIMEOUT_MS (src/store/mysql-deadline.ts). */
type MysqlConnection = Pick<Connection, 'query' | 'execute'>;

function mysqlRun<T>(connection: MysqlConnection, sql: string, params?: readonly unknown[]): Promise<T> {
  return new Promise((resolve, reject) => {
    const done = (err: QueryError | null, result: unknown) => (err ? reject(err) : resolve(result as T));
    if (params) connection.execute(sql, bound(params, false) as never, done);
    else connection.query(sql, done);
  });
}

/** MySQL/MariaDB: prepared statements on one of Sequelize's pooled connections, used directly for the transaction. */
function mysqlTx(connection: MysqlConnection): Tx {
  return {
    insert: async (sql, params) => (await mysqlRun<ResultSetHeader>(connection, sql, params)).insertId,
    change: async (sql, params) => (await mysqlRun<ResultSetHeader>(connection, sql, params)).affectedRows,
    selectForUpdate: <T extends object>(sql: string, params: readonly unknown[]) =>
      mysqlRun<T[]>(connection, `${sql} FOR UPDATE`, params),
  };
}

/** SQLite: statements prepared once per connection and kept, as the readers' SELECTs are (src/store/select.ts). */
const statements = new StatementCache();

function sqliteTx(db: sqlite3.Database): Tx {
  const run = async (sql: string, params: readonly unknown[]) => {
    const stmt = await statements.get(db, sql);
    return new Promise<{ lastID: number; changes: number }>((resolve, reject) =>
      stmt.run(bound(params, true), function (this: sqlite3.RunResult, err: Error | null) {
        if (err) reject(err);
        else resolve({ lastID: this.lastID, changes: this.changes });
      }),
    );
  };
  return {
    insert: async (sql, params) => (await run(sql, params)).lastID,
    change: async (sql, params) => (await run(sql, params)).changes,
    async selectForUpdate<T extends object>(sql: string, params: readonly unknown[]) {
      const stmt = await statements.get(db, sql);
      return new Promise<T[]>((resolve, reject) =>
        stmt.all(bound(params, true), (err: Error | null, rows: T[]) => (err ? reject(err) : resolve(rows))),
      );
    },
  };
}

function exec(db: sqlite3.Database, sql: string): Promise<void> {
  return new Promise((resolve, reject) => db.exec(sql, (err) => (err ? reject(err) : resolve())));
}

/**
 * Runs `work` in one transaction and commits it, or rolls it back when `work` throws. SQLite: on the store's one
 * writer connection, held throughout (src/store/database.ts holdWriter), opened with BEGIN IMMEDIATE so that the write
 * lock is taken (or waited for, under the busy timeout) at the start, never refused half-way. MySQL/MariaDB: on one
 * of Sequelize's pooled connections.
 */
export async function writeTransaction<T>(store: Store, work: (tx: Tx) => Promise<T>): Promise<T> {
  try {
    const result = await transaction(store, work);
    store.diskFullSince = undefined;
    return result;
  } catch (err) {
    // /readyz says so until a write goes through again (src/store/readiness.ts).
    if (isDiskFull(err)) store.diskFullSince ??= Date.now();
    throw err;
  }
}

async function transaction<T>(store: Store, work: (tx: Tx) => Promise<T>): Promise<T> {
  const { sequelize } = store;
  if (!isSqlite(store)) {
    // Sequelize's own transaction() costs four passes through its query machinery per save, the node process's CPU:
    // its pooled connection is used directly instead, with the same deadlines.
    const connection = (await sequelize.connectionManager.getConnection({
      type: 'write',
    })) as unknown as MysqlConnection;
    try {
      await mysqlRun(connection, 'START TRANSACTION');
      try {
        const result = await work(mysqlTx(connection));
        await mysqlRun(connection, 'COMMIT');
        return result;
      } catch (err) {
        await mysqlRun(connection, 'ROLLBACK').catch(() => {});
        throw err;
      }
    } finally {
      sequelize.connectionManager.releaseConnection(connection as never);
    }
  }
  return holdWriter(store, async (db) => {
    await exec(db, 'BEGIN IMMEDIATE');
    try {
      const result = await work(sqliteTx(db));
      await exec(db, 'COMMIT');
      return result;
    } catch (err) {
      // A failed COMMIT leaves the transaction open too: the next writer must not find it.
      await exec(db, 'ROLLBACK').catch(() => {});
      throw err;
    }
  });
}
