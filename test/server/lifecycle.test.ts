// The service as a process: probes, graceful SIGTERM with requests in flight. (Several processes on one port, stopped
// by SIGTERM: test/server/workers.test.ts.)
import http from 'node:http';
import { expect } from 'chai';
import sqlite3 from 'sqlite3';
import {
  IN_FLIGHT_MARK,
  marked,
  markingInFlight,
  runCli,
  serviceEnv,
  startService,
  stopService,
  written,
  type ServiceProcess,
} from '../support/process';
import { heldCreate, parseAnswer } from '../support/raw-http';

const basic = `Basic ${Buffer.from('alice:alicepass').toString('base64')}`;

/** The code lengths of the snippets in a spawned service's SQLite file, read without a service. */
function codeLengths(env: NodeJS.ProcessEnv): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(env.DATABASE_URL!.slice('sqlite:'.length));
    db.all('SELECT length(code) AS n FROM snippets', (err, rows: { n: number }[]) =>
      db.close(() => (err ? reject(err) : resolve(rows.map((r) => r.n)))),
    );
  });
}

describe('the service process', function () {
  this.timeout(600_000);
  let service: ServiceProcess | undefined;
  afterEach(async () => {
    if (service) await stopService(service);
    service = undefined;
  });

  // One service for the probes and the SIGTERM after them: each start costs tens of seconds on a busy machine.
  describe('started once', () => {
    let shared: ServiceProcess | undefined;
    before(async () => {
      const env = serviceEnv({ LOG_LEVEL: 'info' });
      await runCli(env, 'createuser', 'alice', '--password', 'alicepass');
      shared = await startService(env, { capture: true });
    });
    after(async () => shared && stopService(shared));

    it('GET /healthz and /readyz answer 200 without credentials', async () => {
      expect(await (await fetch(`${shared!.base}/healthz`)).json()).to.deep.equal({ status: 'ok', worker: 0 });
      expect(await (await fetch(`${shared!.base}/readyz`)).json()).to.deep.equal({ status: 'ready' });
    });

    it('SIGTERM stops accepting, finishes the requests in flight, and exits 0', async () => {
      const s = shared!;
      const code = 'x'.repeat(20000);
      await Promise.all(
        Array.from({ length: 40 }, () =>
          fetch(`${s.base}/snippets/`, {
            method: 'POST',
            headers: { Authorization: basic, 'Content-Type': 'application/json' },
            body: JSON.stringify({ code, language: 'plaintext' }),
          }),
        ),
      );
      // In flight across the signal: a slow reader of the list (800 kB it does not read yet), and creates the service has
      // the headers of (its 100 Continue says so) but not yet the body.
      const list = await new Promise<http.IncomingMessage>((resolve, reject) =>
        http.get(`${s.base}/snippets/`, resolve).on('error', reject),
      );
      list.pause();
      const creates = await Promise.all(
        Array.from({ length: 10 }, (_, i) => heldCreate(s.base, basic, `in flight ${i}`)),
      );
      s.child.kill('SIGTERM');
      await written(s, 'finishing requests in flight');
      for (const create of creates) create.finish();
      const chunks: Buffer[] = [];
      list.on('data', (c: Buffer) => chunks.push(c));
      await new Promise((resolve) => (list.on('end', resolve), list.resume()));
      expect(list.statusCode).to.equal(200);
      expect(JSON.parse(Buffer.concat(chunks).toString())).to.have.length(40);
      expect(
        (await Promise.all(creates.map(async (c) => parseAnswer(await c.conn.closed)))).map((a) => a.status),
      ).to.deep.equal(Array(10).fill(201));
      expect(await s.exited).to.equal(0);
      let refused = false;
      await fetch(`${s.base}/healthz`).catch(() => (refused = true));
      expect(refused).to.equal(true);
    });
  });

  it('SIGTERM right after a client hung up mid-save lets the save finish before closing the database', async () => {
    // A shutdown deadline no slow machine reaches: at the default 10 s a load average of 35 cut the save (2026-11-26);
    // the deadline is test/server/shutdown.test.ts's.
    const env = serviceEnv({
      HIGHLIGHT_TIMEOUT_MS: '1500',
      SHUTDOWN_TIMEOUT_MS: '600000',
      LOG_LEVEL: 'error',
      ...markingInFlight,
    });
    await runCli(env, 'createuser', 'alice', '--password', 'alicepass');
    service = await startService(env, { capture: true });
    // Seconds of work in highlight.js' Java grammar: the save waits for the deadline (1.5 s) in the pool.
    const slow = JSON.stringify({ code: `int ${'a'.repeat(99996)}`, language: 'java' });
    const abort = new AbortController();
    const sent = service.marks().length;
    const hungUp = fetch(`${service.base}/snippets/`, {
      method: 'POST',
      signal: abort.signal,
      headers: { Authorization: basic, 'Content-Type': 'application/json' },
      body: slow,
    }).catch(() => 'aborted');
    // The save's procedure is in flight (the service says so: support/service-marks.cjs): now the client hangs up.
    await marked(service, IN_FLIGHT_MARK, sent);
    abort.abort();
    expect(await hungUp).to.equal('aborted');
    service.child.kill('SIGTERM');
    expect(await service.exited).to.equal(0);
    expect(service.output(), service.output()).not.to.match(/error/i);
    // The save is in the database file (read without starting a service again, which costs seconds).
    expect(await codeLengths(env)).to.deep.equal([100000]);
  });
});
