// The composition root: everything a running service holds, built from its configuration in one place and closed as one.
import type { Config } from './config';
import { CredentialCache } from './credential-cache';
import { ExpensiveLimit } from './expensive';
import { Differ, Highlighter } from './highlight';
import { Inflight } from './inflight';
import { createLogger, type Logger } from './log';
import { counter } from './store/counters';
import { closeStore, openStore, type Store } from './store/database';
import { RedisConnection } from './store/redis';
import { snippetStore, type SnippetStore } from './store/snippets';

export interface Runtime {
  readonly config: Config;
  readonly log: Logger;
  /** The database: its connections, gates and models; and the snippets' store on it, which the procedures call. */
  readonly store: Store & { readonly snippets: SnippetStore };
  readonly highlighter: Highlighter;
  /** Diffs of revisions, on workers of their own (src/highlight/differ.ts). */
  readonly differ: Differ;
  /** Each client's diffs and searches in flight, limited (src/expensive.ts). */
  readonly expensive: ExpensiveLimit;
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
  /**
   * Worker pools another runtime shares, which close() leaves open: the tests' runtimes, one per test file, share their
   * process's (test/support/runtime.ts), since a worker's start costs ~0.5 s of CPU (highlight.js's grammars loaded).
   */
  pools?: { highlighter: Highlighter; differ: Differ };
}

/** Opens nothing yet: connections, workers and Redis start on first use. */
export function createRuntime(config: Config, options: RuntimeOptions = {}): Runtime {
  const log = options.log ?? createLogger(config.LOG_LEVEL);
  const { highlighter, differ } = options.pools ?? workerPools(config);
  const inflight = new Inflight();
  const database = openStore(config, highlighter, () => inflight.reads);
  // The same object, so that what a write notes on the store (a full disk) is what the readiness probe reads.
  const store = Object.assign(database, { snippets: snippetStore(database) });
  let redis: RedisConnection | undefined;
  const closers: (() => unknown)[] = [];
  let closed: Promise<void> | undefined;
  const runtime: Runtime = {
    config,
    log,
    store,
    highlighter,
    differ,
    expensive: expensiveLimit(config, { store, redis: () => runtime.redis() }, log),
    inflight,
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
      closed ??= Promise.allSettled([
        ...closers.map(async (c) => c()),
        closeStore(store),
        // Pools another runtime gave are that runtime's to close.
        ...(options.pools ? [] : [highlighter.close(), differ.close()]),
        redis?.close(),
      ]).then(() => undefined);
      return closed;
    },
  };
  return runtime;
}

/** The highlighting and diff workers' pools of a configuration (each starts its workers on first use). */
export function workerPools(config: Config): { highlighter: Highlighter; differ: Differ } {
  return {
    highlighter: new Highlighter({ workers: config.HIGHLIGHT_WORKERS, timeoutMs: config.HIGHLIGHT_TIMEOUT_MS }),
    differ: new Differ({
      workers: config.DIFF_WORKERS,
      timeoutMs: config.DIFF_TIMEOUT_MS,
      maxChangedLines: config.DIFF_MAX_CHANGED_LINES,
    }),
  };
}

/** EXPENSIVE_CONCURRENCY's limit, counted where the request throttles count. */
export function expensiveLimit(config: Config, parts: Parameters<typeof counter>[0], log: Logger): ExpensiveLimit {
  return new ExpensiveLimit(config.EXPENSIVE_CONCURRENCY, (opts) => counter(parts, opts, 'requests'), log);
}
