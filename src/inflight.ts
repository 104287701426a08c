// Procedures in flight: shutdown waits for them before closing the database, even when their client has gone; and
// whether queries (reads) are in flight or were of late, which the snippet writes' line yields to
// (src/store/write-line.ts).
import { performance } from 'node:perf_hooks';

/**
 * How long after a query ends reads still count as going on: a read spends much of its time outside its procedure (its
 * request read, authenticated, its answer written), so a line that yielded only while one is inside would let a crowd
 * of writes in between two reads of a steady stream (docs/benchmarks.md, "A line for the snippet writes").
 */
export const READS_LINGER_MS = 1000;

export class Inflight {
  private count = 0;
  private reading = 0;
  /** When the last query ended (performance.now()), -Infinity before any. */
  private lastRead = -Infinity;
  private readonly waiters = new Set<() => void>();

  /** Runs `work`, counted as in flight until it settles; a query (`read`) counted among the reads too. */
  async tracked<T>(work: () => Promise<T>, read = false): Promise<T> {
    this.count++;
    if (read) this.reading++;
    try {
      return await work();
    } finally {
      if (read) {
        this.reading--;
        this.lastRead = performance.now();
      }
      if (--this.count === 0) for (const wake of [...this.waiters]) wake();
    }
  }

  /** Whether a query is in flight, or one ended within READS_LINGER_MS. */
  get reads(): boolean {
    return this.reading > 0 || performance.now() - this.lastRead < READS_LINGER_MS;
  }

  /** Resolves once nothing is in flight, or after `timeoutMs` at the latest. */
  settled(timeoutMs: number): Promise<void> {
    if (this.count === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.waiters.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, timeoutMs);
      this.waiters.add(wake);
    });
  }
}
