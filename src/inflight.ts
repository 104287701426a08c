// Procedures in flight: shutdown waits for them before closing the database, even when their client has gone.
export class Inflight {
  private count = 0;
  private readonly waiters = new Set<() => void>();

  /** Runs `work`, counted as in flight until it settles. */
  async tracked<T>(work: () => Promise<T>): Promise<T> {
    this.count++;
    try {
      return await work();
    } finally {
      if (--this.count === 0) for (const wake of [...this.waiters]) wake();
    }
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
