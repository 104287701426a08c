// The service as its own process (the built dist/server/main.js, as `npm start` runs it), on a SQLite file, for tests of
// process behaviour. The root hook builds dist/ first when a source is newer (test/support/dist.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCliAsync } from './cli';
import { freePort } from './ports';
import { startFlags } from '../../server/start-flags';

const ROOT = path.resolve(__dirname, '../..');
/** The service's entry point, built: starting it costs no compilation (under tsx each start compiled every module). */
export const MAIN = path.join(ROOT, 'dist/server/main.js');

export interface ServiceProcess {
  child: ChildProcess;
  base: string;
  env: NodeJS.ProcessEnv;
  exited: Promise<number | null>;
  /** Everything the process wrote, when started with `capture` (the preload's lines apart). */
  output: () => string;
  /** The lines the preload wrote (support/service-marks.cjs). */
  marks: () => string;
}

/** CI's second pass (.ci/run): the suite run again with DATABASE_URL naming MySQL/MariaDB. */
export const mysqlPass = process.env.DATABASE_URL?.startsWith('mysql') === true;

/**
 * `describe` for a file whose services run on serviceEnv()'s SQLite file whatever the pass, and for which the pass's
 * Redis changes nothing: run in the SQLite pass, pending in the MariaDB pass, which would only repeat it.
 */
export const describeOnSqlitePass: Mocha.SuiteFunction | Mocha.PendingSuiteFunction = mysqlPass
  ? describe.skip
  : describe;

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

/**
 * `probe`: the path whose 200 says the service is up; /healthz for a service meant to start while Redis is away
 * (/readyz then says 503). `nodeFlags`: node's flags, npm start's unless given (server/start-flags.ts).
 */
type StartOptions = { capture?: boolean; probe?: '/readyz' | '/healthz'; nodeFlags?: string[] };

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

/** The preload that makes a spawned service say what it did on stderr (support/service-marks.cjs). */
const MARKS = path.join(__dirname, 'service-marks.cjs');
/** A line of the preload's, kept apart from what the service wrote. */
const MARK_LINE = /^test: /;

async function startOnce(env: NodeJS.ProcessEnv, opts: StartOptions, port: number): Promise<ServiceProcess> {
  const fullEnv = {
    ...env,
    PORT: String(port),
    NODE_OPTIONS: `${env.NODE_OPTIONS ?? ''} --require ${MARKS}`.trim(),
  };
  // stderr is always read, to see EADDRINUSE and the preload's lines; without `capture` the rest is passed on.
  const stdio = opts.capture ? (['ignore', 'pipe', 'pipe'] as const) : (['ignore', 'ignore', 'pipe'] as const);
  const child = spawn(process.execPath, [...(opts.nodeFlags ?? startFlags()), MAIN], {
    env: fullEnv,
    stdio: [...stdio],
  });
  const chunks: Buffer[] = [];
  const errors: Buffer[] = [];
  let marks = '';
  let partial = '';
  child.stdout?.on('data', (c: Buffer) => chunks.push(c));
  child.stderr?.on('data', (c: Buffer) => {
    errors.push(c);
    // Whole lines: the preload's to `marks`, the service's to the output (or passed on).
    const lines = (partial + c.toString('utf8')).split('\n');
    partial = lines.pop()!;
    let text = '';
    for (const line of lines) {
      if (MARK_LINE.test(line)) marks += `${line}\n`;
      else text += `${line}\n`;
    }
    if (!text) return;
    if (opts.capture) chunks.push(Buffer.from(text));
    else process.stderr.write(text);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  // A last line without its newline, once stderr is closed.
  child.once(
    'close',
    () => partial && (opts.capture ? chunks.push(Buffer.from(partial)) : process.stderr.write(partial)),
  );
  const base = `http://127.0.0.1:${port}`;
  const service: ServiceProcess = {
    child,
    base,
    env: fullEnv,
    exited,
    output: () => Buffer.concat(chunks).toString('utf8'),
    marks: () => marks,
  };
  // A bound for a start that hangs, not a measure: a loaded machine may take long, and that is no failure.
  const deadline = Date.now() + 300_000;
  const failed = async () => {
    child.kill('SIGKILL');
    await exited;
    if (Buffer.concat(errors).includes('EADDRINUSE')) throw new PortTaken(`port ${port} was taken`);
    throw new Error(`the service did not start${chunks.length ? `: ${service.output()}` : ''}`);
  };
  // This process listens on the port (its own line says so) before any probe: a probe sent earlier could be answered
  // by another process that held the port meanwhile, and the test would then talk to a service not its own.
  const listening = marked(service, `test: listening on port ${port}\n`).then(
    () => true,
    () => false,
  );
  const startBound = new Promise<false>((r) => setTimeout(() => r(false), 300_000).unref());
  if (!(await Promise.race([listening, startBound]))) return failed();
  for (;;) {
    try {
      if ((await fetch(`${base}${opts.probe ?? '/readyz'}`)).ok) break;
    } catch {
      // not ready yet
    }
    if (child.exitCode !== null || Date.now() > deadline) return failed();
    await new Promise((r) => setTimeout(r, 100));
  }
  return service;
}

/** Resolves once `read()` holds `text` past its first `from` characters, checked on each chunk the service writes. */
function waitFor(s: ServiceProcess, read: () => string, text: string, from: number, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (!read().includes(text, from)) return false;
      s.child.stdout?.off('data', check);
      s.child.stderr?.off('data', check);
      resolve();
      return true;
    };
    if (check()) return;
    // After the output's own listeners (added first), so output() and marks() hold the chunk.
    s.child.stdout?.on('data', check);
    s.child.stderr?.on('data', check);
    void s.exited.then(
      () => check() || reject(new Error(`the service exited without ${what} ${JSON.stringify(text)}`)),
    );
  });
}

/** Resolves once the preload (support/service-marks.cjs) has said `mark`, past the first `from` characters of its lines. */
export function marked(s: ServiceProcess, mark: string, from = 0): Promise<void> {
  return waitFor(s, s.marks, mark, from, 'saying');
}

/**
 * Resolves once the service (started with `capture`) has written `text`, past the first `from` characters of its output:
 * at once if it has, else on the output that holds it.
 */
export function written(s: ServiceProcess, text: string, from = 0): Promise<void> {
  return waitFor(s, s.output, text, from, 'writing');
}

/** Resolves once `count` cluster workers of the service listen (support/service-marks.cjs), a replaced one counted too. */
export async function workersListening(s: ServiceProcess, count: number): Promise<void> {
  const mark = 'test: a worker listens\n';
  for (let seen = 0, from = 0; seen < count; seen++) {
    await marked(s, mark, from);
    from = s.marks().indexOf(mark, from) + mark.length;
  }
}

/** The setting that makes a spawned service say IN_FLIGHT_MARK when a procedure starts (support/service-marks.cjs). */
export const markingInFlight = { TEST_MARK_IN_FLIGHT: '1' };
export const IN_FLIGHT_MARK = 'test: a procedure is in flight\n';

export async function stopService(s: ServiceProcess): Promise<void> {
  if (s.child.exitCode === null) s.child.kill('SIGTERM');
  await Promise.race([s.exited, new Promise((r) => setTimeout(r, 60_000))]);
  if (s.child.exitCode === null) s.child.kill('SIGKILL');
}
