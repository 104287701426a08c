// The service as a process: probes, graceful SIGTERM with requests in flight, several processes on one port.
import http from 'node:http';
import { expect } from 'chai';
import { runCli, serviceEnv, startService, stopService, type ServiceProcess } from '../support/process';

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
    const env = serviceEnv();
    await runCli(env, 'createuser', 'alice', '--password', 'alicepass');
    service = await startService(env);
    const code = 'x'.repeat(20000);
    await Promise.all(
      Array.from({ length: 40 }, () =>
        fetch(`${service!.base}/snippets/`, { method: 'POST', headers: { Authorization: basic, 'Content-Type': 'application/json' }, body: JSON.stringify({ code, language: 'plaintext' }) }),
      ),
    );
    // A slow reader of the list holds a request in flight across the signal, and so do concurrent creates.
    const list = new Promise<{ status?: number; length: number }>((resolve, reject) => {
      http.get(`${service!.base}/snippets/`, (res) => {
        res.pause();
        setTimeout(() => {
          service!.child.kill('SIGTERM');
          setTimeout(() => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve({ status: res.statusCode, length: (JSON.parse(Buffer.concat(chunks).toString()) as unknown[]).length }));
            res.resume();
          }, 300);
        }, 200);
      }).on('error', reject);
    });
    const creates = Array.from({ length: 10 }, (_, i) =>
      fetch(`${service!.base}/snippets/`, { method: 'POST', headers: { Authorization: basic, 'Content-Type': 'application/json' }, body: JSON.stringify({ code: `in flight ${i}` }) }).then((r) => r.status),
    );
    const listed = await list;
    expect(listed.status).to.equal(200);
    // The 40 stored before, and any of the 10 creates racing it: a complete, valid array either way.
    expect(listed.length).to.be.within(40, 50);
    expect(await Promise.all(creates)).to.deep.equal(Array(10).fill(201));
    expect(await service.exited).to.equal(0);
    let refused = false;
    await fetch(`${service.base}/healthz`).catch(() => (refused = true));
    expect(refused).to.equal(true);
  });

  it('SIGTERM right after a client hung up mid-save lets the save finish before closing the database', async () => {
    const env = serviceEnv({ HIGHLIGHT_TIMEOUT_MS: '1500', LOG_LEVEL: 'error' });
    await runCli(env, 'createuser', 'alice', '--password', 'alicepass');
    service = await startService(env, { capture: true });
    // Seconds of work in highlight.js' Java grammar: the save waits for the deadline (1.5 s) in the pool.
    const slow = JSON.stringify({ code: `int ${'a'.repeat(99996)}`, language: 'java' });
    const abort = new AbortController();
    const hungUp = fetch(`${service.base}/snippets/`, { method: 'POST', signal: abort.signal, headers: { Authorization: basic, 'Content-Type': 'application/json' }, body: slow }).catch(() => 'aborted');
    await new Promise((r) => setTimeout(r, 300));
    abort.abort();
    expect(await hungUp).to.equal('aborted');
    service.child.kill('SIGTERM');
    expect(await service.exited).to.equal(0);
    expect(service.output()).not.to.match(/error/i);
    const again = await startService(service.env);
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
    for (const deadline = Date.now() + 300_000; seen.size < 2 && Date.now() < deadline; ) {
      const res = await fetch(`${service.base}/healthz`, { headers: { Connection: 'close' } });
      seen.add(String(((await res.json()) as { worker: number }).worker));
    }
    expect(seen.size).to.equal(2);
    service.child.kill('SIGTERM');
    expect(await service.exited).to.equal(0);
  });
});
