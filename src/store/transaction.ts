// One transaction of writes, on every engine: all its statements take effect together or none does (a kill -9 between
// two of them leaves neither).
import { QueryTypes, type Transaction } from 'sequelize';
import { database, holdWriter, isSqlite } from './database';

/** The statements a transaction runs; `?` placeholders, values formatted by Sequelize as its models format them. */
export interface Tx {
  /** An INSERT; its new row's auto-increment id. */
  insert(sql: string, params: readonly unknown[]): Promise<number>;
  /** An UPDATE or DELETE; how many rows it changed. */
  change(sql: string, params: readonly unknown[]): Promise<number>;
  /** A SELECT, seeing the transaction's own writes. */
  select<T extends object>(sql: string, params: readonly unknown[]): Promise<T[]>;
}

/**
 * A time as the models store it, to the millisecond: Sequelize's own formatting of a Date in a raw statement drops
 * the milliseconds on MySQL. SQLite keeps the text, and its lists compare it as text: the same form as the models'.
 */
function storedTime(date: Date, sqlite: boolean): string {
  const utc = date.toISOString().replace('T', ' ').slice(0, 23);
  return sqlite ? `${utc} +00:00` : utc;
}

function txOf(transaction: Transaction | undefined): Tx {
  const sequelize = database();
  const sqlite = isSqlite(sequelize);
  const options = (params: readonly unknown[]) => ({
    replacements: params.map((p) => (p instanceof Date ? storedTime(p, sqlite) : p)),
    ...(transaction ? { transaction } : {}),
  });
  return {
    async insert(sql, params) {
      const [id] = await sequelize.query(sql, { ...options(params), type: QueryTypes.INSERT });
      return Number(id);
    },
    async change(sql, params) {
      return Number(await sequelize.query(sql, { ...options(params), type: QueryTypes.BULKUPDATE }));
    },
    select: <T extends object>(sql: string, params: readonly unknown[]) => sequelize.query<T>(sql, { ...options(params), type: QueryTypes.SELECT }),
  };
}

/**
 * Runs `work` in one transaction and commits it, or rolls it back when `work` throws. SQLite: on the process's one
 * writer connection, held throughout, opened with BEGIN IMMEDIATE so that the write lock is taken (or waited for, under
 * the busy timeout) at the start, never refused half-way. MySQL/MariaDB: a Sequelize transaction on a pooled connection.
 */
export async function writeTransaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
  const sequelize = database();
  if (!isSqlite(sequelize)) return sequelize.transaction((transaction) => work(txOf(transaction)));
  return holdWriter(async () => {
    await sequelize.query('BEGIN IMMEDIATE');
    try {
      const result = await work(txOf(undefined));
      await sequelize.query('COMMIT');
      return result;
    } catch (err) {
      // A failed COMMIT leaves the transaction open too: the next writer must not find it.
      await sequelize.query('ROLLBACK').catch(() => {});
      throw err;
    }
  });
}
