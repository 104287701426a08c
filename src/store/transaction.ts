// One transaction of writes, on every engine: all its statements take effect together or none does (a kill -9 between
// two of them leaves neither). Each engine runs it its own way (src/store/sqlite/transaction.ts,
// src/store/mysql/transaction.ts).
import type { Store } from './database';
import type { PortableWork, Tx } from './engine';
import { isDiskFull } from './errors';

export type { Tx };

/** Runs `work` (or `portable`, the same work by name) in one transaction and commits it, or rolls it back when `work` throws. */
export async function writeTransaction<T>(
  store: Store,
  work: (tx: Tx) => Promise<T>,
  portable?: PortableWork,
): Promise<T> {
  try {
    const result = await store.engine.transaction(work, portable);
    store.diskFullSince = undefined;
    return result;
  } catch (err) {
    // /readyz says so until a write goes through again (src/store/readiness.ts).
    if (isDiskFull(err)) store.diskFullSince ??= Date.now();
    throw err;
  }
}
