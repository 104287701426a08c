// The service as a process: probes, graceful SIGTERM with requests in flight, several processes on one port.
import http from 'node:http';
import { expect } from 'chai';
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

describe('the service process', function () {
  this.timeout(600_000);
  let service: ServiceProcess | undefined;
  afterEach(async () => {
    if (service) await stopService(service);
    service = undefined;
  });

  it('GET /healthz and /readyz answer 200 without credentials', async () => {
    service = await startService(serviceEnv());
    expect(await (await fetch(`${service.base}/healthz`)).json()).to.deep.equal({ status: 'ok', worker: 0 });
    expect(await (await fetch(`${service.base}/readyz`)).json()).to.deep.equal({ status: 'ready' });
  });

  it('SIGTERM stops accepting, finishes the requests in flight, and exits 0', async () => {
    const env = serviceEnv({ LOG_LEVEL: 'info' });
    await runCli(env, 'createuser', 'alice', '--password', 'alicepass');
    service = await startService(env, { capture: true });
    const code = 'x'.repeat(20000);
    await Promise.all(
      Array.from({ length: 40 }, () =>
        fetch(`${service!.base}/snippets/`, {
          method: 'POST',
          headers: { Authorization: basic, 'Content-Type': 'application/json' },
          body: JSON.stringify({ code, language: 'plaintext' }),
        }),
      ),
    );
    // In flight across the signal: a slow reader of the list (800 kB it does not read yet), and creates the service has
    // the headers of (its 100 Continue says so) but not yet the body.
    const list = await new Promise<http.IncomingMessage>((resolve, reject) =>
      http.get(`${service!.base}/snippets/`, resolve).on('error', reject),
    );
    list.pause();
    const creates = await Promise.all(
      Array.from({ length: 10 }, (_, i) => heldCreate(service!.base, basic, `in flight ${i}`)),
    );
    service.child.kill('SIGTERM');
    await written(service, 'finishing requests in flight');
    for (const create of creates) create.finish();
    const chunks: Buffer[] = [];
    list.on('data', (c: Buffer) => chunks.push(c));
    await new Promise((resolve) => (list.on('end', resolve), list.resume()));
    expect(list.statusCode).to.equal(200);
    expect(JSON.parse(Buffer.concat(chunks).toString())).to.have.length(40);
    expect(
      (await Promise.all(creates.map(async (c) => parseAnswer(await c.conn.closed)))).map((a) => a.status),
    ).to.deep.equal(Array(10).fill(201));
    expect(await service.exited).to.equal(0);
    let refused = false;
    await fetch(`${service.base}/healthz`).catch(() => (refused = true));
    expect(refused).to.equal(true);
  });

  it('SIGTERM right after a client hung up mid-save lets the save finish before closing the database', async () => {
    const env = serviceEnv({ HIGHLIGHT_TIMEOUT_MS: '1500', LOG_LEVEL: 'error', ...markingInFlight });
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
    expect(service.output()).not.to.match(/error/i);
    const again = await startService({ ...service.env, TEST_MARK_IN_FLIGHT: '' });
    try {
      const list = (await (await fetch(`${again.base}/snippets/`)).json()) as { code: string }[];
      expect(list.map((s) => s.code.length)).to.deep.equal([100000]);
    } finally {
      await stopService(again);
    }
  });

  it('WEB_CONCURRENCY=2 serves from two processes on one port and stops them all on SIGTERM', async () => {
    service = await startService(serviceEnv({ WEB_CONCURRENCY: '2' }));
    const seen = new Set<string>();
    // The primary hands new connections to the workers in turn; the second may still be starting.
    for (const deadline = Date.now() + 300_000; seen.size < 2 && Date.now() < deadline;) {
      const res = await fetch(`${service.base}/healthz`, { headers: { Connection: 'close' } });
      seen.add(String(((await res.json()) as { worker: number }).worker));
    }
    expect(seen.size).to.equal(2);
    service.child.kill('SIGTERM');
    expect(await service.exited).to.equal(0);
  });
});
