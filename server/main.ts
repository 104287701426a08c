// Entrypoint of `npm start`: parse the configuration, migrate, serve.
import { loadConfig } from '../src/config';
import { createLogger } from '../src/log';
import { serve } from './serve';

async function main(): Promise<void> {
  const config = loadConfig();
  await serve(config, createLogger(config.LOG_LEVEL));
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
