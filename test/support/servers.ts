// A Redis or MariaDB server of a test's own (a free port, a temporary directory), to stop, hang and resume without
// touching the shared ones. Absent binaries make the test skip, with the reason. The fault bench's dependencies are
// these too (bench/fault-servers.ts).
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './ports';

export interface OwnServer {
  url: string;
  port: number;
  /** SIGSTOP, resolved once every thread has stopped: the port still accepts connections (the kernel's backlog), nothing answers. */
  hang(): Promise<void>;
  /** SIGCONT after hang(). */
  resume(): void;
  /**
   * Ends the process, by default with SIGKILL (no goodbye to clients, as a crash); with SIGTERM it shuts down as an
   * operator's stop would, SIGKILLed if still running 30 s later. start() brings it back on the same port and data.
   */
  stop(signal?: 'SIGKILL' | 'SIGTERM'): Promise<void>;
  start(): Promise<void>;
  /** Ends it for good and removes its directory. */
  close(): Promise<void>;
}

/** Why a server cannot be started here (its binary is absent), or undefined. */
export function missing(...binaries: string[]): string | undefined {
  const absent = binaries.filter((b) => spawnSync('sh', ['-c', `command -v ${b}`]).status !== 0);
  return absent.length ? `${absent.join(', ')} not installed (apt-get install redis-server mariadb-server)` : undefined;
}

/** Resolves once `ready()` holds; a bound for a start (or stop) that hangs, not a measure. */
async function until(
  what: string,
  ready: () => Promise<boolean>,
  child: ChildProcess,
  log: () => string,
): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (!(await ready())) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`${what} did not start: ${log()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port }, () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

interface Spec {
  bin: string;
  args: string[];
  url: string;
  port: number;
  /** The temporary directory, removed by close(). */
  dir: string;
  ready: () => Promise<boolean>;
}

/** Every server still running, killed if this process exits first (a run stopped halfway leaves none behind). */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** How long a SIGTERMed server may take to shut down before it is SIGKILLed. */
const TERM_WAIT_MS = 30_000;

async function ownServer({ bin, args, url, port, dir, ready }: Spec): Promise<OwnServer> {
  let child: ChildProcess | undefined;
  let output = '';
  const start = async () => {
    const c = (child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] }));
    running.add(c);
    c.once('exit', () => running.delete(c));
    output = '';
    c.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    c.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    await until(bin, ready, c, () => output);
  };
  const stop = async (signal: 'SIGKILL' | 'SIGTERM' = 'SIGKILL') => {
    const c = child;
    child = undefined;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill('SIGCONT');
    c.kill(signal);
    if (signal === 'SIGTERM') {
      const late = setTimeout(() => c.kill('SIGKILL'), TERM_WAIT_MS);
      await exited;
      clearTimeout(late);
    } else await exited;
  };
  const server: OwnServer = {
    url,
    port,
    hang: async () => {
      const pid = child?.pid;
      if (!pid) return;
      process.kill(pid, 'SIGSTOP');
      // kill() only queues the signal; a busy thread stops a moment later. Linux says when: state T in /proc.
      const stopped = () =>
        !existsSync(`/proc/${pid}/task`) ||
        readdirSync(`/proc/${pid}/task`).every((t) =>
          /^\d+ \(.*\) T /.test(readFileSync(`/proc/${pid}/task/${t}/stat`, 'utf8')),
        );
      await until(
        `${bin} stopping`,
        async () => stopped(),
        child!,
        () => output,
      );
    },
    resume: () => void child?.kill('SIGCONT'),
    stop,
    start,
    close: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await start();
  return server;
}

/** redis-server without persistence on a free port. */
export async function startRedis(): Promise<OwnServer> {
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), 'snippets-redis-'));
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir];
  return ownServer({
    bin: 'redis-server',
    args,
    url: `redis://127.0.0.1:${port}/0`,
    port,
    dir,
    ready: () => accepts(port),
  });
}

/**
 * mariadbd on a free port with a fresh data directory, no grant tables (any user gets in), and one empty database
 * (`snippets` unless named), its InnoDB buffer pool 16 MB unless told.
 */
export async function startMariadb({ database = 'snippets', bufferPoolMb = 16 } = {}): Promise<OwnServer> {
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), 'snippets-mariadb-'));
  const data = path.join(dir, 'data');
  // Its temporary files in a folder of its own: two suites' mariadb-install-db at once in the shared /tmp failed one
  // ("Could not remove temporary table: '/tmp/#sql-temptable-…'", scripts/loaded-runs.sh, 2026-11-26).
  const tmp = path.join(dir, 'tmp');
  mkdirSync(tmp);
  // mariadbd refuses to run as root unless told to.
  const asRoot = process.getuid?.() === 0 ? ['--user=root'] : [];
  const install = spawnSync(
    'mariadb-install-db',
    [
      '--no-defaults',
      `--datadir=${data}`,
      `--tmpdir=${tmp}`,
      '--skip-test-db',
      '--auth-root-authentication-method=normal',
      ...asRoot,
    ],
    { encoding: 'utf8' },
  );
  if (install.status !== 0) throw new Error(`mariadb-install-db: ${install.stderr}`);
  const args = [
    '--no-defaults',
    `--datadir=${data}`,
    `--tmpdir=${tmp}`,
    `--port=${port}`,
    '--bind-address=127.0.0.1',
    `--socket=${path.join(dir, 'sock')}`,
    `--pid-file=${path.join(dir, 'pid')}`,
    '--skip-grant-tables',
    '--skip-log-bin',
    `--innodb-buffer-pool-size=${bufferPoolMb}M`,
    `--init-file=${path.join(dir, 'init.sql')}`,
    ...asRoot,
  ];
  writeFileSync(
    path.join(dir, 'init.sql'),
    `CREATE DATABASE IF NOT EXISTS \`${database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;\n`,
  );
  // Asynchronous: a start is awaited while the test holds kept-alive connections to a service, which a blocked event
  // loop would let the service close under them.
  const answers = () =>
    new Promise<boolean>((resolve) =>
      execFile(
        'mariadb-admin',
        ['--no-defaults', '-h127.0.0.1', `-P${port}`, '-uroot', '--connect-timeout=2', 'ping'],
        (err) => resolve(!err),
      ),
    );
  return ownServer({
    bin: 'mariadbd',
    args,
    url: `mysql://root@127.0.0.1:${port}/${database}`,
    port,
    dir,
    ready: answers,
  });
}
