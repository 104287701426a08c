// Stopping under keep-alive within SHUTDOWN_TIMEOUT_MS, and dropping a client that never reads its answer.
import http from 'node:http';
import { expect } from 'chai';
import sqlite3 from 'sqlite3';
import { runCli, serviceEnv, startService, stopService, type ServiceProcess } from '../support/process';
import { connect, heldCreate, parseAnswer, within } from '../support/raw-http';

const basic = `Basic ${Buffer.from('alice:alicepass').toString('base64')}`;

/** Resolves once the service has written a line matching `pattern` (it must run with `capture`). */
async function logged(service: ServiceProcess, pattern: RegExp): Promise<string> {
  while (!pattern.test(service.output())) {
    if (service.child.exitCode !== null) throw new Error(`exited before logging ${pattern}: ${service.output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return service
    .output()
    .split('\n')
    .find((line) => pattern.test(line))!;
}

/**
 * POSTs a snippet on a connection of its own (no keep-alive): the service closes a kept-alive connection idle for
 * SOCKET_TIMEOUT_MS, and a busy machine leaves one idle that long between two requests, which fetch then sent on the
 * closed socket ("other side closed").
 */
function create(base: string, code: string, language: string): Promise<number> {
  const body = JSON.stringify({ code, language });
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${base}/snippets/`,
      { method: 'POST', agent: false, headers: { Authorization: basic, 'Content-Type': 'application/json' } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode!));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Stores `count` snippets of alice's, each `code`, straight into the service's SQLite file (its search index follows
 * through the table's triggers): through POST /snippets/ the 150 of the test below took 5 s of a 16 s test (load 14).
 */
function storeSnippets(env: NodeJS.ProcessEnv, count: number, code: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(env.DATABASE_URL!.slice('sqlite:'.length));
    db.run(
      `INSERT INTO snippets (created, title, code, linenos, language, style, highlighted, owner_id)
       WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
       SELECT datetime('now'), '', ?, 0, 'plaintext', 'friendly', '', id FROM users, n WHERE username = 'alice'`,
      [count, code],
      function (err) {
        const stored = this?.changes;
        db.close(() =>
          err ? reject(err) : stored === count ? resolve() : reject(new Error(`stored ${stored} snippets`)),
        );
      },
    );
  });
}

describe('stopping the service and slow clients', function () {
  this.timeout(600_000);
  let service: ServiceProcess | undefined;
  afterEach(async () => {
    if (service) await stopService(service);
    service = undefined;
  });

  async function start(extra: Record<string, string>): Promise<ServiceProcess> {
    const env = serviceEnv({ LOG_LEVEL: 'info', ...extra });
    await runCli(env, 'createuser', 'alice', '--password', 'alicepass');
    return (service = await startService(env, { capture: true }));
  }

  it('SIGTERM answers the request in flight with Connection: close, closes idle keep-alive connections, and exits 0', async () => {
    // A deadline no slow machine reaches: this test is about draining, the next one about the deadline.
    const s = await start({ SHUTDOWN_TIMEOUT_MS: '600000' });
    const idle = await connect(s.base);
    idle.socket.write('GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n');
    await idle.waitFor(/"status":"ok"/);
    expect(parseAnswer(idle.received()).headers.connection).to.equal('keep-alive');
    const held = await heldCreate(s.base, basic, 'in flight across SIGTERM');

    s.child.kill('SIGTERM');
    await within(60_000, 'the signal logged', logged(s, /finishing requests in flight/));
    // The idle connection is closed by the service, with nothing more sent on it.
    const idleBytes = idle.received().length;
    expect((await within(60_000, 'the idle connection closed', idle.closed)).length).to.equal(idleBytes);
    // The service still listens to the held request's connection: its answer comes, and says the connection ends.
    held.finish();
    const answer = parseAnswer(
      await within(60_000, 'the held request answered and its connection closed', held.conn.closed),
    );
    expect(answer.status).to.equal(201);
    expect(answer.headers.connection).to.equal('close');
    expect(JSON.parse(answer.body)).to.include({ code: 'in flight across SIGTERM', owner: 'alice' });
    expect(await within(60_000, 'the exit', s.exited)).to.equal(0);
  });

  it('past SHUTDOWN_TIMEOUT_MS, a request still in flight is cut and the process exits', async () => {
    // The held request would wait for its body for the whole request timeout (300 s) and the socket timeout (1 h).
    const s = await start({ SHUTDOWN_TIMEOUT_MS: '1000', SOCKET_TIMEOUT_MS: '3600000' });
    const held = await heldCreate(s.base, basic, 'never sent');
    s.child.kill('SIGTERM');
    expect(await within(60_000, 'the exit past the deadline', s.exited)).to.equal(0);
    expect(await within(60_000, 'the held connection closed', held.conn.closed)).to.equal(
      'HTTP/1.1 100 Continue\r\n\r\n',
    );
    expect(s.output()).to.match(/"cut":1,.*shutdown deadline passed/);
  });

  it('a client that never reads its answer is dropped after SOCKET_TIMEOUT_MS without progress; a slow answer is not', async () => {
    // The answer's first byte comes past the highlighting deadline, longer than SOCKET_TIMEOUT_MS: 1.5 s of
    // highlight.js' Java grammar (it would run ~45 s), the service slow and the client waiting. (5 s cost 3.5 s more.)
    const s = await start({ SOCKET_TIMEOUT_MS: '1000', HIGHLIGHT_TIMEOUT_MS: '1500' });
    expect(await create(s.base, `int ${'a'.repeat(99996)}`, 'java')).to.equal(201);
    // A streamed list of about 15 MB: more than the loopback socket buffers of both ends hold.
    await storeSnippets(s.env, 150, 'x'.repeat(100_000));
    const reader = await new Promise<http.IncomingMessage>((resolve, reject) =>
      http.get(`${s.base}/snippets/`, resolve).on('error', reject),
    );
    reader.pause();
    expect(reader.statusCode).to.equal(200);
    const line = await within(
      120_000,
      'the stalled connection dropped',
      logged(s, /closed a connection whose client stopped reading its answer/),
    );
    expect(JSON.parse(line)).to.include({ level: 'warn', method: 'GET', url: '/snippets/', afterMs: 1000 });
    // Read now: the answer stops short of the end of the list and the connection is gone.
    let received = '';
    reader.setEncoding('utf8');
    reader.on('data', (c: string) => (received += c));
    reader.on('error', () => {}); // the cut, seen below as an incomplete message
    const closed = new Promise((resolve) => reader.once('close', resolve));
    reader.resume();
    await within(60_000, 'the cut answer read', closed);
    expect(reader.complete).to.equal(false);
    expect(received.endsWith(']')).to.equal(false);
    expect(received.length).to.be.below(150 * 100_000);
    // The service serves on.
    expect((await fetch(`${s.base}/healthz`)).status).to.equal(200);
  });
});
