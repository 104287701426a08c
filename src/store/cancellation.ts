// What stops a read of the store before it ends: its deadline (DATABASE_TIMEOUT_MS) and, for a query, its request's
// client going away. Stopped, a read that has not started never starts, and one that runs is stopped in the engine
// (src/store/select.ts says how on each); docs/operations.md#outages.
import { AsyncLocalStorage } from 'node:async_hooks';

const requests = new AsyncLocalStorage<AbortSignal>();

/**
 * Runs `work` with the reads it makes (select(), lookup()) cancelled once `signal` aborts: the tRPC base procedure
 * binds a query's `ctx.signal` here (src/trpc.ts), so the store's reads need not be handed it one by one.
 */
export function cancelledWith<T>(signal: AbortSignal, work: () => T): T {
  return requests.run(signal, work);
}

/** The error a read stopped at its deadline rejects with: ETIMEDOUT, a 503 with Retry-After (src/store/errors.ts). */
export function pastDeadline(ms: number): Error {
  return Object.assign(new Error(`no answer from the database within ${ms} ms`), { code: 'ETIMEDOUT' });
}

/** The error a read rejects with when its request's client went away (src/store/errors.ts: no one reads the answer). */
export function clientGone(): Error {
  return Object.assign(new Error('the client went away before the answer'), { name: 'AbortError', code: 'ABORT_ERR' });
}

/** One statement's stop: aborts at its deadline or when its request's client goes away, whichever comes first. */
export interface Stop {
  signal: AbortSignal;
  /** Clears the deadline's timer: the statement ended. */
  done(): void;
}

export function statementStop(ms: number): Stop {
  const controller = new AbortController();
  const request = requests.getStore();
  const gone = () => controller.abort(clientGone());
  const timer = setTimeout(() => controller.abort(pastDeadline(ms)), ms);
  if (request?.aborted) gone();
  else request?.addEventListener('abort', gone, { once: true });
  return {
    signal: controller.signal,
    done() {
      clearTimeout(timer);
      request?.removeEventListener('abort', gone);
    },
  };
}

/** How one statement gets its connection, runs on it, is stopped there, and hands the connection back. */
export interface Steps<C, T> {
  take(): Promise<C>;
  run(connection: C): Promise<T>;
  /** Stops the running statement in the engine; `give` follows when `run` settles (if it ever does). */
  halt(connection: C): void;
  give(connection: C): void;
}

/**
 * Runs one statement under `stop`: settles as it does, or rejects with the stop's reason as soon as it aborts. A
 * statement stopped before it had its connection never starts (the connection, if it comes, is handed straight back);
 * one that runs is halted.
 */
export async function stoppable<C, T>(stop: AbortSignal, steps: Steps<C, T>): Promise<T> {
  if (stop.aborted) throw stop.reason;
  const stopped = new Promise<never>((_resolve, reject) =>
    stop.addEventListener('abort', () => reject(stop.reason as Error), { once: true }),
  );
  const work = (async () => {
    const connection = await steps.take();
    if (stop.aborted) {
      steps.give(connection);
      throw stop.reason;
    }
    const halt = () => {
      try {
        steps.halt(connection);
      } catch {
        // A listener's throw would end the process; a connection closing under it has nothing left to stop.
      }
    };
    stop.addEventListener('abort', halt, { once: true });
    try {
      return await steps.run(connection);
    } finally {
      stop.removeEventListener('abort', halt);
      steps.give(connection);
    }
  })();
  // Whichever loses the race is dropped: a halted statement's own error, or a stop after the answer.
  stopped.catch(() => {});
  work.catch(() => {});
  return Promise.race([work, stopped]);
}
