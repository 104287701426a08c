// Storage errors the callers act on, recognised in one place: a store busy past its bound or out of reach (a 503), a
// full disk (a 507), a duplicate key.
import { ConnectionError, UniqueConstraintError } from 'sequelize';
import { isRedisOutage } from './redis';

export const STORE_BUSY = 'The database is busy at the moment; try again shortly.';
export const STORE_DOWN = 'The service is unavailable at the moment; try again shortly.';
/** A read cancelled because its client went away: the answer goes to no one (src/store/cancellation.ts). */
export const CLIENT_GONE = 'The request was cancelled: its client went away.';
/** What every 503 of a store (busy or out of reach) says in Retry-After, in seconds. */
export const RETRY_AFTER_SECONDS = 1;

// No connection free within DATABASE_TIMEOUT_MS is not counted busy: on MySQL/MariaDB it is most often a server that
// stopped answering (a ConnectionError, below).
const BUSY_NAMES = new Set(['SequelizeTimeoutError']);
const BUSY_CODES = new Set(['SQLITE_BUSY', 'SQLITE_LOCKED', 'ER_LOCK_WAIT_TIMEOUT', 'ER_LOCK_DEADLOCK']);
/**
 * A server refused, lost, or never answered (past DATABASE_TIMEOUT_MS: mysql2's PROTOCOL_SEQUENCE_TIMEOUT, ETIMEDOUT):
 * none is the request's fault, and none is a bug. A full disk is not among them: it is no momentary trouble a retry
 * in a second would get past (isDiskFull, a 507).
 */
const DOWN_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'EAI_AGAIN',
  // A name not resolved: Sequelize's HostNotFoundError wraps it, a plain mysql2 connect (the writer thread's, the read
  // pools') does not.
  'ENOTFOUND',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'PROTOCOL_ENQUEUE_AFTER_FATAL_ERROR',
  'ER_CON_COUNT_ERROR',
  'ER_SERVER_SHUTDOWN',
  'ER_CONNECTION_KILLED',
  // A Galera node that is not (or no longer) part of the cluster's primary component: "WSREP has not yet prepared
  // node for application use" (1047), and a commit it cannot replicate (1180).
  'ER_UNKNOWN_COM_ERROR',
  'ER_ERROR_DURING_COMMIT',
  // A statement stopped at its deadline in the engine: interrupted on a SQLite reader, killed on MySQL/MariaDB.
  'SQLITE_INTERRUPT',
  'ER_QUERY_INTERRUPTED',
  'SQLITE_IOERR',
  'SQLITE_CANTOPEN',
]);

/** MariaDB's ER_STATEMENT_TIMEOUT (max_statement_time exceeded), which mysql2 has no name for. */
const DOWN_ERRNOS = new Set([1969]);

/** The error and those it wraps (tRPC's cause, Sequelize's parent), a few deep. */
function* chain(err: unknown): Generator<object> {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    yield e;
    const { cause, parent } = e as { cause?: unknown; parent?: unknown };
    e = cause ?? parent;
  }
}

/** The store busy past a bound of its own (a line waited in too long, src/store/write-line.ts): a 503, never retried. */
export class StoreBusy extends Error {}

/**
 * A write that kept meeting others' changes to the same rows, where the engine saw no deadlock (a snippet save whose
 * rendering went stale too often, src/store/snippets/writes.ts): retried, then refused as busy, as a lost deadlock is.
 */
export class WriteConflict extends StoreBusy {}

/** Whether an error (or one it wraps) says the store was busy past its bound. */
function isStoreBusy(err: unknown): boolean {
  for (const e of chain(err)) {
    if (e instanceof StoreBusy) return true;
    const { name, code } = e as { name?: string; code?: string };
    if ((name && BUSY_NAMES.has(name)) || (code && BUSY_CODES.has(code))) return true;
  }
  return false;
}

/** Whether an error (or one it wraps) is a read cancelled because its client went away. */
function isClientGone(err: unknown): boolean {
  for (const e of chain(err)) if ((e as { code?: string }).code === 'ABORT_ERR') return true;
  return false;
}

/** Galera's words for a node cut off from the primary component, whatever code carries them. */
const GALERA_NOT_PRIMARY = /WSREP has not yet prepared node|Not connected to Primary Component/;

/** Whether an error (or one it wraps) says the database or Redis could not be reached or did not answer in time. */
function isStoreDown(err: unknown): boolean {
  for (const e of chain(err)) {
    const { code, errno, message } = e as { code?: string; errno?: number; message?: string };
    if (
      e instanceof ConnectionError ||
      (code && DOWN_CODES.has(code)) ||
      (errno && DOWN_ERRNOS.has(errno)) ||
      isRedisOutage(e)
    )
      return true;
    if (typeof message === 'string' && GALERA_NOT_PRIMARY.test(message)) return true;
  }
  return false;
}

export const DISK_FULL =
  "The database's disk is full: nothing was saved. Reading, signing in and deleting snippets still work; try again once space is freed.";

/**
 * The disk (or a size limit: SQLite's max_page_count, InnoDB's table-full) cannot take the write. SQLite: SQLITE_FULL;
 * MySQL/MariaDB: 1114 "The table is full", 1021 "Disk full", and the OS's ENOSPC (errno 28) wrapped in a write error.
 */
const DISK_FULL_CODES = new Set(['SQLITE_FULL', 'ER_RECORD_FILE_FULL', 'ER_DISK_FULL']);
const NO_SPACE = /No space left on device|errno: ?28\b|error 28\b/;

export function isDiskFull(err: unknown): boolean {
  for (const e of chain(err)) {
    const { code, message } = e as { code?: string; message?: string };
    if ((code && DISK_FULL_CODES.has(code)) || (typeof message === 'string' && NO_SPACE.test(message))) return true;
  }
  return false;
}

/**
 * The `detail` of the 503 an error calls for, when it is a store's momentary trouble (busy, out of reach, hung) or a
 * read cancelled because its client went away (no one reads that answer); undefined for any other error, a fault.
 */
export function unavailableDetail(err: unknown): string | undefined {
  if (isClientGone(err)) return CLIENT_GONE;
  if (isStoreBusy(err)) return STORE_BUSY;
  if (isStoreDown(err)) return STORE_DOWN;
  return undefined;
}

/**
 * Whether an error (or one it wraps) is a lost deadlock: InnoDB rolled the transaction back so another could go on,
 * or Galera aborted it because a write on another node was certified first. Either way nothing of it was written,
 * and running it again is the documented remedy ("try restarting transaction").
 */
export function isConflict(err: unknown): boolean {
  for (const e of chain(err)) {
    const { code, errno } = e as { code?: string; errno?: number };
    if (e instanceof WriteConflict || code === 'ER_LOCK_DEADLOCK' || errno === 1213) return true;
  }
  return false;
}

/** Whether a write failed because a unique column already holds the value (a taken username, client id, key). */
export function isDuplicate(err: unknown): boolean {
  return err instanceof UniqueConstraintError;
}
