// WEB_CONCURRENCY > 1: a primary that migrates once, forks the workers, replaces crashed ones (slower and slower if
// they keep crashing), gives up with exit 1 when a worker cannot start, and on SIGTERM stops them all within the deadline.
import cluster, { type Worker } from 'node:cluster';
import type { Config } from '../src/config';
import { createRuntime } from '../src/runtime';
import { schemaOnStart } from '../src/store/migrate';
import type { Logger } from '../src/log';
import { serveCountersToWorkers } from '../src/store/counters';
import { stopWhenOrphaned } from './orphan';
import { serveWriteTurns } from '../src/store/write-turn';

/** Past a worker's own deadline (SHUTDOWN_TIMEOUT_MS plus its few seconds of closing), the primary kills it. */
const KILL_MARGIN_MS = 5000;
/** Crashes closer together than this count as a run; each one in a run waits twice as long as the one before. */
const CRASH_RUN_MS = 60000;
const FIRST_DELAY_MS = 1000;
const MAX_DELAY_MS = 30000;

export async function runPrimary(config: Config, log: Logger): Promise<void> {
  // A runtime of its own for the migration only: the workers each build theirs.
  const runtime = createRuntime(config, { log });
  try {
    const applied = await schemaOnStart(config, runtime.store);
    if (applied.length) log.info({ migrations: applied }, 'applied migrations');
  } finally {
    await runtime.close();
  }

  // Without Redis or MySQL, the throttle counters of every worker live here, in memory.
  serveCountersToWorkers();
  // On a SQLite file, the workers' write transactions take the file's lock in turns, in the order they ask.
  serveWriteTurns(cluster, config.SQLITE_WRITE_TURN_TIMEOUT_MS);
  let stopping = false;
  let exitCode = 0;
  // Until every first worker listens, the service is starting: a worker that exits then (the port is taken, the
  // configuration or the database is wrong) would fail the same way again, so the primary stops instead of retrying.
  let starting = config.WEB_CONCURRENCY;
  const listened = new WeakSet<Worker>();
  const restart = backoff();

  const fork = () => {
    const worker = cluster.fork();
    // A message to a worker that has just exited fails; that is no reason to stop the primary.
    worker.on('error', (err) => log.warn({ err }, 'message to a worker failed'));
    worker.once('listening', () => {
      listened.add(worker);
      if (starting > 0 && --starting === 0)
        log.info({ workers: config.WEB_CONCURRENCY }, `primary serving on http://${config.HOST}:${config.PORT}/`);
    });
  };

  const stop = (reason: string, code: number) => {
    if (stopping) return;
    stopping = true;
    exitCode = code;
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
    log.info({ reason, workers: workers.length, timeoutMs: config.SHUTDOWN_TIMEOUT_MS }, 'stopping the workers');
    if (workers.length === 0) process.exit(exitCode);
    // Each worker drains its connections within SHUTDOWN_TIMEOUT_MS; one that has not exited a while after is killed.
    for (const worker of workers) worker.process.kill('SIGTERM');
    setTimeout(() => {
      log.error('workers still running past the shutdown deadline; killing them');
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGKILL');
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_MS + KILL_MARGIN_MS);
  };

  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(exitCode);
      return;
    }
    if (starting > 0 && !listened.has(worker)) {
      log.error(
        { worker: worker.process.pid, code, signal },
        'a worker exited before it could serve (its error is above); stopping',
      );
      return stop('a worker could not start', 1);
    }
    const delayMs = restart();
    log.warn({ worker: worker.process.pid, code, signal, delayMs }, 'worker exited; starting another');
    setTimeout(() => stopping || fork(), delayMs);
  });
  for (let i = 0; i < config.WEB_CONCURRENCY; i++) fork();
  process.once('SIGTERM', () => stop('SIGTERM', 0));
  process.once('SIGINT', () => stop('SIGINT', 0));
  stopWhenOrphaned(() => stop('parent exited', 0));
}

/** The delay before the next replacement: none after a lone crash, then 1 s, 2 s, 4 s... up to 30 s while crashes keep coming. */
function backoff(): () => number {
  let last = -Infinity;
  let run = 0;
  return () => {
    const now = Date.now();
    run = now - last < CRASH_RUN_MS ? run + 1 : 0;
    last = now;
    return run === 0 ? 0 : Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** (run - 1));
  };
}
