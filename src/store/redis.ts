// A runtime's Redis connection (REDIS_URL), for sessions and throttle counters: made on first use, closed with the runtime.
import type * as NodeRedis from 'redis';
import type { Config } from '../config';
import type { Logger } from '../log';

export type Redis = ReturnType<typeof NodeRedis.createClient>;

let loaded: typeof NodeRedis | undefined;

/**
 * node-redis, loaded on the first client: requiring it costs about 0.3 s of start-up (measured), which a service
 * without REDIS_URL should not pay.
 */
function nodeRedis(): typeof NodeRedis {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load; import() would make the RedisConnection constructor async
  return (loaded ??= require('redis') as typeof NodeRedis);
}

/** The watchdog's state: a PING in flight; since when the client has not been ready. */
interface Watch {
  probing: boolean;
  notReadySince?: number;
}

/**
 * A connection not ready after this many deadlines is started again: its handshake may be waiting for a server that
 * went silent (node-redis bounds the TCP connect, not the commands of the handshake), and would wait forever.
 */
const STALLED_CONNECT_DEADLINES = 5;

type RedisConfig = Pick<Config, 'REDIS_URL'> & Partial<Pick<Config, 'REDIS_TIMEOUT_MS'>>;

/**
 * The client for REDIS_URL; it connects, and reconnects, in the background.
 *
 * Every wait has a deadline (REDIS_TIMEOUT_MS). The connect has node-redis's connectTimeout. A command waits for its
 * turn to be written at most that long (commandOptions.timeout), and not at all while the client is not connected
 * (disableOfflineQueue: it fails at once, so a throttle counts in memory and a session answers 503 without a wait).
 * node-redis drops a command's timeout once the command is written, so a server that accepts the bytes and never
 * answers (hung, SIGSTOPped, a half-open connection) would hold every command forever: the watchdog below PINGs it,
 * and a PING unanswered within the deadline drops the connection, which fails the commands waiting on it, and starts
 * a new one (ready again once the server answers; one stalled in its handshake is started again).
 */
export class RedisConnection {
  readonly client: Redis;
  private readonly connected: Promise<unknown>;
  /** Settles at the first connect's outcome: ready, or its first error. */
  private readonly tried: Promise<void>;
  private readonly timeoutMs: number;
  private readonly watchdog: NodeJS.Timeout;
  private closed = false;

  constructor(config: RedisConfig, log: Logger) {
    if (!config.REDIS_URL) throw new Error('REDIS_URL is not set');
    const timeoutMs = (this.timeoutMs = config.REDIS_TIMEOUT_MS ?? 2000);
    const client: Redis = (this.client = nodeRedis().createClient({
      url: config.REDIS_URL,
      disableOfflineQueue: true,
      commandOptions: { timeout: timeoutMs },
      socket: { connectTimeout: timeoutMs },
    }));
    let tried = () => {};
    this.tried = new Promise<void>((resolve) => (tried = resolve));
    // Without a listener an 'error' event would end the process; one line per outage, not one per retry.
    let down = false;
    client.on('error', (err: unknown) => {
      tried();
      if (!down) log.warn({ err }, 'redis is not answering; retrying');
      down = true;
    });
    client.on('ready', () => {
      tried();
      if (down) log.info('redis: connected again');
      down = false;
    });
    this.connected = client.connect();
    this.connected.catch(() => {}); // reported by the 'error' listener
    const state: Watch = { probing: false };
    this.watchdog = setInterval(
      () => void watch(client, state, timeoutMs, log, () => this.closed),
      Math.max(50, timeoutMs / 2),
    ).unref();
  }

  /** Resolves once the client is connected, or after REDIS_TIMEOUT_MS if it is not (callers then meet errors, not a wait). */
  ready(): Promise<void> {
    return this.within(this.connected);
  }

