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

/**
 * What a line (src/store/gate.ts) listens to for a wait to end early: an AbortSignal, or a statement's Stop below.
 */
export interface Abortable {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/**
 * One statement's stop: aborts at its deadline or when its request's client goes away, whichever comes first. Not an
 * AbortController: every read makes one, and a controller, its EventTarget signal and their listeners cost a read more
 * than its statement's own JavaScript (docs/benchmarks.md, "The reads' own machinery").
 */
class Stop implements Abortable {
  aborted = false;
  reason: Error | undefined;
  /** At most two at once: the line the statement waits in, then its halt. */
  private listeners: (() => void)[] = [];
  private readonly timer: NodeJS.Timeout;
  private readonly request: AbortSignal | undefined;
  private readonly gone = () => this.abort(clientGone());

  constructor(ms: number) {
    this.timer = setTimeout(() => this.abort(pastDeadline(ms)), ms);
    this.request = requests.getStore();
    if (this.request?.aborted) this.abort(clientGone());
    else this.request?.addEventListener('abort', this.gone, { once: true });
  }

  addEventListener(_type: 'abort', listener: () => void): void {
    this.listeners.push(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const at = this.listeners.indexOf(listener);
    if (at !== -1) this.listeners.splice(at, 1);
  }

  private abort(reason: Error): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.done();
    const listeners = this.listeners;
    this.listeners = [];
    for (const listener of listeners) listener();
  }

  /** The statement ended, or stopped: its deadline's timer and its request's listener go. */
  done(): void {
    clearTimeout(this.timer);
    this.request?.removeEventListener('abort', this.gone);
  }
}

/** How one statement gets its connection, runs on it, is stopped there, and hands the connection back. */
export interface Steps<C, T> {
  /** `stop`: a wait for the connection leaves its line when the statement stops (Gate.enter). */
  take(stop: Abortable): Promise<C>;
  run(connection: C): Promise<T>;
  /** Stops the running statement in the engine; `give` follows when `run` settles (if it ever does). */
  halt(connection: C): void;
  give(connection: C): void;
}

/**
 * Runs one statement under its stop: its deadline (`ms`, its wait for a connection included) and its request's client
 * going away (cancelledWith). Settles as the statement does, or rejects with the stop's reason as soon as it stops: a
 * statement stopped before it had its connection never starts (the connection, if it comes, is handed straight back);
 * one that runs is halted. One promise, settled once: whichever comes second (a halted statement's own error, or a
 * stop after the answer) finds it settled.
 */
export function stoppable<C, T>(ms: number, steps: Steps<C, T>): Promise<T> {
  const stop = new Stop(ms);
  if (stop.aborted) return Promise.reject(stop.reason!);
  return new Promise<T>((resolve, reject) => {
    stop.addEventListener('abort', () => reject(stop.reason!));
    steps.take(stop).then(
      (connection) => {
        if (stop.aborted) return steps.give(connection);
        const halt = () => {
          try {
            steps.halt(connection);
          } catch {
            // A listener's throw would end the process; a connection closing under it has nothing left to stop.
          }
        };
        stop.addEventListener('abort', halt);
        const ended = () => {
          stop.done();
          steps.give(connection);
        };
        steps.run(connection).then(
          (value) => {
            ended();
            resolve(value);
          },
          (err: unknown) => {
            ended();
            reject(err as Error);
          },
        );
      },
      (err: unknown) => {
        stop.done();
        reject(err as Error);
      },
    );
  });
}
