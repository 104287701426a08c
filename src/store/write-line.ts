// The line a process's snippet writes wait in (its share of SNIPPET_WRITE_CONCURRENCY, docs/configuration.md): a
// fixed number of them are worked on at once, highlighting, search entry and transaction, the others wait first come,
// first served. Unbounded, a crowd of writers keeps every highlighting worker and the writer busy and the reads beside
// them wait for the cores (docs/benchmarks.md, "A line for the snippet writes").
import { Gate } from './gate';
import { StoreBusy } from './errors';

export class WriteLine {
  private readonly gate: Gate;

  /** `width` writes at once; one that waits longer than `waitMs` for its place is refused as busy (a 503). */
  constructor(
    width: number,
    private readonly waitMs: number,
  ) {
    this.gate = new Gate(width);
  }

  /** Runs `work` once it has a place in the line, and gives the place to the next when it settles. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    const waited = new AbortController();
    const timer = setTimeout(
      () => waited.abort(new StoreBusy(`no place among the snippet writes within ${this.waitMs} ms`)),
      this.waitMs,
    );
    try {
      await this.gate.enter(false, waited.signal);
    } finally {
      clearTimeout(timer);
    }
    try {
      return await work();
    } finally {
      this.gate.leave();
    }
  }
}
