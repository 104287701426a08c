// Each request's place in the order requests arrived in, for the readers' line (src/store/gate.ts) to serve the lookups
// of who sent a request (a session, a token, a user) to the requests that came first, first: a request needing two of
// them then waits once behind the crowd, not twice (docs/scaling.md "Connections and mixed traffic").
import { AsyncLocalStorage } from 'node:async_hooks';

const arrivals = new AsyncLocalStorage<number>();
let count = 0;

/** Runs `work` (the rest of a request's handling: the app's first middleware calls it) as the latest request to arrive. */
export function arrived<T>(work: () => T): T {
  return arrivals.run(count++, work);
}

/**
 * The place of the request this runs for; work outside any request (a command, a background task) takes the place of
 * the next request to arrive: after those already there, never behind every one that comes later (it would wait out
 * its deadline behind a steady stream of them).
 */
export function arrival(): number {
  return arrivals.getStore() ?? count;
}
