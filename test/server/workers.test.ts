// WEB_CONCURRENCY=2: a primary that gives up when its workers cannot start, replaces one that crashes later, and
// stops them all without failing a request in flight.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { expect } from 'chai';
import { MAIN, runCli, serviceEnv, startService, stopService, type ServiceProcess } from '../support/process';
import { freePort, heldCreate, parseAnswer, within } from '../support/raw-http';

const basic = `Basic ${Buffer.from('alice:alicepass').toString('base64')}`;

/** The workers of the primary `pid`: the processes it started that run dist/server/main.js. */
function workers(pid: number): number[] {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
  return children.filter((child) => readFileSync(`/proc/${child}/cmdline`, 'utf8').includes('main.js'));
}

/** Resolves once `count` different workers have answered: startService waits for one only. */
async function serving(base: string, count: number): Promise<void> {
  const seen = new Set<number>();
  while (seen.size < count) {
    const res = await fetch(`${base}/healthz`, {
      headers: { Connection: 'close' },
      signal: AbortSignal.timeout(10_000),
    }).catch(() => undefined);
    if (res) seen.add(((await res.json()) as { worker: number }).worker);
    else await new Promise((r) => setTimeout(r, 100));
  }
}

describe('the workers of WEB_CONCURRENCY', function () {
  this.timeout(600_000);
  let service: ServiceProcess | undefined;

  it('a port in use stops the primary with exit 1 instead of restarting its workers', async () => {
    const port = await freePort();
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(port, '127.0.0.1', resolve));
    try {
      const env = { ...serviceEnv({ WEB_CONCURRENCY: '2', LOG_LEVEL: 'info' }), PORT: String(port) };
      const child = spawn(process.execPath, [MAIN], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (c: Buffer) => (output += c.toString()));
      child.stderr.on('data', (c: Buffer) => (output += c.toString()));
      // A bound for a hang, as startService's (300 s): the primary's start, its migrations and two workers' starts took
      // over 120 s at a load average of 35 (2026-11-26, the MariaDB pass).
      const code = await within(
        300_000,
        'the primary exiting',
        new Promise((resolve) => child.once('exit', resolve)),
      ).finally(() => child.kill('SIGKILL'));
      expect(code).to.equal(1);
      expect(output).to.include('EADDRINUSE');
      expect(output).to.include('a worker exited before it could serve');
      expect(output).not.to.include('starting another');
    } finally {
      holder.close();
    }
  });

  // One service for the two tests below (each start of a primary and its two workers costs tens of seconds on a busy
  // machine): a worker killed and replaced, then SIGTERM to the primary.
  describe('one service, WEB_CONCURRENCY=2', () => {
    before(async () => {
      const env = serviceEnv({ WEB_CONCURRENCY: '2', LOG_LEVEL: 'info', SHUTDOWN_TIMEOUT_MS: '600000' });
      await runCli(env, 'createuser', 'alice', '--password', 'alicepass');
      service = await startService(env, { capture: true });
    });
    after(async () => {
      if (service) await stopService(service);
      service = undefined;
    });

    it('a worker killed after start-up is replaced', async () => {
      // A worker that exits before it listens is a failed start, which stops the service: both must be serving first.
      await within(120_000, 'both workers serving', serving(service!.base, 2));
      const [first] = workers(service!.child.pid!);
      process.kill(first!, 'SIGKILL');
      // Workers 1 and 2 were the first two; a third answers once the primary has forked the replacement. A connection
      // handed to the killed worker as it died is lost with it, hence the bound on each request.
      await within(
        120_000,
        'a replacement worker answering',
        (async () => {
          for (;;) {
            const res = await fetch(`${service!.base}/healthz`, {
              headers: { Connection: 'close' },
              signal: AbortSignal.timeout(10_000),
            }).catch(() => undefined);
            if (res && ((await res.json()) as { worker: number }).worker === 3) return;
            await new Promise((r) => setTimeout(r, 100));
          }
        })(),
      ).catch((err: Error) => {
        throw new Error(`${err.message}; the service wrote: ${service!.output()}`);
      });
      expect(service!.output()).to.include('worker exited; starting another');
    });

    // Also what test/server/lifecycle.test.ts had as "WEB_CONCURRENCY=2 serves from two processes on one port and
    // stops them all on SIGTERM" (a service of its own, moved here).
    it('serves from two processes on one port; SIGTERM to the primary lets a request in flight in a worker finish, then every process exits 0', async () => {
      const s = service!;
      await within(120_000, 'two workers serving', serving(s.base, 2));
      const held = await heldCreate(s.base, basic, 'in a stopping worker');
      const pids = workers(s.child.pid!);
      expect(pids).to.have.length(2);
      s.child.kill('SIGTERM');
      await within(
        60_000,
        'both workers draining',
        (async () => {
          while ((s.output().match(/finishing requests in flight/g) ?? []).length < 2)
            await new Promise((r) => setTimeout(r, 50));
        })(),
      );
      held.finish();
      const answer = parseAnswer(await within(60_000, 'the held request answered', held.conn.closed));
      expect(answer.status).to.equal(201);
      expect(answer.headers.connection).to.equal('close');
      expect(await within(60_000, 'the primary exiting', s.exited)).to.equal(0);
      // Every worker is gone with it.
      for (const pid of pids) expect(existsSync(`/proc/${pid}`), `worker ${pid}`).to.equal(false);
    });
  });
});
