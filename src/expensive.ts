// A client's expensive requests in flight (diffs, searches): at most EXPENSIVE_CONCURRENCY at once, the next one
// refused 429 with Retry-After (docs/configuration.md, "Diffs and searches"). Counted where the throttles count
// (src/store/counters.ts): in Redis, or in the cluster primary's memory, so the limit holds across processes.
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Logger } from './log';
import { Throttled } from './refusal';
import { counterKey, type CounterOptions } from './store/counters';

/**
 * A counter forgets a client after this long (from its first request in the window), whatever is still counted: the
 * safety net for a process that died with requests in flight. Far past the deadlines of a diff or a search.
 */
const FORGET_AFTER_SECONDS = 60;

/** A refused client may try again this soon: a slot frees when one of its requests ends, within a deadline of seconds. */
const RETRY_AFTER_SECONDS = 1;

/** A release this close to the window's end is skipped: the count may already be gone, and a release then would lend the client a slot. */
const RELEASE_MARGIN_MS = 1000;

/** Who a request is charged to, here and by the request throttles (server/auth/throttle.ts): the user, or the client's address. */
export function clientOf(ctx: { user: { id: number } | null; address?: string }): string {
  return ctx.user ? counterKey('u', String(ctx.user.id)) : counterKey('a', ctx.address ?? '');
}

export class ExpensiveLimit {
  private store: Promise<RateLimiterAbstract> | undefined;

  /** `open` builds the counter family on first use (the database and Redis are open by then). */
  constructor(
    readonly concurrency: number,
    private readonly open: (opts: CounterOptions) => Promise<RateLimiterAbstract>,
    private readonly log: Logger,
  ) {}

  /** Runs `work` as one of `client`'s expensive requests, or throws Throttled when it has as many in flight as allowed. */
  async run<T>(client: string, work: () => Promise<T>): Promise<T> {
    const held = await this.acquire(client);
    try {
      return await work();
    } finally {
      // Released before the answer goes out: a client that waits for its answer finds its slot free.
      if (held) await this.release(held.store, client, held.until);
    }
  }

  /** One more of the client's requests counted; undefined when the counters cannot be reached (the request runs uncounted). */
  private async acquire(client: string): Promise<{ store: RateLimiterAbstract; until: number } | undefined> {
    let store: RateLimiterAbstract;
    try {
      store = await this.counters();
    } catch (err) {
      this.log.warn({ err }, 'expensive-request counters unavailable; counting nothing');
      return undefined;
    }
    try {
      const res = await store.consume(client);
      return { store, until: Date.now() + res.msBeforeNext };
    } catch (res) {
      if (!(res instanceof RateLimiterRes)) {
        this.log.warn({ err: res }, 'expensive-request counters unavailable; counting nothing');
        return undefined;
      }
      // The refused request was counted too: give its point back, it never runs.
      await this.release(store, client, Date.now() + res.msBeforeNext);
      throw new Throttled(RETRY_AFTER_SECONDS);
    }
  }

  private async release(store: RateLimiterAbstract, client: string, until: number): Promise<void> {
    if (Date.now() >= until - RELEASE_MARGIN_MS) return;
    try {
      await store.reward(client);
    } catch (err) {
      this.log.warn({ err }, 'an expensive request could not be uncounted; its count lapses with the window');
    }
  }

  private counters(): Promise<RateLimiterAbstract> {
    const opts = { points: this.concurrency, duration: FORGET_AFTER_SECONDS, keyPrefix: 'expensive' };
    return (this.store ??= this.open(opts).catch((err: unknown) => ((this.store = undefined), Promise.reject(err))));
  }
}
