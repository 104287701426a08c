// Writes that lost a deadlock, or on Galera their certification (reported as the same error), are run again.
import { setTimeout as sleep } from 'node:timers/promises';
import { isConflict } from './errors';

/** How often a write is tried in all, and the first pause between tries (doubled each time, with jitter). */
const ATTEMPTS = 4;
const FIRST_PAUSE_MS = 10;

export interface Retry {
  /** The try that failed, from 1. */
  attempt: number;
  pauseMs: number;
  err: unknown;
}

/**
 * Runs `work` (one statement, or a whole transaction: never a statement inside a transaction that goes on) until it
 * is not refused as a conflict, at most ATTEMPTS times; `onRetry` hears of each retry. The last conflict is thrown
 * (a 503 with Retry-After, as a busy store).
 */
export async function retryConflicts<T>(work: () => Promise<T>, onRetry?: (retry: Retry) => void): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (err) {
      if (attempt >= ATTEMPTS || !isConflict(err)) throw err;
      // Jitter, so that two writers that collided do not collide again on the same beat.
      const pauseMs = Math.round(FIRST_PAUSE_MS * 2 ** (attempt - 1) * (0.5 + Math.random()));
      onRetry?.({ attempt, pauseMs, err });
      await sleep(pauseMs);
    }
  }
}