  /** Resolves when `settled` settles, or after REDIS_TIMEOUT_MS. */
  private async within(settled: Promise<unknown>): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([settled.catch(() => {}), new Promise((r) => (timer = setTimeout(r, this.timeoutMs)))]);
    clearTimeout(timer);
  }

  /**
   * For /readyz: resolves when Redis answers a PING within REDIS_TIMEOUT_MS; rejects otherwise. A probe while the first
   * connection is being made waits for its outcome, no longer: at every start of a process the load balancer's first
   * probe comes before it, and its 503 would be logged as an error (CI of 5ed9d5e, test/server/lifecycle.test.ts);
   * a server that is not there answers 503 once the connect has failed.
   */
  async ping(): Promise<void> {
    if (!this.client.isReady) await this.within(this.tried);
    if (!this.client.isReady) throw new Error('redis is not connected');
    if (!(await answers(this.client, this.timeoutMs))) throw new Error('redis did not answer in time');
  }

  /** Waits for commands in flight when Redis answers, drops them when it does not. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.watchdog);
    const { client } = this;
    if (!client.isOpen) return;
    if (!client.isReady) return client.destroy();
    let timer: NodeJS.Timeout | undefined;
    const closed = await Promise.race([
      client.close().then(() => true),
      new Promise<boolean>((r) => (timer = setTimeout(r, this.timeoutMs, false))),
    ]);
    clearTimeout(timer);
    if (!closed) {
      try {
        client.destroy();
      } catch {
        // already closing: nothing more to drop
      }
    }
  }
}

/**
 * One PING of a ready client; unanswered within the deadline, the connection is dropped and a new one started. A
 * client not ready for STALLED_CONNECT_DEADLINES deadlines is started afresh too.
 */
async function watch(
  client: Redis,
  state: Watch,
  timeoutMs: number,
  log: Logger,
  closed: () => boolean,
): Promise<void> {
  if (state.probing || closed()) return;
  if (!client.isReady) {
    state.notReadySince ??= Date.now();
    if (client.isOpen && Date.now() - state.notReadySince > STALLED_CONNECT_DEADLINES * timeoutMs) {
      state.notReadySince = Date.now();
      reconnect(client);
    }
    return;
  }
  state.notReadySince = undefined;
  state.probing = true;
  try {
    if (await answers(client, timeoutMs)) return;
    if (closed()) return;
    log.warn({ timeoutMs }, 'redis did not answer a PING in time; reconnecting');
    reconnect(client);
  } finally {
    state.probing = false;
  }
}

/** Drops the connection (its waiting commands fail) and starts a new one in the background. */
function reconnect(client: Redis): void {
  client.destroy();
  client.connect().catch(() => {}); // reported by the 'error' listener
}

/** Whether the client's server answers a PING within `timeoutMs` (an error is an answer too: the link works). */
async function answers(client: Redis, timeoutMs: number): Promise<boolean> {
  let replied: boolean | undefined;
  const reply = client.ping().then(
    () => (replied = true),
    (err: unknown) => (replied = !isRedisOutage(err)),
  );
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([reply, new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
  clearTimeout(timer);
  // After an event loop blocked past the deadline, timers run before the socket is read: a reply already received
  // is read by the next turn's poll phase, so the PING is not taken for unanswered because this process was busy.
  if (replied === undefined) await new Promise((resolve) => setImmediate(resolve));
  return replied ?? false;
}

/** Whether an error is node-redis saying the server is out of reach or silent (not a command's own error reply). */
export function isRedisOutage(err: unknown): boolean {
  const redis = loaded;
  if (!redis || !(err instanceof Error)) return false;
  return [
    redis.ClientOfflineError,
    redis.ClientClosedError,
    redis.DisconnectsClientError,
    redis.TimeoutError,
    redis.ConnectionTimeoutError,
    redis.SocketClosedUnexpectedlyError,
    redis.SocketTimeoutError,
    redis.ReconnectStrategyError,
  ].some((type) => err instanceof type);
}
