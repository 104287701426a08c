// What a supervisor does: SIGTERM to the process it started. Under `npm start` and `npm exec` (what `npx snippets
// serve` runs) that process is npm; the service must stop and free the port. Runs the built dist/ (npm ci builds it).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { expect } from 'chai';
import { describeOnSqlitePass, serviceEnv } from '../support/process';
import { freePort, refusedOn, within } from '../support/raw-http';

const ROOT = path.resolve(__dirname, '../..');
/** The npm that came with the node running the tests. */
const NPM = existsSync(path.join(path.dirname(process.execPath), 'npm'))
  ? path.join(path.dirname(process.execPath), 'npm')
  : 'npm';

async function ready(base: string): Promise<void> {
  for (;;) {
    const res = await fetch(`${base}/readyz`).catch(() => undefined);
    if (res?.ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describeOnSqlitePass('SIGTERM to npm', function () {
  this.timeout(600_000);
  before(function () {
    if (!existsSync(path.join(ROOT, 'dist/server/main.js'))) throw new Error('dist/ is missing: npm run build');
  });

  for (const [name, args] of [
    ['npm start', ['start']],
    ['npm exec (as npx snippets serve)', ['exec', '--', 'node', 'dist/server/cli.js', 'serve']],
  ] as const) {
    it(`${name}: the service stops and the port is free`, async () => {
      const port = await freePort();
      const env: NodeJS.ProcessEnv = { ...serviceEnv(), PORT: String(port) };
      delete env.npm_lifecycle_event; // as from a supervisor, not from the npm that may be running these tests
      const npm = spawn(NPM, [...args], { cwd: ROOT, env, stdio: 'ignore' });
      const npmExited = new Promise((resolve) => npm.once('exit', resolve));
      try {
        await within(300_000, 'the service starting', ready(`http://127.0.0.1:${port}`));
        npm.kill('SIGTERM');
        await within(60_000, 'npm exiting', npmExited);
        await within(60_000, 'the port refusing connections', refusedOn(port));
      } finally {
        npm.kill('SIGKILL');
      }
      // Nothing holds it: a new listener can have it.
      const probe = createServer();
      const bound = await new Promise<boolean>((resolve) =>
        probe.once('error', () => resolve(false)).listen(port, '127.0.0.1', () => resolve(true)),
      );
      probe.close();
      expect(bound).to.equal(true);
    });
  }
});
