// mocha --parallel (.mocharc.json) runs the test files in worker processes at once: each worker on a database of its own.
// In-memory SQLite is per process already. A MariaDB DATABASE_URL and a REDIS_URL are shared by every worker, and the
// tests empty them: worker slot 0 keeps them as given, slot n uses the database `<name>_w<n>` (created when missing;
// the user needs CREATE on it: scripts/ci-mariadb.sh grants `snippets\_test%`) and Redis database N+n.
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createConnection } from 'mysql2/promise';

/** True in a worker of mocha --parallel (lib/nodejs/worker.cjs), false in a serial run. */
export const inWorker = /mocha[\\/]lib[\\/]nodejs[\\/]worker\.c?js$/.test(process.argv[1] ?? '');

/** Where the workers of the run `pid` (mocha's own process) claim their slots. */
const slotsDir = (pid: number) => path.join(tmpdir(), `snippets-test-slots-${pid}`);

/** The lowest slot no other worker of this run holds: a directory each creates, which fails for all but one. */
function claimSlot(): number {
  const dir = slotsDir(process.ppid);
  mkdirSync(dir, { recursive: true });
  for (let slot = 0; ; slot++) {
    try {
      mkdirSync(path.join(dir, String(slot)));
      return slot;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
}

/** In mocha's own process, after the run: the slots go with it. */
export function forgetSlots(): void {
  rmSync(slotsDir(process.pid), { recursive: true, force: true });
}

let pending: string | undefined;

/**
 * In a worker: its slot's DATABASE_URL and REDIS_URL in process.env, before any test file reads them (the tests, the
 * spawned services and testConfig() read them there). Returns the slot (0 outside a worker).
 */
export function useWorkerDatabases(): number {
  if (!inWorker) return 0;
  const slot = claimSlot();
  process.env.SNIPPETS_TEST_SLOT = String(slot);
  if (slot === 0) return slot;
  const db = process.env.DATABASE_URL;
  if (db && /^(mysql|mariadb):/.test(db)) {
    const url = new URL(db);
    url.pathname = `${url.pathname}_w${slot}`;
    process.env.DATABASE_URL = pending = url.toString();
  }
  const redis = process.env.REDIS_URL;
  if (redis) {
    const url = new URL(redis);
    url.pathname = `/${Number(url.pathname.slice(1) || '0') + slot}`;
    process.env.REDIS_URL = url.toString();
  }
  return slot;
}

/** Creates the worker's MariaDB database if it is missing (once per worker; a no-op on slot 0 and on SQLite). */
export async function createWorkerDatabase(): Promise<void> {
  if (!pending) return;
  const url = new URL(pending);
  const name = decodeURIComponent(url.pathname.slice(1));
  url.pathname = '/';
  const connection = await createConnection(url.toString());
  try {
    await connection.query(
      `CREATE DATABASE IF NOT EXISTS \`${name.replace(/`/g, '``')}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`,
    );
  } finally {
    await connection.end();
  }
  pending = undefined;
}
