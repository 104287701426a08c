// Throttle counters: in Redis with REDIS_URL; else in memory (the cluster primary's with several processes), password guesses on MySQL in its table.
import cluster from 'node:cluster';
import { createHash } from 'node:crypto';
import {
  RateLimiterCluster,
  RateLimiterClusterMaster,
  RateLimiterMemory,
  RateLimiterMySQL,
  RateLimiterRedis,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import type { Store } from './database';
import type { CounterOptions } from './engine';
import type { RedisConnection } from './redis';
import { lookupAll } from './select';

export type { CounterOptions };

/**
 * What a family counts: every request (THROTTLE_ANON, THROTTLE_USER), or failed password checks, which are rare and
 * worth sharing between machines.
 */
export type CounterUse = 'requests' | 'guesses';

/** How long a worker waits for the primary's answer about a counter. */
const CLUSTER_TIMEOUT_MS = 2000;

/** rate-limiter-flexible's rejection when the primary did not answer in time (lib/RateLimiterCluster.js, savePromise). */
const NO_ANSWER = /^RateLimiterCluster timeout/;

/**
 * A worker's counter kept by the cluster's primary; when the primary does not answer within `timeoutMs` (a machine so
 * busy that its IPC lags), this process counts the request in memory instead, as it does while Redis is unreachable,
 * so that a slow primary costs a little precision and never a 500. RateLimiterCluster has no insurance of its own.
 */
export class ClusterCounter extends RateLimiterCluster {
  private readonly insurance: RateLimiterMemory;

  constructor(opts: CounterOptions, timeoutMs = CLUSTER_TIMEOUT_MS) {
    super({ ...opts, timeoutMs });
    this.insurance = new RateLimiterMemory(opts);
  }

  override consume(key: string | number, points?: number, options?: Record<string, unknown>) {
    return super.consume(key, points, options).catch((err: unknown) => {
      if (err instanceof Error && NO_ANSWER.test(err.message)) return this.insurance.consume(key, points, options);
      throw err;
    });
  }

  override get(key: string | number, options?: Record<string, unknown>) {
    return super.get(key, options).catch((err: unknown) => {
      if (err instanceof Error && NO_ANSWER.test(err.message)) return this.insurance.get(key, options);
      throw err;
    });
  }
}

/** A counter key of fixed length and alphabet, whatever the text it counts (a 10,000-character username, emoji). */
export function counterKey(...parts: string[]): string {
  // Hex, not base64: MySQL's table compares keys without regard to case.
  return createHash('sha256').update(parts.join('\0'), 'utf8').digest('hex');
}

/**
 * Where counters live. With REDIS_URL, in Redis, shared by every process and machine. Otherwise a counter costs no
 * write: one process counts in memory, and WEB_CONCURRENCY workers ask the primary, which counts for all of them
 * (node:cluster messages); they reset on a restart, and several machines count apart (set REDIS_URL to share). The
 * exception is password guesses on MySQL/MariaDB: rows of a table every machine shares, since a guesser must not get
 * a fresh allowance per machine, and a failed check is rare enough to pay a database write (a request counter there
 * cost a durable write per request, on one hot row: MariaDB's mixed load fell to a quarter). Resolves once the store
 * is ready to count.
 */
export async function counter(
  runtime: { store: Store; redis(): RedisConnection | undefined },
  opts: CounterOptions,
  use: CounterUse,
): Promise<RateLimiterAbstract> {
  const redis = runtime.redis();
  if (redis) {
    const storeClient = redis.client;
    await redis.ready(); // the first counts go to Redis, not to the insurance below, when Redis is up
    // While Redis is unreachable (not ready, or a command times out), this process counts in memory instead.
    return new RateLimiterRedis({
      ...opts,
      storeClient,
      useRedisPackage: true,
      rejectIfRedisNotReady: true,
      insuranceLimiter: new RateLimiterMemory(opts),
    });
  }
  const shared = use === 'guesses' ? runtime.store.engine.sharedCounter(opts) : undefined;
  if (shared) return shared;
  return cluster.isWorker ? new ClusterCounter(opts) : new RateLimiterMemory(opts);
}

/** In the cluster's primary: holds the workers' in-memory counters (without Redis). */
export function serveCountersToWorkers(): void {
  new RateLimiterClusterMaster();
}

/** A counter family and one of its keys. */
export interface CounterRef {
  store: RateLimiterAbstract;
  key: string;
}

/**
 * Whether any of `refs` has used up its points: the seconds until the last of them frees, or 0; consumes nothing.
 * Counters in MySQL/MariaDB are read in one prepared statement on the read pool (DATABASE_URL, or a replica):
 * one statement, not three: a Basic request on MariaDB pays one read for the check (README, Throttling).
 */
export async function exhaustedFor(store: Store, refs: readonly CounterRef[]): Promise<number> {
  const waits = refs.every((r) => r.store instanceof RateLimiterMySQL)
    ? await mysqlWaits(store, refs)
    : await Promise.all(refs.map(storeWait));
  return Math.max(0, ...waits);
}

/** The whole seconds a refused key waits (Retry-After), at least one. */
export const waitSeconds = (msBeforeNext: number) => Math.max(1, Math.ceil(msBeforeNext / 1000));

async function storeWait({ store, key }: CounterRef): Promise<number> {
  const res = await store.get(key);
  return res && res.consumedPoints >= store.points ? waitSeconds(res.msBeforeNext) : 0;
}

async function mysqlWaits(store: Store, refs: readonly CounterRef[]): Promise<number[]> {
  const byKey = new Map(refs.map((r) => [r.store.getKey(r.key), r.store]));
  const now = Date.now();
  const keys = [...byKey.keys()];
  const rows = await lookupAll<{ key: string; points: number; expire: number | null }>(
    store,
    `SELECT \`key\`, points, expire FROM throttle_counters WHERE \`key\` IN (${keys.map(() => '?').join(', ')}) AND (expire > ? OR expire IS NULL)`,
    [...keys, now],
  );
  return rows.map((row) => {
    const store = byKey.get(row.key);
    return store && Number(row.points) >= store.points
      ? waitSeconds(row.expire === null ? 1000 : Number(row.expire) - now)
      : 0;
  });
}
