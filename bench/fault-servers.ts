// The fault bench's own dependencies, never the machine's: a mariadbd and a redis-server on free ports with temporary
// directories (stopped, SIGSTOPped, restarted at will), and a tiny tmpfs to fill.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import mysql from 'mysql2/promise';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

const isRoot = () => process.getuid?.() === 0;

/** A process the bench may stop, freeze and start again on the same port and data. */
export interface Dependency {
  name: string;
  port: number;
  stop(): Promise<void>;
  freeze(): void;
  thaw(): void;
  start(): Promise<void>;
  /** Stops it for good and removes its files. */
  remove(): Promise<void>;
}

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

function track(child: ChildProcess): ChildProcess {
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

async function stopChild(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGCONT');
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 30000))]);
  child.kill('SIGKILL');
}

async function until(what: string, ready: () => Promise<boolean>, timeoutMs = 60000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ready().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what} did not start within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A mariadbd of our own: a fresh data directory, no grant tables (root without a password), database `bench`. */
export async function ownMariadb(): Promise<Dependency & { url: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'snippets-faults-mariadb-'));
  const port = await freePort();
  const user = isRoot() ? ['--user=root'] : [];
  // Temporary files in a folder of its own, as test/support/servers.ts's (two installs at once in /tmp failed one).
  mkdirSync(`${dir}/tmp`);
  const install = spawnSync(
    'mariadb-install-db',
    [
      '--no-defaults',
      ...user,
      `--datadir=${dir}/data`,
      `--tmpdir=${dir}/tmp`,
      '--skip-test-db',
      '--auth-root-authentication-method=normal',
    ],
    { encoding: 'utf8' },
  );
  if (install.status !== 0) throw new Error(`mariadb-install-db: ${install.stderr || install.error?.message}`);
  let child: ChildProcess | undefined;
  const url = `mysql://root@127.0.0.1:${port}/bench`;
  const start = async () => {
    child = track(
      spawn(
        'mariadbd',
        [
          '--no-defaults',
          ...user,
          `--datadir=${dir}/data`,
          `--tmpdir=${dir}/tmp`,
          '--bind-address=127.0.0.1',
          `--port=${port}`,
          `--socket=${dir}/sock`,
          `--pid-file=${dir}/pid`,
          '--skip-grant-tables',
          '--innodb-buffer-pool-size=32M',
          `--log-error=${dir}/error.log`,
        ],
        { stdio: 'ignore' },
      ),
    );
    await until('mariadbd', async () => {
      const conn = await mysql.createConnection({ host: '127.0.0.1', port, user: 'root', connectTimeout: 2000 });
      await conn.query('CREATE DATABASE IF NOT EXISTS bench CHARACTER SET utf8mb4 COLLATE utf8mb4_bin');
      await conn.end();
      return true;
    });
  };
  await start();
  return { ...controls('mariadbd', port, dir, () => child, start), url };
}

/** A redis-server of our own, without persistence. */
export async function ownRedis(): Promise<Dependency & { url: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'snippets-faults-redis-'));
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    child = track(
      spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
        { stdio: 'ignore' },
      ),
    );
    await until(
      'redis-server',
      () =>
        new Promise<boolean>((resolve) => {
          const s = net.connect(port, '127.0.0.1', () => s.write('PING\r\n'));
          s.once('data', (d) => {
            s.destroy();
            resolve(d.toString().startsWith('+PONG'));
          });
          s.once('error', () => resolve(false));
        }),
    );
  };
  await start();
  return { ...controls('redis-server', port, dir, () => child, start), url: `redis://127.0.0.1:${port}/0` };
}

/** Stop, freeze, thaw, start and remove a server process of ours (`child()`: the one running now). */
function controls(
  name: string,
  port: number,
  dir: string,
  child: () => ChildProcess | undefined,
  start: () => Promise<void>,
): Dependency {
  return {
    name,
    port,
    stop: () => stopChild(child()),
    freeze: () => child()?.kill('SIGSTOP'),
    thaw: () => child()?.kill('SIGCONT'),
    start,
    async remove() {
      await stopChild(child());
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A tmpfs of `megabytes` mounted on a new directory, or why there cannot be one here. */
export function tinyFilesystem(megabytes: number): { dir: string; unmount: () => void } | { skipped: string } {
  if (!isRoot()) return { skipped: 'mounting a tmpfs needs root' };
  const dir = mkdtempSync(path.join(tmpdir(), 'snippets-faults-full-'));
  mkdirSync(dir, { recursive: true });
  const mount = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${megabytes}m`, 'tmpfs', dir], { encoding: 'utf8' });
  if (mount.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    return { skipped: `mount -t tmpfs failed: ${(mount.stderr || mount.error?.message || '').trim()}` };
  }
  return {
    dir,
    unmount() {
      spawnSync('umount', [dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
