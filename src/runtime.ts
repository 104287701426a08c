// The composition root: everything a running service holds, built from its configuration in one place and closed as one.
import type { Config } from './config';
import { CredentialCache } from './credential-cache';
import { Highlighter } from './highlight';
import { Inflight } from './inflight';
import { createLogger, type Logger } from './log';
import { closeStore, openStore, type Store } from './store/database';
import { RedisConnection } from './store/redis';

export interface Runtime {
  readonly config: Config;
  readonly log: Logger;
  /** The database: its connections, gates and models. */
  readonly store: Store;
  readonly highlighter: Highlighter;
  /** Procedures in flight, which a shutdown lets finish. */
  readonly inflight: Inflight;
  /** Basic pairs verified lately (src/credential-cache.ts). */
  readonly credentials: CredentialCache;
  /** The clock that judges token expiry and OAuth 1.0a timestamps and times revisions (ms since the epoch). */
  readonly now: () => number;
  /** REDIS_URL's connection, made on first use; undefined without REDIS_URL. */
  redis(): RedisConnection | undefined;
  /** Something else to close with the runtime (a probe's own connection). */
  onClose(close: () => unknown): void;
  /** Closes everything the runtime opened, each part within its own deadline; the runtime is not used again. */
  close(): Promise<void>;
}

export interface RuntimeOptions {
  log?: Logger;
  now?: () => number;
}

/** Opens nothing yet: connections, workers and Redis start on first use. */
export function createRuntime(config: Config, options: RuntimeOptions = {}): Runtime {
  const log = options.log ?? createLogger(config.LOG_LEVEL);
  const highlighter = new Highlighter({ workers: config.HIGHLIGHT_WORKERS, timeoutMs: config.HIGHLIGHT_TIMEOUT_MS });
  const store = openStore(config, highlighter);
  let redis: RedisConnection | undefined;
  const closers: (() => unknown)[] = [];
  let closed: Promise<void> | undefined;
  return {
    config,
    log,
    store,
    highlighter,
    inflight: new Inflight(),
    credentials: new CredentialCache(),
    now: options.now ?? Date.now,
    redis() {
      if (!config.REDIS_URL) return undefined;
      if (closed) throw new Error('the runtime is closed');
      return (redis ??= new RedisConnection(config, log));
    },
    onClose(close) {
      closers.push(close);
    },
    close() {
      closed ??= Promise.allSettled([...closers.map(async (c) => c()), closeStore(store), highlighter.close(), redis?.close()]).then(() => undefined);
      return closed;
    },
  };
}
