// Throttling: THROTTLE_ANON per address, THROTTLE_USER per user, and THROTTLE_LOGIN against password guessing.
import type { RequestHandler, Request } from 'express';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Runtime } from '../../src/runtime';
import { counter, counterKey, exhaustedFor, waitSeconds, type CounterUse } from '../../src/store/counters';
import { Throttled } from '../../src/refusal';
import { clientOf } from '../../src/expensive';
import { secretKey } from '../../src/store/secret-key';
import { refusedLoginLog } from './refusal-log';

const SECONDS = { second: 1, minute: 60, hour: 3600, day: 86400 } as const;

/**
 * Password guessing is counted three ways, failures only (a client that opens with forty parallel requests carrying
 * the right password is no guesser; checks racing each other can pass the limit by as many as run at once), whichever way the password came (Basic, the login page,
 * the token endpoint, the OAuth 2.0 password grant). A (username, address) pair gets THROTTLE_LOGIN's rate; an
 * address, over every username, five times that; a username, over every address, twenty times that. A refused
 * attempt counts nothing, so one guesser hammering a username from one address stops at the pair's limit and leaves
 * the username's ceiling to the owner: locking the owner out takes twenty addresses guessing at full rate.
 */
const GUESSING_LIMITS = { pair: 1, address: 5, username: 20 } as const;

export interface Throttle {
  /** THROTTLE_ANON / THROTTLE_USER on every request after authentication. */
  requests: RequestHandler;
  /**
   * One more request's point for the request's requester, under the same rate (each call of a /trpc batch beyond its
   * first, server/trpc-endpoint.ts): the seconds to wait when it is refused, or 0.
   */
  another(req: Request): Promise<number>;
  /** Before a password check for `username` from this request's address: the seconds to wait, or 0; counts nothing. */
  passwordWait(req: Request, username: string): Promise<number>;
  /** After a check that found the wrong password (or no such user): counts the failure. */
  passwordFailed(req: Request, username: string): Promise<void>;
}

/** Seconds until a refused key may try again, or 0 when the point was granted. */
async function consume(l: RateLimiterAbstract, key: string): Promise<number> {
  try {
    await l.consume(key);
    return 0;
  } catch (res) {
    if (res instanceof RateLimiterRes) return waitSeconds(res.msBeforeNext);
    throw res;
  }
}

export function createThrottle(runtime: Runtime): Throttle {
  const { config } = runtime;
  const logRefusedLogin = refusedLoginLog(secretKey(config));
  // Built on first use (the database is open by then); a store that failed to start is tried again next time.
  const lazy = (rate: string, keyPrefix: string, use: CounterUse, factor = 1) => {
    const [n, unit] = rate.split('/') as [string, keyof typeof SECONDS];
    const opts = { points: Number(n) * factor, duration: SECONDS[unit], keyPrefix };
    let store: Promise<RateLimiterAbstract> | undefined;
    return () =>
      (store ??= counter(runtime, opts, use).catch((err: unknown) => ((store = undefined), Promise.reject(err))));
  };
  const anonLimiter = config.THROTTLE_ANON ? lazy(config.THROTTLE_ANON, 'anon', 'requests') : undefined;
  const userLimiter = config.THROTTLE_USER ? lazy(config.THROTTLE_USER, 'user', 'requests') : undefined;
  const login = config.THROTTLE_LOGIN;
  const guessing = login
    ? [
        {
          limiter: lazy(login, 'pw_pair', 'guesses', GUESSING_LIMITS.pair),
          key: (req: Request, user: string) => counterKey(user, req.ip ?? ''),
        },
        {
          limiter: lazy(login, 'pw_addr', 'guesses', GUESSING_LIMITS.address),
          key: (req: Request) => counterKey(req.ip ?? ''),
        },
        {
          limiter: lazy(login, 'pw_user', 'guesses', GUESSING_LIMITS.username),
          key: (_req: Request, user: string) => counterKey(user),
        },
      ]
    : [];
  // Usernames are compared as typed by the user: Alice and alice are one target.
  const counted = async (req: Request, username: string) =>
    Promise.all(
      guessing.map(async ({ limiter, key }) => ({ store: await limiter(), key: key(req, username.toLowerCase()) })),
    );

  /** A point of the requester's rate (the user's when authenticated, else the address's): the seconds to wait, or 0. */
  const another = async (req: Request): Promise<number> => {
    const l = req.requester.user ? userLimiter?.() : anonLimiter?.();
    if (!l) return 0;
    return consume(await l, clientOf({ user: req.requester.user, address: req.ip }));
  };

  return {
    requests: async (req, _res, next) => {
      try {
        const wait = await another(req);
        next(wait ? new Throttled(wait) : undefined);
      } catch (err) {
        next(err);
      }
    },
    another,
    async passwordWait(req, username) {
      const wait = await exhaustedFor(runtime.store, await counted(req, username));
      if (wait) logRefusedLogin(req, username, 'throttled');
      return wait;
    },
    async passwordFailed(req, username) {
      logRefusedLogin(req, username, 'password');
      const counters = await counted(req, username);
      await Promise.all(counters.map(({ store, key }) => consume(store, key)));
    },
  };
}
