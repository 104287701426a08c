// Group commit on SQLite's one writer: the write transactions that queue while one runs are run next together, in ONE
// BEGIN IMMEDIATE … COMMIT (one take of the writer's line and of the write turn, one WAL append, one COMMIT), each in
// its own SAVEPOINT, so that one refused (a quota, a precondition, an error) rolls back alone. Each caller is answered
// only after the COMMIT that holds its work: should the COMMIT fail, every work of the group fails with it, and none is
// stored. https://www.sqlite.org/lang_savepoint.html
import type sqlite3 from 'sqlite3';
import type { PortableWork, Tx } from '../engine';
import { BEGIN } from './take-lock';
import { exec, sqliteTx } from './transaction';
import type { Outcome } from '../writer-wire';

/**
 * The most transactions one group holds: a bound on the wait of the group's first caller for its COMMIT (each work is a
 * handful of statements) and on the other process's wait for the write turn.
 */
export const GROUP_MAX = 16;

type Work = (tx: Tx) => Promise<unknown>;

interface Job {
  work: Work;
  /** The same work by name, which the writer thread can run (src/store/writer-thread.ts). */
  portable?: PortableWork;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

/**
 * Runs a group's portable works on the writer thread, holding the writer's line; the outcomes of those it ran, in
 * order (commitGroup's).
 */
export type ThreadCommit = (works: PortableWork[]) => Promise<Outcome[]>;

/**
 * One transaction for `works` (opened by `begin`: the writer thread's takes the file's lock itself, take-lock.ts), each
 * in the savepoint `save`, which the next work's statement releases and opens again with one call (a COMMIT releases
 * the last): one pass to SQLite's thread per work besides its own statements, where a transaction of its own took two
 * (BEGIN, COMMIT). A work that throws rolls back to its savepoint. Should SQLite have
 * ended the whole transaction meanwhile (a full disk or an I/O error may roll it back:
 * https://www.sqlite.org/lang_transaction.html, "Response To Errors Within A Transaction"), the works before it fail
 * with its error (nothing of theirs was stored), and those after it are not run: the outcomes are then fewer than the
 * works, and the caller queues the rest again.
 */
export async function commitGroup(
  db: sqlite3.Database,
  works: Work[],
  begin: (db: sqlite3.Database) => Promise<void> = (db) => exec(db, BEGIN),
): Promise<Outcome[]> {
  const tx = sqliteTx(db);
  const settled: Outcome[] = [];
  try {
    await begin(db);
    for (let at = 0; at < works.length; at++) {
      if (at > 0) await exec(db, 'RELEASE save; SAVEPOINT save');
      try {
        settled.push({ ok: true, value: await works[at]!(tx) });
      } catch (err) {
        try {
          await exec(db, 'ROLLBACK TO save');
        } catch {
          // The transaction is gone: nothing before this work was stored either.
          await exec(db, 'ROLLBACK').catch(() => {});
          return Array.from({ length: at + 1 }, () => ({ ok: false, err }));
        }
        settled.push({ ok: false, err });
      }
    }
    await exec(db, 'COMMIT');
    return settled;
  } catch (err) {
    // A failed BEGIN, savepoint or COMMIT (a failed COMMIT leaves the transaction open too: the next writer must not
    // find it): no work of the group is stored; those refused keep their own reason.
    await exec(db, 'ROLLBACK').catch(() => {});
    return works.map((_, at) => {
      const own = settled[at];
      return own && !own.ok ? own : { ok: false, err };
    });
  }
}

/** Runs each queued transaction's work on the writer, a group of them per transaction. */
export class GroupCommit {
  private readonly queue: Job[] = [];
  private draining = false;

  /**
   * `hold` runs a group on the writer connection, holding its line (SqliteEngine.holdWriter); `thread`, where there is
   * one, runs a group whose works are all portable instead, still inside `hold`, which is then told so (`onThread`:
   * the thread takes the file's lock itself, and needs no write turn).
   */
  constructor(
    private readonly hold: <T>(run: (db: sqlite3.Database) => Promise<T>, onThread: boolean) => Promise<T>,
    private readonly thread?: ThreadCommit,
  ) {}

  /** Runs `work` in a transaction and resolves with its result once that transaction has committed. */
  transaction<T>(work: (tx: Tx) => Promise<T>, portable?: PortableWork): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, portable, resolve: resolve as (value: unknown) => void, reject });
      if (!this.draining) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.queue.length > 0) {
        const group = this.queue.splice(0, GROUP_MAX);
        let outcomes: Outcome[];
        try {
          const portable = group.map((job) => job.portable);
          const thread = this.thread && portable.every((p) => p !== undefined) ? this.thread : undefined;
          outcomes = await this.hold(
            (db) =>
              thread
                ? thread(portable as PortableWork[])
                : commitGroup(
                    db,
                    group.map((job) => job.work),
                  ),
            thread !== undefined,
          );
        } catch (err) {
          // The writer could not be had (the write turn refused, the store closing): no work of the group ran.
          outcomes = group.map(() => ({ ok: false, err }));
        }
        // Those not run go back to the head of the queue (commitGroup).
        this.queue.unshift(...group.slice(outcomes.length));
        outcomes.forEach((outcome, at) => {
          if (outcome.ok) group[at]!.resolve(outcome.value);
          else group[at]!.reject(outcome.err);
        });
      }
    } finally {
      this.draining = false;
    }
  }
}
