// Entrypoint of `npm start`: parse the configuration, then serve from this process or from WEB_CONCURRENCY workers.
import cluster from 'node:cluster';
import { loadConfig } from '../src/config';
import { createLogger } from '../src/log';
import { createRuntime } from '../src/runtime';
import { withStoredSecretKey } from '../src/store/secret-key';
import { runPrimary } from './cluster';
import { serve } from './serve';
import { missingStartFlags } from './start-flags';

async function main(): Promise<void> {
  // The primary stores a generated SECRET_KEY before any worker starts, so every worker reads the same one.
  const config = withStoredSecretKey(loadConfig());
  const log = createLogger(config.LOG_LEVEL);
  // A crash is one record with its stack, as every error is, then the exit Node would have made.
  process.on('uncaughtException', (err) => {
    log.fatal({ err }, 'uncaught exception; exiting');
    process.exit(1);
  });
  const missing = missingStartFlags();
  if (missing.length && cluster.isPrimary)
    log.info({ flags: missing }, 'started without the flags npm start gives node: each request costs more CPU');
  if (config.WEB_CONCURRENCY > 1 && cluster.isPrimary) await runPrimary(config, log);
  else await serve(createRuntime(config, { log }));
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
