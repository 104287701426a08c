// The service in the test's own process, for tests of what it answers where a process of its own is not the point: a
// runtime of its own (createRuntime, as server/serve.ts builds one) on the database the settings name, migrated, its
// app behind the server that serves it (server/connections.ts's drainingServer) on a free loopback port. Starting a
// process costs seconds, and tens of them on a busy machine (test/support/process.ts); this costs none of them. Not for
// a short timeout of the server's (SOCKET_TIMEOUT_MS): the test's client shares its event loop, whose stalls on a busy
// machine the timeout would count against the client.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '../../server/app';
import { drainingServer } from '../../server/connections';
import type { Logger } from '../../src/log';
import { createRuntime, type Runtime } from '../../src/runtime';
import { migrate } from '../../src/store/migrate';
import { testConfig } from './config';
import { noting, suiteLogger } from './log';
import { sharedPools } from './runtime';

export interface InProcessService {
  base: string;
  runtime: Runtime;
  server: Server;
  /** The server's shutdown (server/connections.ts): stops accepting and drains within `timeoutMs`. */
  drain(timeoutMs: number): Promise<number>;
  /** Ends every connection, then closes the runtime. */
  close(): Promise<void>;
}

/**
 * `overrides` on top of the tests' configuration (support/config.ts): a `DATABASE_URL` of a spawned service's
 * environment (serviceEnv) puts it on that service's file. It logs into the suite's log (support/log.ts), whose
 * credential check then covers it, unless given a logger of the test's.
 */
export async function serviceInProcess(
  overrides: Record<string, string> = {},
  log: Logger = suiteLogger,
): Promise<InProcessService> {
  // The process's highlighting and diff workers, unless the overrides set them otherwise (support/runtime.ts).
  const own = Object.keys(overrides).some((name) => /^(HIGHLIGHT|DIFF)_/.test(name));
  const runtime = createRuntime(testConfig(overrides), { log, pools: own ? undefined : sharedPools() });
  await migrate(runtime.store);
  const { server, drain } = drainingServer(
    noting(createApp(runtime)),
    { socketMs: runtime.config.SOCKET_TIMEOUT_MS },
    log,
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    runtime,
    server,
    drain,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await runtime.close();
    },
  };
}

/** The settings that put an in-process service on a spawned service's database, with its SECRET_KEY (serviceEnv). */
export function sameDatabase(env: NodeJS.ProcessEnv): Record<string, string> {
  return { DATABASE_URL: env.DATABASE_URL!, SECRET_KEY: env.SECRET_KEY! };
}
