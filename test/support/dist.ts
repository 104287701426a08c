// The tests that start the service or the CLI as a process run the build (dist/), as a user would: built once before
// the run, when a source is newer than it, instead of compiled by tsx on every start.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
/** Written last by `npm run build` (tsc, then the static files): its time is the build's. */
const BUILT = path.join(ROOT, 'dist/server/openapi/static');
const SOURCES = ['src', 'server', 'tsconfig.json', 'tsconfig.build.json', 'package.json'];

function newest(file: string): number {
  const stat = statSync(file);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(file).map((name) => newest(path.join(file, name))));
}

/** True when dist/ is missing or older than a source. */
export function distIsStale(): boolean {
  if (!existsSync(BUILT)) return true;
  const built = newest(BUILT);
  return SOURCES.some((s) => existsSync(path.join(ROOT, s)) && newest(path.join(ROOT, s)) > built);
}

/** Builds dist/ when it is stale (npm run build); throws when the build fails. */
export function ensureBuilt(): void {
  if (!distIsStale()) return;
  process.stderr.write('dist/ is older than the sources: npm run build\n');
  const res = spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
  if (res.status !== 0) throw new Error('npm run build failed: the tests that start the service need dist/');
}
