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

/** A server the bench stops (SIGTERM: `stop('SIGTERM')`), freezes (`hang`) and starts again on the same port and data. */
export type Dependency = OwnServer & { name: string };

/** A mariadbd of our own: a fresh data directory, no grant tables (root without a password), database `bench`. */
export async function ownMariadb(): Promise<Dependency> {
  return Object.assign(await startMariadb({ database: 'bench', bufferPoolMb: 32 }), { name: 'mariadbd' });
}

/** A redis-server of our own, without persistence. */
export async function ownRedis(): Promise<Dependency> {
  return Object.assign(await startRedis(), { name: 'redis-server' });
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
