// Starting and stopping the built service (and other processes) for the bench, each in its own process.
import { fork, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { startFlags } from '../server/start-flags';

/**
 * The checkout whose build (`dist/`) the benches start: this one, or BENCH_ROOT, another checkout built with `npm run
 * build` (`BENCH_ROOT=/path/to/old npm run bench:mixed` measures that build under this checkout's load).
 */
export const ROOT = path.resolve(process.env.BENCH_ROOT ?? path.join(__dirname, '..'));

export function cli(env: NodeJS.ProcessEnv, ...args: string[]): string {
  const res = spawnSync(process.execPath, [path.join(ROOT, 'dist/server/cli.js'), ...args], {
    env,
    encoding: 'utf8',
    timeout: 120000,
    killSignal: 'SIGKILL',
  });
  if (res.status !== 0) throw new Error(`snippets ${args[0]} failed: ${res.error?.message ?? res.stderr}`);
  return res.stdout.trim();
}

/**
 * Throttling on at a rate never reached, so its stores are exercised on every request; THROTTLE_LOGIN keeps its default.
 * So is the limit of expensive requests in flight: a bench's many connections come from one address.
 */
export function withThrottles(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { THROTTLE_LOGIN: _login, ...rest } = env;
  return { ...rest, THROTTLE_ANON: '1000000/second', THROTTLE_USER: '1000000/second', EXPENSIVE_CONCURRENCY: '1000' };
}

/** The environment of a benched service on `databaseUrl` and `port`, throttling on. */
export function throttledServiceEnv(databaseUrl: string, port: number, logLevel: 'warn' | 'error'): NodeJS.ProcessEnv {
  return withThrottles({
    ...process.env,
    DATABASE_URL: databaseUrl,
    SECRET_KEY: 'bench-secret-key-bench-secret-key-bench',
    PORT: String(port),
    LOG_LEVEL: logLevel,
  });
}

/**
 * The environment of a fault bench's service (bench/faults.ts): no Redis but the one a fault brings in `extra`. A
 * REDIS_URL of the environment is someone else's: in .ci/run, the MariaDB pass's, beside which the bench runs, and
 * the service's anonymous readers counted under that suite's anon:127.0.0.1 key (test/server/redis.test.ts met a 429
 * on its first requests: CI of 97a6555 twice, of 4f3e381).
 */
export function faultServiceEnv(databaseUrl: string, port: number, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { ...throttledServiceEnv(databaseUrl, port, 'warn'), REDIS_URL: '', ...extra };
}

export async function waitForHttp(url: string, timeoutMs = 30000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      // A service that accepts the connection but never answers must not hang the bench.
      const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
      await res.arrayBuffer();
      if (res.status < 500) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const groupLeaders = new WeakSet<ChildProcess>();

/** `detached` puts the service (and its WEB_CONCURRENCY workers) in a process group of its own, for killGroup(). */
export function startService(env: NodeJS.ProcessEnv, opts: { detached?: boolean } = {}): ChildProcess {
  // As `npm start` gives node its flags (server/start-flags.ts). BENCH_NODE_ARGS (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`) are given to the service's node, for profiling it under load.
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...startFlags(), ...nodeArgs, path.join(ROOT, 'dist/server/main.js')], {
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
    detached: opts.detached,
  });
  if (opts.detached) groupLeaders.add(child);
  // A detached group does not get the terminal's Ctrl-C, and a crashed bench must not leave a service holding the port.
  const orphaned = () => killGroup(child);
  process.once('exit', orphaned);
  child.once('exit', () => process.off('exit', orphaned));
  return child;
}

/** kill -9 of the whole group of a detached service (the primary and its workers), or of the process alone. */
export function killGroup(child: ChildProcess): void {
  if (child.exitCode !== null || child.signalCode !== null || !child.pid) return;
  try {
    process.kill(groupLeaders.has(child) ? -child.pid : child.pid, 'SIGKILL');
  } catch {
    // gone already
  }
}

export function startBaseline(file: string, port: number): ChildProcess {
  return fork(path.join(ROOT, 'bench/baseline.ts'), [file, String(port)], {
    execArgv: ['--require', 'tsx/cjs'],
    stdio: 'inherit',
  });
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 10000))]);
  killGroup(child);
}
