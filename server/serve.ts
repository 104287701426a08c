// Runs the service: migrate, start the highlighter, listen, and stop gracefully on SIGTERM/SIGINT.
import type { Server } from 'node:http';
import type { Config } from '../src/config';
import { closeDatabase, openDatabase } from '../src/store/database';
import { migrate } from '../src/store/migrate';
import { closeHighlighter, configureHighlighter } from '../src/highlight';
import { settled } from '../src/inflight';
import type { Logger } from '../src/log';
import { createApp } from './app';
import { closeRedis } from '../src/store/redis';

export async function serve(config: Config, log: Logger): Promise<Server> {
  openDatabase(config);
  const applied = await migrate();
  if (applied.length) log.info({ migrations: applied }, 'applied migrations');
  configureHighlighter({ workers: config.HIGHLIGHT_WORKERS, timeoutMs: config.HIGHLIGHT_TIMEOUT_MS });
  const app = createApp(config, log);
  const server = app.listen(config.PORT, config.HOST);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  log.info(`serving on http://${config.HOST}:${config.PORT}/`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'finishing requests in flight');
    // close() stops accepting and waits for open requests; idle keep-alive sockets are closed at once.
    server.close(async () => {
      // A request whose client hung up no longer holds a connection, but its procedure may still be saving.
      await settled(30_000);
      await Promise.allSettled([closeDatabase(), closeHighlighter(), closeRedis()]);
      process.exit(0);
    });
    server.closeIdleConnections();
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
  return server;
}
