// One transaction of writes, on every engine: all its statements take effect together or none does (a kill -9 between
// two of them leaves neither). Each engine runs it its own way (src/store/sqlite/transaction.ts,
// src/store/mysql/transaction.ts).
import type { Store } from './database';
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

/** Runs `work` in one transaction and commits it, or rolls it back when `work` throws. */
export async function writeTransaction<T>(store: Store, work: (tx: Tx) => Promise<T>): Promise<T> {
  try {
    const result = await store.engine.transaction(work);
    store.diskFullSince = undefined;
    return result;
  } catch (err) {
    // /readyz says so until a write goes through again (src/store/readiness.ts).
    if (isDiskFull(err)) store.diskFullSince ??= Date.now();
    throw err;
  }
}
