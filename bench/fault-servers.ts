// The fault bench's own dependencies, never the machine's: a mariadbd and a redis-server on free ports with temporary
// directories (stopped, SIGSTOPped, restarted at will; test/support/servers.ts's, as the fault tests use), and a tiny
// tmpfs to fill.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startMariadb, startRedis, type OwnServer } from '../test/support/servers';

export { freePort } from '../test/support/ports';

const isRoot = () => process.getuid?.() === 0;

/** A process the bench may stop, freeze and start again on the same port and data. */
export interface Dependency {
  name: string;
  port: number;
  url: string;
  /** SIGTERM, as an operator's stop: the server shuts down (SIGKILLed if it takes over 30 s). */
  stop(): Promise<void>;
  /** SIGSTOP, resolved once every thread of it has stopped. */
  freeze(): Promise<void>;
  thaw(): void;
  start(): Promise<void>;
  /** Stops it for good and removes its files. */
  remove(): Promise<void>;
}

function dependency(name: string, server: OwnServer): Dependency {
  return {
    name,
    port: server.port,
    url: server.url,
    stop: () => server.stop('SIGTERM'),
    freeze: () => server.hang(),
    thaw: () => server.resume(),
    start: () => server.start(),
    remove: () => server.close(),
  };
}

/** A mariadbd of our own: a fresh data directory, no grant tables (root without a password), database `bench`. */
export async function ownMariadb(): Promise<Dependency> {
  return dependency('mariadbd', await startMariadb({ database: 'bench', bufferPoolMb: 32 }));
}

/** A redis-server of our own, without persistence. */
export async function ownRedis(): Promise<Dependency> {
  return dependency('redis-server', await startRedis());
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
