// How the writer thread takes the file's write lock (src/store/sqlite/writer-worker.ts): BEGIN IMMEDIATE on a
// connection whose busy timeout is 0, tried again every LOCK_POLL_MS while another connection holds the lock, for
// `waitMs` at most (then the group fails as SQLITE_BUSY, a 503). Why not SQLite's busy handler: it sleeps 1, 2, 5, 10 …
// 100 ms between tries (https://www.sqlite.org/c3ref/busy_timeout.html) and never wakes when the lock is freed, so a
// group waited long after another process's COMMIT; and why not the cluster's write turn (src/store/write-turn.ts):
// its ask and its go cross both workers' busy event loops, and the holder's answer a third, all while the file takes no
// write (docs/scaling.md, "The writer thread"). The thread has nothing else to do while it waits, so it sleeps on
// Atomics.wait, off every event loop.
import type sqlite3 from 'sqlite3';
import { exec } from './transaction';

/** How long the thread sleeps between two tries of the lock: the longest the file stays free of a waiting writer. */
export const LOCK_POLL_MS = 1;

const sleeper = new Int32Array(new SharedArrayBuffer(4));

/** A group's first statements (src/store/sqlite/group-commit.ts). */
export const BEGIN = 'BEGIN IMMEDIATE; SAVEPOINT save';

/** Opens the group's transaction with the lock taken, trying again while it is SQLITE_BUSY, `waitMs` at most. */
export async function beginImmediate(db: sqlite3.Database, waitMs: number): Promise<void> {
  const until = Date.now() + waitMs;
  for (;;) {
    try {
      return await exec(db, BEGIN);
    } catch (err) {
      if ((err as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() >= until) throw err;
      Atomics.wait(sleeper, 0, 0, LOCK_POLL_MS);
    }
  }
}
