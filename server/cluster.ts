// WEB_CONCURRENCY > 1: a primary that migrates once, forks the workers, replaces crashed ones and stops them on SIGTERM.
import cluster from 'node:cluster';
import type { Config } from '../src/config';
import { closeDatabase, openDatabase } from '../src/store/database';
import { migrate } from '../src/store/migrate';
import type { Logger } from '../src/log';
import { serveCountersToWorkers } from '../src/store/counters';

export async function runPrimary(config: Config, log: Logger): Promise<void> {
  openDatabase(config);
  const applied = await migrate();
  if (applied.length) log.info({ migrations: applied }, 'applied migrations');
  await closeDatabase();

  // Without Redis or MySQL, the throttle counters of every worker live here, in memory.
  serveCountersToWorkers();
  let stopping = false;
  // A message to a worker that has just exited fails; that is no reason to stop the primary.
  const fork = () => cluster.fork().on('error', (err) => log.warn({ err }, 'message to a worker failed'));
  for (let i = 0; i < config.WEB_CONCURRENCY; i++) fork();
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    log.warn({ worker: worker.process.pid, code, signal }, 'worker exited; starting another');
    fork();
  });
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal, workers: config.WEB_CONCURRENCY }, 'stopping the workers');
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
  log.info({ workers: config.WEB_CONCURRENCY }, `primary serving on http://${config.HOST}:${config.PORT}/`);
}
