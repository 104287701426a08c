// The line a process's snippet writes wait in (SNIPPET_WRITE_CONCURRENCY, docs/configuration.md): while reads are in
// flight in the process (or were within a second, src/inflight.ts), its share of writes are worked on at once,
// highlighting, search entry and transaction, and the others wait, first come first served; with no read of late,
// every write goes at once. Unbounded beside reads, a crowd of writers keeps the highlighting workers and the writer
// busy and the reads wait for the cores; bounded always, writes alone would leave cores idle (docs/benchmarks.md, "A
// line for the snippet writes").
import { StoreBusy } from './errors';

export class WriteLine {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  /**
   * `share` writes at once while `reading()` says reads are in flight; one that waits longer than `waitMs` for its
   * place is refused as busy (a 503), never started.
   */
  constructor(
    private readonly share: number,
    private readonly waitMs: number,
    private readonly reading: () => boolean,
  ) {}

  private get room(): boolean {
    return this.active < this.share || !this.reading();
  }

  /** Runs `work` once it has a place in the line, and lets the next in when it settles. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.room && this.waiting.length === 0) this.active++;
    else await this.wait();
    try {
      return await work();
    } finally {
      this.active--;
      // Waiters are there only while the line was full; each write that ends lets in as many as there is room for.
      while (this.waiting.length > 0 && this.room) {
        this.active++;
        this.waiting.shift()!();
      }
    }
  }

  /** Resolves with a place taken, or rejects as busy past `waitMs`, out of the line. */
  private wait(): Promise<void> {
    return new Promise((resolve, reject) => {
      const go = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiting.splice(this.waiting.indexOf(go), 1);
        reject(new StoreBusy(`no place among the snippet writes within ${this.waitMs} ms`));
      }, this.waitMs);
      this.waiting.push(go);
    });
  }
}
