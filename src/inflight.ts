// Procedures in flight: shutdown waits for them before closing the database, even when their client has gone; and how
// many of them are queries (reads), which the snippet writes' line yields to (src/store/write-line.ts).
export class Inflight {
  private count = 0;
  private reading = 0;
  private readonly waiters = new Set<() => void>();

  /** Runs `work`, counted as in flight until it settles; a query (`read`) counted among the reads too. */
  async tracked<T>(work: () => Promise<T>, read = false): Promise<T> {
    this.count++;
    if (read) this.reading++;
    try {
      return await work();
    } finally {
      if (read) this.reading--;
      if (--this.count === 0) for (const wake of [...this.waiters]) wake();
    }
  }

  /** Whether a query is in flight. */
  get reads(): boolean {
    return this.reading > 0;
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
