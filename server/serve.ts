// Runs the service: migrate, start the highlighter, listen, and stop on SIGTERM/SIGINT within SHUTDOWN_TIMEOUT_MS.
import type { Server } from 'node:http';
import type { Runtime } from '../src/runtime';
import { schemaOnStart } from '../src/store/migrate';
import { createApp } from './app';
import { drainingServer } from './connections';
import { stopWhenOrphaned } from './orphan';

/**
 * After the deadline: at least this long for procedures whose client has gone to finish saving, and as long again
 * for the database, Redis and the highlighter to close (a database that does not answer must not hold the exit).
 */
const CLOSE_GRACE_MS = 1000;

export async function serve(runtime: Runtime): Promise<Server> {
  const { config, log } = runtime;
  const applied = await schemaOnStart(config, runtime.store);
  if (applied.length) log.info({ migrations: applied }, 'applied migrations');
  const app = createApp(runtime);
  const { server, drain } = drainingServer(app, { socketMs: config.SOCKET_TIMEOUT_MS }, log);
  server.listen(config.PORT, config.HOST);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  log.info(`serving on http://${config.HOST}:${config.PORT}/`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    const deadline = Date.now() + config.SHUTDOWN_TIMEOUT_MS;
    log.info({ signal, timeoutMs: config.SHUTDOWN_TIMEOUT_MS }, 'finishing requests in flight');
    // The last resort, should closing hang past its grace.
    setTimeout(
      () => {
        log.error('shutdown did not finish in time; exiting');
        process.exit(1);
      },
      config.SHUTDOWN_TIMEOUT_MS + 3 * CLOSE_GRACE_MS,
    );
    const cut = await drain(config.SHUTDOWN_TIMEOUT_MS);
    if (cut)
      log.warn(
        { cut, timeoutMs: config.SHUTDOWN_TIMEOUT_MS },
        'shutdown deadline passed: closed the connections of requests still in flight',
      );
    // A request whose client hung up no longer holds a connection, but its procedure may still be saving.
    await runtime.inflight.settled(Math.max(deadline - Date.now(), CLOSE_GRACE_MS));
    await Promise.race([runtime.close(), new Promise((r) => setTimeout(r, CLOSE_GRACE_MS))]);
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
  stopWhenOrphaned(() => void stop('parent exited'));
  return server;
}
