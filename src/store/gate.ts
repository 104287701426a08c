// A gate letting a fixed number of tasks through at once: first come, first served, urgent ones ahead of the rest, but
// never two in a row while the rest wait: a steady stream of urgent ones (each create's lookup of its token, on SQLite's
// readers) otherwise left the reads behind them waiting: 276 reads/s against 1,026 creates/s under bench:drf's mixed
// load on one process, with a create one reader statement cheaper than it is now (2026-11-27 20:07, docs/scaling.md
// "Connections and mixed traffic"). Urgent ones go in their requests' order of arrival (src/store/arrival.ts), not their
// own: a request's second lookup (the user of a session row stored without it, read on its own) then waits behind no
// request that came after it.
import { arrival } from './arrival';
import type { Abortable } from './cancellation';

/** One waiting for its place: `rank`, its request's arrival (urgent ones only). */
interface Waiter {
  readonly go: () => void;
  readonly rank: number;
}

export class Gate {
  private active = 0;
  private readonly waiting: Waiter[] = [];
  /** By rank, then first come, first served. */
  private readonly urgent: Waiter[] = [];
  /** The last place handed on went to an urgent one past others waiting: the next goes to the others. */
  private urgentLast = false;

  constructor(private readonly width: number) {}

  /**
   * Resolves when the caller may go through; it must call leave() afterwards. Rejects with the reason of `stop` if it
   * aborts first: the caller leaves the line and never goes through.
   */
  enter(urgent = false, stop?: Abortable): Promise<void> {
    if (stop?.aborted) return Promise.reject(stop.reason as Error);
    if (this.active < this.width) {
      this.active++;
      return Promise.resolve();
    }
    const line = urgent ? this.urgent : this.waiting;
    return new Promise((resolve, reject) => {
      const leaveLine = () => {
        line.splice(line.indexOf(waiter), 1);
        reject(stop!.reason as Error);
      };
      const waiter: Waiter = {
        go: () => {
          stop?.removeEventListener('abort', leaveLine);
          resolve();
        },
        rank: urgent ? arrival() : 0,
      };
      // Most come last in arrival order too: the search for the place ends at once.
      let at = line.length;
      while (at > 0 && line[at - 1]!.rank > waiter.rank) at--;
      line.splice(at, 0, waiter);
      stop?.addEventListener('abort', leaveLine, { once: true });
    });
  }

  /** Someone waits in line (a caller about to leave can tell whether it hands its place to another). */
  get crowded(): boolean {
    return this.urgent.length + this.waiting.length > 0;
  }

  leave(): void {
    const urgentFirst = this.urgent.length > 0 && !(this.urgentLast && this.waiting.length > 0);
    this.urgentLast = urgentFirst && this.waiting.length > 0;
    const next = urgentFirst ? this.urgent.shift() : this.waiting.shift();
    if (next)
      next.go(); // the place passes straight to the next in line
    else this.active--;
  }
}
