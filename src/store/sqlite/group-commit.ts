// Group commit on SQLite's one writer: the write transactions that queue while one runs are run next together, in ONE
// BEGIN IMMEDIATE … COMMIT (one take of the writer's line and of the write turn, one WAL append, one COMMIT), each in
// its own SAVEPOINT, so that one refused (a quota, a precondition, an error) rolls back alone. Each caller is answered
// only after the COMMIT that holds its work: should the COMMIT fail, every work of the group fails with it, and none is
// stored. https://www.sqlite.org/lang_savepoint.html
import type sqlite3 from 'sqlite3';
import type { Tx } from '../engine';
import { exec, sqliteTx } from './transaction';

/**
 * The most transactions one group holds: a bound on the wait of the group's first caller for its COMMIT (each work is a
 * handful of statements) and on the other process's wait for the write turn.
 */
export const GROUP_MAX = 16;

interface Job {
  work: (tx: Tx) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; err: unknown };

/** Runs each queued transaction's work on the writer, a group of them per transaction. */
export class GroupCommit {
  private readonly queue: Job[] = [];
  private draining = false;

  /** `hold` runs a group on the writer connection, holding its line (SqliteEngine.holdWriter). */
  constructor(private readonly hold: <T>(run: (db: sqlite3.Database) => Promise<T>) => Promise<T>) {}

  /** Runs `work` in a transaction and resolves with its result once that transaction has committed. */
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.draining) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.queue.length > 0) {
        const group = this.queue.splice(0, GROUP_MAX);
        let settled: { job: Job; outcome: Outcome }[];
        try {
          settled = await this.hold((db) => this.runGroup(db, group));
        } catch (err) {
          // The writer could not be had (the write turn refused, the store closing): no work of the group ran.
          settled = group.map((job) => ({ job, outcome: { ok: false, err } }));
        }
        for (const { job, outcome } of settled) {
          if (outcome.ok) job.resolve(outcome.value);
          else job.reject(outcome.err);
        }
      }
    } finally {
      this.draining = false;
    }
  }

  /**
   * One transaction for `group`, each work in the savepoint `save`, which the next work's statement releases and opens
   * again with one call (a COMMIT releases the last): one pass to SQLite's thread per work besides its own statements,
   * where a transaction of its own took two (BEGIN, COMMIT). A work that throws rolls back to its savepoint. Should
   * SQLite have ended the whole transaction meanwhile (a full disk or an I/O error may roll it back:
   * https://www.sqlite.org/lang_transaction.html, "Response To Errors Within A Transaction"), the works before it fail
   * with its error (nothing of theirs was stored), and those not yet run go back to the head of the queue.
   */
  private async runGroup(db: sqlite3.Database, group: Job[]): Promise<{ job: Job; outcome: Outcome }[]> {
    const tx = sqliteTx(db);
    const settled: { job: Job; outcome: Outcome }[] = [];
    try {
      await exec(db, 'BEGIN IMMEDIATE; SAVEPOINT save');
      for (let at = 0; at < group.length; at++) {
        const job = group[at]!;
        if (at > 0) await exec(db, 'RELEASE save; SAVEPOINT save');
        try {
          settled.push({ job, outcome: { ok: true, value: await job.work(tx) } });
        } catch (err) {
          try {
            await exec(db, 'ROLLBACK TO save');
          } catch {
            // The transaction is gone: nothing before this work was stored either.
            this.queue.unshift(...group.slice(at + 1));
            await exec(db, 'ROLLBACK').catch(() => {});
            const failed: Outcome = { ok: false, err };
            return [...settled.map((s) => ({ job: s.job, outcome: failed })), { job, outcome: failed }];
          }
          settled.push({ job, outcome: { ok: false, err } });
        }
      }
      await exec(db, 'COMMIT');
      return settled;
    } catch (err) {
      // A failed BEGIN, savepoint or COMMIT (a failed COMMIT leaves the transaction open too: the next writer must not
      // find it): no work of the group is stored; those refused keep their own reason.
      await exec(db, 'ROLLBACK').catch(() => {});
      return group.map((job) => ({
        job,
        outcome: settled.find((s) => s.job === job && !s.outcome.ok)?.outcome ?? { ok: false, err },
      }));
    }
  }
}
