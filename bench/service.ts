// Starting and stopping the built service (and other processes) for the bench, each in its own process.
import { fork, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export const ROOT = path.resolve(__dirname, '..');

export function cli(env: NodeJS.ProcessEnv, ...args: string[]): string {
  const res = spawnSync(process.execPath, [path.join(ROOT, 'dist/server/cli.js'), ...args], { env, encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`snippets ${args[0]} failed: ${res.stderr}`);
  return res.stdout.trim();
}

export async function waitForHttp(url: string, timeoutMs = 30000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(url);
      if (res.status < 500) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export function startService(env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(process.execPath, [path.join(ROOT, 'dist/server/main.js')], { env, stdio: ['ignore', 'inherit', 'inherit'] });
}

export function startBaseline(file: string, port: number): ChildProcess {
  return fork(path.join(ROOT, 'bench/baseline.ts'), [file, String(port)], { execArgv: ['--require', 'tsx/cjs'], stdio: 'inherit' });
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 10000))]);
  if (child.exitCode === null) child.kill('SIGKILL');
}
