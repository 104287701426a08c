// The line a process's snippet writes wait in (SNIPPET_WRITE_CONCURRENCY, docs/configuration.md): while reads are in
// flight in the process (or were within a second, src/inflight.ts), its share of writes are worked on at once,
// highlighting, search entry and transaction, and the others wait in a Gate, first come first served; with no read of
// late and no one in line, a write goes at once. Unbounded beside reads, a crowd of writers keeps the highlighting
// workers and the writer busy and the reads wait for the cores; bounded always, writes alone would leave cores idle
// (docs/benchmarks.md, "A line for the snippet writes").
import { StoreBusy } from './errors';
import { Gate } from './gate';

export class WriteLine {
  private readonly gate: Gate;

  /**
   * `share` writes at once while `reading()` says reads are in flight; one that waits longer than `waitMs` for its
   * place is refused as busy (a 503), never started.
   */
  constructor(
    share: number,
    private readonly waitMs: number,
    private readonly reading: () => boolean,
  ) {
    this.gate = new Gate(share);
  }

  /** Runs `work` once it has a place in the line (at once with no read of late), and gives the place on after. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    // Past the line, never ahead of those in it. Writes let by while no read was on are not counted: should reads
    // begin meanwhile, the share is passed by those few for as long as they run.
    if (!this.reading() && !this.gate.crowded) return work();
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
