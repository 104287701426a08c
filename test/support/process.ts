// The service as its own process (the built dist/server/main.js, as `npm start` runs it), on a SQLite file, for tests of
// process behaviour. The root hook builds dist/ first when a source is newer (test/support/dist.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCliAsync } from './cli';
import { freePort } from './ports';

const ROOT = path.resolve(__dirname, '../..');
/** The service's entry point, built: starting it costs no compilation (under tsx each start compiled every module). */
export const MAIN = path.join(ROOT, 'dist/server/main.js');

export interface ServiceProcess {
  child: ChildProcess;
  base: string;
  env: NodeJS.ProcessEnv;
  exited: Promise<number | null>;
  /** Everything the process wrote, when started with `capture`. */
  output: () => string;
}

export function serviceEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const dir = mkdtempSync(path.join(tmpdir(), 'snippets-proc-'));
  return {
    ...process.env,
    DATABASE_URL: `sqlite:${path.join(dir, 'db.sqlite3')}`,
    SECRET_KEY: 'process-test-secret-process-test-secret',
    PASSWORD_ITERATIONS: '1000',
    LOG_LEVEL: 'warn',
    ...extra,
  };
}

/**
 * Runs an admin command on the service's database, in this process (runCommandLine): returns what it printed, trimmed.
 * Asynchronous, so the test's open connections keep being served meanwhile (a blocked event loop outlived the service's
 * keep-alive: undici then reused a socket the service had closed, "fetch failed … other side closed").
 */
export function runCli(env: NodeJS.ProcessEnv, ...args: string[]): Promise<string> {
  return runCliAsync(env, ...args);
}

/** `probe`: the path whose 200 says the service is up; /healthz for a service meant to start while Redis is away (/readyz then says 503). */
type StartOptions = { capture?: boolean; probe?: '/readyz' | '/healthz' };

export async function startService(env: NodeJS.ProcessEnv, opts: StartOptions = {}): Promise<ServiceProcess> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(env, opts, await freePort());
    } catch (err) {
      if (!(err instanceof PortTaken) || attempt === 3) throw err;
    }
  }
}

class PortTaken extends Error {}

async function startOnce(env: NodeJS.ProcessEnv, opts: StartOptions, port: number): Promise<ServiceProcess> {
  const fullEnv = { ...env, PORT: String(port) };
  // stderr is always read, to see EADDRINUSE; without `capture` it is passed on, as inheriting it did.
  const stdio = opts.capture ? (['ignore', 'pipe', 'pipe'] as const) : (['ignore', 'ignore', 'pipe'] as const);
  const child = spawn(process.execPath, [MAIN], { env: fullEnv, stdio: [...stdio] });
  const chunks: Buffer[] = [];
  const errors: Buffer[] = [];
  child.stdout?.on('data', (c: Buffer) => chunks.push(c));
  child.stderr?.on('data', (c: Buffer) => {
    errors.push(c);
    if (opts.capture) chunks.push(c);
    else process.stderr.write(c);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const base = `http://127.0.0.1:${port}`;
  // A bound for a start that hangs, not a measure: a loaded machine may take long, and that is no failure.
  const deadline = Date.now() + 300_000;
  for (;;) {
    try {
      if ((await fetch(`${base}${opts.probe ?? '/readyz'}`)).ok) break;
    } catch {
      // not yet listening
    }
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      await exited;
      if (Buffer.concat(errors).includes('EADDRINUSE')) throw new PortTaken(`port ${port} was taken`);
      throw new Error(`the service did not start${chunks.length ? `: ${Buffer.concat(chunks).toString()}` : ''}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, base, env: fullEnv, exited, output: () => Buffer.concat(chunks).toString('utf8') };
}

/**
 * Resolves once the service (started with `capture`) has written `text`, past the first `from` characters of its output:
 * at once if it has, else on the output that holds it.
 */
export function written(s: ServiceProcess, text: string, from = 0): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (!s.output().includes(text, from)) return false;
      s.child.stdout?.off('data', check);
      s.child.stderr?.off('data', check);
      resolve();
      return true;
    };
    if (check()) return;
    // After the output's own listeners (added first), so output() holds the chunk.
    s.child.stdout?.on('data', check);
    s.child.stderr?.on('data', check);
    void s.exited.then(
      () => check() || reject(new Error(`the service exited without writing ${JSON.stringify(text)}`)),
    );
  });
}

/** NODE_OPTIONS that make a spawned service write IN_FLIGHT_MARK when a procedure starts (support/in-flight-marker.cjs). */
export const markingInFlight = {
  NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${path.join(__dirname, 'in-flight-marker.cjs')}`.trim(),
};
export const IN_FLIGHT_MARK = 'test: a procedure is in flight\n';

export async function stopService(s: ServiceProcess): Promise<void> {
  if (s.child.exitCode === null) s.child.kill('SIGTERM');
  await Promise.race([s.exited, new Promise((r) => setTimeout(r, 60_000))]);
  if (s.child.exitCode === null) s.child.kill('SIGKILL');
}
