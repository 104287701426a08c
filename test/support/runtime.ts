// A runtime per test file, on a fresh database (in-memory SQLite, or DATABASE_URL's emptied), closed after it (the root
// hooks of test/setup.ts); and apps built from it per test, so no in-memory counter or cache outlives the test that
// filled it.
import { createApp } from '../../server/app';
import { CredentialCache } from '../../src/credential-cache';
import { createRuntime, expensiveLimit, workerPools, type Runtime } from '../../src/runtime';
import { migrate } from '../../src/store/migrate';
import { testConfig } from './config';
import { suiteLogger } from './log';

let current: Runtime | undefined;

/** The runtime of the suite running now. */
export function testRuntime(): Runtime {
  if (!current) throw new Error('no suite runtime: testRuntime() is for tests, hooks and helpers inside a describe()');
  return current;
}

/**
 * A runtime of the suite's own, sharing its database, highlighter and Redis, with other settings and its own clock, its
 * own Basic cache and expensive-request counters (closed with the suite's).
 */
export function runtimeWith(overrides: Record<string, string> = {}, now: () => number = Date.now): Runtime {
  const base = testRuntime();
  const config = testConfig(overrides);
  const expensive = expensiveLimit(config, { store: base.store, redis: () => base.redis() }, base.log);
  return { ...base, config, now, credentials: new CredentialCache(), expensive };
}

/**
 * The highlighting and diff workers of this process, shared by its files' runtimes: each file starting its own cost
 * ~0.5 s of CPU a worker (a thread loading highlight.js's grammars under tsx). Idle workers keep no process alive.
 */
let pools: ReturnType<typeof workerPools> | undefined;

/** This process's worker pools, made on first use with the suite's settings. */
export function sharedPools(): ReturnType<typeof workerPools> {
  return (pools ??= workerPools(testConfig()));
}

/** Opens the runtime of the test file about to run, migrated (a root before-all hook: before the file's own hooks). */
export async function openFileRuntime(): Promise<void> {
  current = createRuntime(testConfig(), { log: suiteLogger, pools: sharedPools() });
  await migrate(current.store);
}

/** Closes it, after the file's own hooks. */
export async function closeFileRuntime(): Promise<void> {
  await current?.close();
  current = undefined;
  forgetApps();
}

const apps = new Map<string, ReturnType<typeof createApp>>();

/** The app of a configuration, built once per test (building one is not free, and tests call it often). */
export function testApp(overrides: Record<string, string> = {}): ReturnType<typeof createApp> {
  const key = JSON.stringify(overrides);
  let built = apps.get(key);
  if (!built) apps.set(key, (built = createApp(runtimeWith(overrides))));
  return built;
}

/** Before each test: its apps start with empty counters and caches. */
export function forgetApps(): void {
  apps.clear();
}

/** The suite runtime's database. */
export const testStore = () => testRuntime().store;
