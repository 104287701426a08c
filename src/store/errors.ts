// Storage errors the callers act on, recognised in one place: a store busy past its bound (a 503), a duplicate key.
import { UniqueConstraintError } from 'sequelize';

export const STORE_BUSY = 'The database is busy at the moment; try again shortly.';
/** What a busy answer's Retry-After says, in seconds. */
export const STORE_BUSY_RETRY_AFTER = 1;

const BUSY_NAMES = new Set(['SequelizeTimeoutError', 'SequelizeConnectionAcquireTimeoutError']);
const BUSY_CODES = new Set(['SQLITE_BUSY', 'SQLITE_LOCKED', 'ER_LOCK_WAIT_TIMEOUT', 'ER_LOCK_DEADLOCK']);

/** Whether an error (or one it wraps: tRPC's cause, Sequelize's parent) says the store was busy. */
export function isStoreBusy(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const { name, code, cause, parent } = e as { name?: string; code?: string; cause?: unknown; parent?: unknown };
    if ((name && BUSY_NAMES.has(name)) || (code && BUSY_CODES.has(code))) return true;
    e = cause ?? parent;
  }
  return false;
}

/** Whether a write failed because a unique column already holds the value (a taken username, client id, key). */
export function isDuplicate(err: unknown): boolean {
  return err instanceof UniqueConstraintError;
}
