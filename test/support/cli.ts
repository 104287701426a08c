// The admin CLI for tests: in-process through runCommandLine (server/commands/main.ts), as the process would run it but
// without starting one; and the built binary (dist/server/cli.js) as its own process, without blocking the event loop.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { runCommandLine } from '../../server/commands/main';
import { noteKeysIn, suiteLogger } from './log';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

const ROOT = path.resolve(__dirname, '../..');

/** `snippets <args>` in this process, off a terminal (no prompt is possible), with `env` as its environment. */
export async function cliInProcess(env: NodeJS.ProcessEnv, ...args: string[]): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const error = new Writable({
    write(chunk: Buffer, _encoding, done) {
      stderr += chunk.toString();
      done();
    },
  });
  const code = await runCommandLine(args, {
    env,
    stdout: (text) => void (stdout += text),
    terminal: { input: new PassThrough(), error, interactive: false },
    runtime: { log: suiteLogger },
  });
  // A key a command printed (createtoken) is a credential the log must never hold.
  noteKeysIn(stdout);
  return { code, stdout, stderr };
}

/** `node dist/server/cli.js <args>` as a process of its own (the built binary: build first, as the root hook does). */
export function cliProcess(env: NodeJS.ProcessEnv, ...args: string[]): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(ROOT, 'dist/server/cli.js'), ...args],
      { cwd: ROOT, env, encoding: 'utf8' },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : null) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** Runs a command in-process and returns what it printed, trimmed; a failure throws with what it wrote on stderr. */
export async function runCliAsync(env: NodeJS.ProcessEnv, ...args: string[]): Promise<string> {
  const res = await cliInProcess(env, ...args);
  if (res.code !== 0) throw new Error(`cli ${args.join(' ')}: ${res.stderr}`);
  return res.stdout.trim();
}
