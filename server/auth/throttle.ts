// Throttling with rate-limiter-flexible: THROTTLE_ANON per address, THROTTLE_USER per user, and a stricter
// limit on password checks (login page, token endpoints) per address and per username.
import type { RequestHandler, Request, Response } from 'express';
import { RateLimiterMemory, RateLimiterMySQL, RateLimiterRedis, RateLimiterRes, RateLimiterSQLite, type RateLimiterAbstract } from 'rate-limiter-flexible';
import sqlite3 from 'sqlite3';
import type { Config } from '../../src/config';
import { database, sqliteFile } from '../../src/db';
import { redisClient, redisConnected } from '../redis';
import { sendJson } from '../rest/respond';

const SECONDS = { second: 1, minute: 60, hour: 3600, day: 86400 } as const;

export interface Throttle {
  /** THROTTLE_ANON / THROTTLE_USER on every request after authentication. */
  requests: RequestHandler;
  /** Counts one password check for this address and username; resolves to the seconds to wait, or 0. */
  credentials(req: Request, username: string): Promise<number>;
  /** Basic auth: the seconds this address or username must wait after too many failures, or 0 (counts nothing). */
  failuresWait(req: Request, username: string): Promise<number>;
  /** Basic auth: counts one failed password check for this address and username. */
  failed(req: Request, username: string): Promise<void>;
}

/**
 * The one place the store is chosen: counters live in Redis with REDIS_URL, else in the database (either way shared
 * by every process and machine) unless the database is in memory (one process, tests); then in memory. Resolves
 * once the store's table exists (the library creates it, asynchronously: a consume before then would fail), or
 * for Redis once the client is connected (or has given up waiting: see the insurance below).
 */
async function limiter(config: Config, rate: string, keyPrefix: string): Promise<RateLimiterAbstract> {
  const [n, unit] = rate.split('/') as [string, keyof typeof SECONDS];
  const opts = { points: Number(n), duration: SECONDS[unit], keyPrefix, tableName: 'throttle_counters' };
  if (config.REDIS_URL) {
    const storeClient = redisClient(config);
    await redisConnected(); // the first counts go to Redis, not to the insurance below, when Redis is up
    // Keys <keyPrefix>:<key>. While Redis is unreachable (not ready, or a command times out), this process counts
    // in memory instead (insuranceLimiter): requests keep being served and throttled, per process, until it is back.
    return new RateLimiterRedis({
      points: opts.points,
      duration: opts.duration,
      keyPrefix,
      storeClient,
      useRedisPackage: true,
      rejectIfRedisNotReady: true,
      insuranceLimiter: new RateLimiterMemory({ points: opts.points, duration: opts.duration, keyPrefix }),
    });
  }
  const sequelize = database();
  const file = sqliteFile(sequelize);
  if (sequelize.getDialect() === 'sqlite' && !file) return new RateLimiterMemory(opts);
  return new Promise((resolve, reject) => {
    const ready = (err?: unknown) => (err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve(store));
    let store: RateLimiterAbstract;
    if (sequelize.getDialect() === 'sqlite') {
      // A connection of its own on the same file (WAL): the counters survive restarts and are shared by the workers.
      const db = new sqlite3.Database(file!);
      db.configure('busyTimeout', 5000);
      store = new RateLimiterSQLite({ ...opts, storeClient: db, storeType: 'sqlite3' }, ready);
    } else {
      store = new RateLimiterMySQL({ ...opts, storeClient: sequelize, storeType: 'sequelize', dbName: sequelize.getDatabaseName() }, ready);
    }
  });
}

/** The spec's words for a refused request; the OAuth 2.0 token endpoint puts them beside its RFC fields. */
export function throttledDetail(wait: number): string {
  return `Request was throttled. Expected available in ${wait} seconds.`;
}

/** 429 with Retry-After and {"detail", "wait"}: every throttled answer of the API. */
export function sendThrottled(res: Response, wait: number): void {
  sendJson(res, 429, { detail: throttledDetail(wait), wait }, { 'Retry-After': String(wait) });
}

/** Seconds until a refused key may try again, or 0 when the point was granted. */
async function consume(l: RateLimiterAbstract, key: string): Promise<number> {
  try {
    await l.consume(key);
    return 0;
  } catch (res) {
    if (res instanceof RateLimiterRes) return Math.max(1, Math.ceil(res.msBeforeNext / 1000));
    throw res;
  }
}

/** Seconds until a key that used up its points may try again, or 0; consumes nothing. */
async function blocked(l: RateLimiterAbstract, key: string): Promise<number> {
  const res = await l.get(key);
  return res && res.consumedPoints >= l.points ? Math.max(1, Math.ceil(res.msBeforeNext / 1000)) : 0;
}

export function createThrottle(config: Config): Throttle {
  // Built on first use (the database is open by then); a store that failed to start is tried again next time.
  const lazy = (rate: string, prefix: string) => {
    let store: Promise<RateLimiterAbstract> | undefined;
    return () => (store ??= limiter(config, rate, prefix).catch((err: unknown) => ((store = undefined), Promise.reject(err))));
  };
  const anonLimiter = config.THROTTLE_ANON ? lazy(config.THROTTLE_ANON, 'anon') : undefined;
  const userLimiter = config.THROTTLE_USER ? lazy(config.THROTTLE_USER, 'user') : undefined;
  // Password checks count per address and per username at THROTTLE_LOGIN's rate; the longer wait of the two wins.
  const perAddressAndUsername = (prefix: string) => {
    if (!config.THROTTLE_LOGIN) return async () => 0;
    const byAddress = lazy(config.THROTTLE_LOGIN, `${prefix}_addr`);
    const byUsername = lazy(config.THROTTLE_LOGIN, `${prefix}_user`);
    return async (req: Request, username: string, op: typeof consume) => {
      const waits = await Promise.all([op(await byAddress(), `${req.ip}`), op(await byUsername(), username.toLowerCase())]);
      return Math.max(...waits);
    };
  };
  const logins = perAddressAndUsername('login');
  // Basic sends the password on every request, so only its failures count.
  const basicFailures = perAddressAndUsername('basic');

  return {
    requests: async (req, res, next) => {
      const authed = req.requester.user;
      const l = authed ? userLimiter?.() : anonLimiter?.();
      if (!l) return next();
      try {
        const wait = await consume(await l, authed ? `u${authed.id}` : `a${req.ip}`);
        if (!wait) return next();
        sendThrottled(res, wait);
      } catch (err) {
        next(err);
      }
    },
    credentials: (req, username) => logins(req, username, consume),
    failuresWait: (req, username) => basicFailures(req, username, blocked),
    async failed(req, username) {
      await basicFailures(req, username, consume);
    },
  };
}
