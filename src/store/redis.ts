// The process's one Redis client (REDIS_URL), for sessions and throttle counters: made on first use, closed on shutdown.
import type * as NodeRedis from 'redis';
import type { Config } from '../config';
import { createLogger } from '../log';

export type Redis = ReturnType<typeof NodeRedis.createClient>;

/**
 * node-redis, loaded on the first client: requiring it costs about 0.3 s of start-up (measured), which a service
 * without REDIS_URL should not pay.
 */
function nodeRedis(): typeof NodeRedis {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load; import() would make redisClient async
  return require('redis') as typeof NodeRedis;
}

/** Longest a command waits for an answer, queued while (re)connecting included, before it fails. */
const COMMAND_TIMEOUT_MS = 2000;

let current: { client: Redis; connected: Promise<unknown> } | undefined;

/** The client for REDIS_URL (the first call's URL: one per process); it connects, and reconnects, in the background. */
export function redisClient(config: Pick<Config, 'REDIS_URL' | 'LOG_LEVEL'>): Redis {
  if (current) return current.client;
  if (!config.REDIS_URL) throw new Error('REDIS_URL is not set');
  const log = createLogger(config.LOG_LEVEL);
  const client: Redis = nodeRedis().createClient({ url: config.REDIS_URL, commandOptions: { timeout: COMMAND_TIMEOUT_MS } });
  // Without a listener an 'error' event would end the process; one line per outage, not one per retry.
  let down = false;
  client.on('error', (err: unknown) => {
    if (!down) log.warn({ err }, 'redis is not answering; retrying');
    down = true;
  });
  client.on('ready', () => {
    if (down) log.info('redis: connected again');
    down = false;
  });
  current = { client, connected: client.connect() };
  current.connected.catch(() => {}); // reported by the 'error' listener
  return client;
}

/** Resolves once the client is connected, or after COMMAND_TIMEOUT_MS if it is not (callers then meet errors, not a wait). */
export async function redisConnected(): Promise<void> {
  if (!current) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([current.connected.catch(() => {}), new Promise((r) => (timer = setTimeout(r, COMMAND_TIMEOUT_MS)))]);
  clearTimeout(timer);
}

/** Waits for commands in flight when Redis answers, drops them when it does not; the next redisClient() starts afresh. */
export async function closeRedis(): Promise<void> {
  const c = current;
  current = undefined;
  if (!c?.client.isOpen) return;
  if (!c.client.isReady) return c.client.destroy();
  let timer: NodeJS.Timeout | undefined;
  const closed = await Promise.race([c.client.close().then(() => true), new Promise<boolean>((r) => (timer = setTimeout(r, COMMAND_TIMEOUT_MS, false)))]);
  clearTimeout(timer);
  if (!closed) {
    try {
      c.client.destroy();
    } catch {
      // already closing: nothing more to drop
    }
  }
}
