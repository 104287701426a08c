// /readyz's check of the database (each engine probes its own way: src/store/engine.ts readiness), and whether it can
// take writes (a full disk).
import type { Config } from '../config';
import type { Store } from './database';
import type { Readiness } from './engine';

export type { Readiness };

export function databaseReadiness(config: Pick<Config, 'DATABASE_TIMEOUT_MS'>, store: Store): Readiness {
  return store.engine.readiness(config.DATABASE_TIMEOUT_MS);
}

/**
 * Why the database cannot take writes now, or undefined: the last write found the disk full (and none has gone through
 * since), or, for a SQLite file, its filesystem has (next to) no space left for this process. Reads go on either way.
 */
export async function writesRefusedBecause(store: Store): Promise<string | undefined> {
  if (store.diskFullSince !== undefined)
    return `The database cannot take writes: its disk has been full since ${new Date(store.diskFullSince).toISOString()}.`;
  return store.engine.diskShortBecause();
}
