// The DRF tutorial's snippets service (bench/drf/) for `npm run bench:drf`: whether it can run here, starting it, stopping it.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT } from './service';

/** Debian's interpreter, where `apt-get install python3-django python3-djangorestframework python3-pygments gunicorn` puts them. */
const PYTHON = process.env.DRF_PYTHON ?? '/usr/bin/python3';
const PROBE =
  'import django, rest_framework, pygments, gunicorn; ' +
  'print(f"Django {django.get_version()}, DRF {rest_framework.VERSION}, Pygments {pygments.__version__}, gunicorn {gunicorn.__version__}")';

/** The versions it would run with, or why it cannot run. */
export function drfAvailable(): { ok: true; versions: string } | { ok: false; reason: string } {
  const res = spawnSync(PYTHON, ['-c', PROBE], { encoding: 'utf8', timeout: 60000 });
  if (res.status === 0) return { ok: true, versions: res.stdout.trim() };
  const why = res.error?.message ?? res.stderr.trim().split('\n').pop();
  return { ok: false, reason: `${PYTHON} cannot import django, rest_framework, pygments and gunicorn (${why})` };
}

export interface DrfService {
  child: ChildProcess;
  dataDir: string;
}

/** bench/drf/run.sh on `port`: a fresh database, the user, gunicorn with `workers` sync workers, in a process group of its own. */
export function startDrf(port: number, workers: number, username: string, password: string): DrfService {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'snippets-bench-drf-'));
  const child = spawn('sh', [path.join(ROOT, 'bench/drf/run.sh'), String(port)], {
    env: {
      ...process.env,
      DRF_PYTHON: PYTHON,
      DRF_DATA_DIR: dataDir,
      DRF_USER: username,
      DRF_PASSWORD: password,
      DRF_WORKERS: String(workers),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
    detached: true,
  });
  // A crashed bench must not leave gunicorn holding the port.
  const orphaned = () => killGroup(child, 'SIGKILL');
  process.once('exit', orphaned);
  child.once('exit', () => process.off('exit', orphaned));
  return { child, dataDir };
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.exitCode !== null || child.signalCode !== null || !child.pid) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // gone already
  }
}

/** SIGINT is gunicorn's quick shutdown (its SIGTERM waits up to 30 s for requests in flight); then the database goes. */
export async function stopDrf(s: DrfService): Promise<void> {
  const exited = new Promise((r) =>
    s.child.exitCode !== null || s.child.signalCode !== null ? r(0) : s.child.once('exit', r),
  );
  killGroup(s.child, 'SIGINT');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 10000))]);
  killGroup(s.child, 'SIGKILL');
  rmSync(s.dataDir, { recursive: true, force: true });
}
