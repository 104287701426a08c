// The service log: JSON lines, one access record per request, X-Request-Id, errors as one record, LOG_LEVEL, no credentials.
import { spawn } from 'node:child_process';
import { expect } from 'chai';
import sqlite3 from 'sqlite3';
import { api, basic } from '../support/http';
import { makeUser, resetDatabase } from '../support/db';
import { csrfFrom } from '../support/pages';
import { sameDatabase, serviceInProcess } from '../support/in-process';
import { MAIN, runCli, serviceEnv, startService, stopService, type ServiceProcess } from '../support/process';
import { suiteLogRecords } from '../support/log';
import { createLogger } from '../../src/log';

type LogRecord = Record<string, unknown> & { level: string; msg: string };

/** Every line the process wrote, each parsed as JSON (a line that is not JSON fails the test). */
function records(service: ServiceProcess): LogRecord[] {
  return service
    .output()
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      try {
        return JSON.parse(line) as LogRecord;
      } catch {
        throw new Error(`not a JSON line: ${line}`);
      }
    });
}

const accessOf = (all: LogRecord[], reqId: string | null) => all.filter((r) => r.reqId === reqId && 'status' in r);

describe('the service log', function () {
  this.timeout(600_000);
  let service: ServiceProcess | undefined;
  afterEach(async () => service && stopService(service));

  it('at LOG_LEVEL=debug: one JSON access record per request, and no password, token, session id, CSRF token or client secret', async () => {
    const env = serviceEnv({ LOG_LEVEL: 'debug', THROTTLE_LOGIN: '1000/minute' });
    await runCli(env, 'createuser', 'alice', '--password', 'S3cret-alice-pass');
    await runCli(env, 'createclient', 'app', '--client-id', 'log-client', '--client-secret', 'S3cret-client-secret');
    service = await startService(env, { capture: true });
    const base = service.base;
    const basicOf = (pw: string) => `Basic ${Buffer.from(`alice:${pw}`).toString('base64')}`;
    const post = (path: string, headers: Record<string, string>, body: string, type = 'application/json') =>
      fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': type, ...headers },
        body,
        redirect: 'manual',
      });

    const created = await post('/snippets/', { Authorization: basicOf('S3cret-alice-pass') }, '{"code":"x"}');
    const refused = await post('/snippets/', { Authorization: basicOf('S3cret-wrong-pass') }, '{"code":"x"}');
    const badBody = await post('/snippets/', { Authorization: basicOf('S3cret-alice-pass') }, '{"code":'); // a 400 on a bad body
    const { token } = (await (
      await post('/api-token-auth/', {}, JSON.stringify({ username: 'alice', password: 'S3cret-alice-pass' }))
    ).json()) as { token: string };
    await post('/snippets/', { Authorization: `Token ${token}` }, '{"code":"x"}');
    await post('/snippets/', { Authorization: 'Token S3cretWrongToken' }, '{"code":"x"}');
    const grant = new URLSearchParams({
      grant_type: 'password',
      username: 'alice',
      password: 'S3cret-alice-pass',
      client_id: 'log-client',
      client_secret: 'S3cret-client-secret',
    });
    const { access_token: access, refresh_token: refresh } = (await (
      await post('/oauth2/access_token/', {}, grant.toString(), 'application/x-www-form-urlencoded')
    ).json()) as Record<string, string>;
    await post('/snippets/', { Authorization: `Bearer ${access}` }, '{"code":"x"}');
    await fetch(`${base}/snippets/?access_token=${access}`); // a token in the query string is dropped with it
    await post(
      '/oauth2/access_token/',
      {},
      new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: refresh!,
        client_id: 'log-client',
        client_secret: 'S3cret-client-secret',
      }).toString(),
      'application/x-www-form-urlencoded',
    );
    const form = await fetch(`${base}/api-auth/login/`);
    const cookie = form.headers.getSetCookie()[0]!.split(';')[0]!;
    const csrf = csrfFrom(await form.text());
    const login = await post(
      '/api-auth/login/',
      { Cookie: cookie },
      new URLSearchParams({ username: 'alice', password: 'S3cret-alice-pass', csrfmiddlewaretoken: csrf }).toString(),
      'application/x-www-form-urlencoded',
    );
    const session = login.headers
      .getSetCookie()
      .find((c) => c.startsWith('sessionid='))!
      .split(';')[0]!
      .split('=')[1]!;
    const bySession = await fetch(`${base}/snippets/`, { headers: { Cookie: `sessionid=${session}` } });
    const missing = await fetch(`${base}/snippets/999/`);

    await stopService(service);
    const all = records(service);
    expect(all.map((r) => r.msg)).to.include('serving on http://127.0.0.1:' + new URL(base).port + '/');
    // One record per request, found by the id the response carried.
    const [create] = accessOf(all, created.headers.get('x-request-id'));
    expect(accessOf(all, created.headers.get('x-request-id'))).to.have.length(1);
    expect(create).to.include({ level: 'info', method: 'POST', path: '/snippets/', status: 201 });
    // Bytes on the wire: the body and the head before it.
    expect(create!.bytes)
      .to.be.above(Number(created.headers.get('content-length')) + 100)
      .and.below(Number(created.headers.get('content-length')) + 1000);
    expect(create!.userId).to.be.a('number');
    expect(create!.ms).to.be.a('number');
    expect(accessOf(all, refused.headers.get('x-request-id'))[0])
      .to.include({ level: 'info', status: 401 })
      .and.not.have.property('userId');
    expect(accessOf(all, badBody.headers.get('x-request-id'))[0]).to.include({ status: 400 });
    expect(accessOf(all, bySession.headers.get('x-request-id'))[0]).to.include({
      method: 'GET',
      path: '/snippets/',
      status: 200,
      userId: create!.userId,
    });
    expect(accessOf(all, missing.headers.get('x-request-id'))[0]).to.include({
      method: 'GET',
      path: '/snippets/999/',
      status: 404,
    });
    // Probes are logged at debug (here) and not at info (the next test).
    expect(all.some((r) => r.path === '/readyz' && r.level === 'debug')).to.equal(true);

    const text = service.output();
    for (const secret of [
      'S3cret',
      token,
      access!,
      refresh!,
      csrf,
      decodeURIComponent(session).slice(2, 30),
      Buffer.from('alice:S3cret-alice-pass').toString('base64'),
    ]) {
      expect(text, secret).not.to.include(secret);
    }
  });

  // What is logged at a level is the logger's and the app's, not the process's: the service in the test's process, with
  // the service's logger (src/log.ts) at warn, writing its lines where the test reads them.
  it('at LOG_LEVEL=warn: a 500 is one error record with its stack and request id; 2xx, 4xx and probes are not logged', async () => {
    const env = serviceEnv({ LOG_LEVEL: 'warn' });
    const lines: string[] = [];
    const log = createLogger('warn', { write: (line: string) => void lines.push(line) });
    const service = await serviceInProcess({ ...sameDatabase(env), LOG_LEVEL: 'warn' }, log);
    expect((await fetch(`${service.base}/snippets/`)).status).to.equal(200);
    // A real fault: the table goes away under the running service (as a botched manual migration would do).
    const file = env.DATABASE_URL!.replace(/^sqlite:/, '');
    await new Promise<void>((resolve, reject) => {
      const db = new sqlite3.Database(file);
      db.exec('ALTER TABLE snippets RENAME TO snippets_gone', (err) => db.close(() => (err ? reject(err) : resolve())));
    });
    const failed = await fetch(`${service.base}/snippets/`);
    expect(failed.status).to.equal(500);
    expect(await failed.text()).not.to.match(/snippets_gone|SQLITE|at /);
    // A statement prepared for the first time on the broken table fails as its request, not as the process.
    expect((await fetch(`${service.base}/snippets/999/`)).status).to.equal(500);
    const trpc = await fetch(`${service.base}/trpc/snippets.get?input=${encodeURIComponent('{"id":1}')}`);
    expect(trpc.status).to.equal(500);
    expect((await fetch(`${service.base}/nowhere/`)).status).to.equal(404); // at info: not logged

    await service.close();
    const all = lines.map((line) => JSON.parse(line) as LogRecord);
    expect(all.map((r) => [r.path, r.status, r.level])).to.deep.equal([
      ['/snippets/', 500, 'error'],
      ['/snippets/999/', 500, 'error'],
      ['/trpc/snippets.get', 500, 'error'],
    ]);
    expect((all[2]!.err as { message: string }).message).to.match(/no such table/);
    const [error] = all;
    expect(error).to.include({
      level: 'error',
      reqId: failed.headers.get('x-request-id'),
      method: 'GET',
      path: '/snippets/',
      status: 500,
    });
    const err = error!.err as { type: string; message: string; stack: string };
    expect(err.message).to.match(/no such table/);
    // node-sqlite3 makes its errors in native code: their stack is the message line alone.
    expect(err.stack).to.include('no such table');
  });

  it('an error with a many-line stack is one JSON line, the stack inside it', () => {
    const lines: string[] = [];
    const log = createLogger('info', { write: (line: string) => void lines.push(line) });
    const err = new Error('boom');
    log.error({ err }, 'unhandled error');
    expect(lines).to.have.length(1);
    expect(lines[0]!.trimEnd().split('\n')).to.have.length(1);
    const record = JSON.parse(lines[0]!) as { level: string; err: { stack: string } };
    expect(record.level).to.equal('error');
    expect(record.err.stack)
      .to.equal(err.stack)
      .and.match(/\n\s+at /);
  });

  it('redacts headers and fields that hold credentials, should a caller ever log them', () => {
    const lines: string[] = [];
    const log = createLogger('info', { write: (line: string) => void lines.push(line) });
    const headers = { authorization: 'Basic S3cretA', cookie: 'sessionid=S3cretB', 'x-csrftoken': 'S3cretC' };
    log.info(
      {
        req: { headers },
        res: { headers: { 'set-cookie': 'sessionid=S3cretD' } },
        password: 'S3cretE',
        body: { client_secret: 'S3cretF', refresh_token: 'S3cretG', token: 'S3cretH' },
      },
      'careless',
    );
    expect(lines[0]).not.to.include('S3cret');
    expect(lines[0]).to.include('[Redacted]');
  });

  it('on a terminal: pretty lines, not JSON', async function () {
    const env = serviceEnv({ LOG_LEVEL: 'info', PORT: '0' });
    // script(1) gives the service a pseudo-terminal for its stdout. It stops itself (SIGTERM) once its server listens,
    // after the line that says so (a fixed 3 s wait was shorter than a start at a load average of 30).
    const stopOnListening =
      "const net = require('node:net'); const listen = net.Server.prototype.listen; " +
      "net.Server.prototype.listen = function (...args) { this.once('listening', () => setImmediate(() => process.kill(process.pid, 'SIGTERM'))); return listen.apply(this, args); };";
    const command = `${process.execPath} -e "${stopOnListening} require('${MAIN}');"`;
    const out = await new Promise<string>((resolve) => {
      const child = spawn('script', ['-qec', command, '/dev/null'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      let text = '';
      child.stdout.on('data', (c: Buffer) => (text += c));
      child.on('close', () => resolve(text));
    });
    expect(out).to.match(/INFO.*serving on http:\/\//);
    expect(out).not.to.match(/^\{"level"/m);
  });
});

describe('X-Request-Id', () => {
  before(async () => {
    await resetDatabase();
    await makeUser('alice');
  });

  it('GET /snippets/ without one: a fresh UUID, returned and in the access record', async () => {
    const res = await api().get('/snippets/').set('Authorization', basic('alice')).expect(200);
    const id = res.headers['x-request-id'] as string;
    expect(id).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const [record] = suiteLogRecords().filter((r) => r.reqId === id);
    expect(record).to.include({ method: 'GET', path: '/snippets/', status: 200 });
    expect(record!.userId).to.be.a('number');
  });

  it('GET /snippets/ with one and TRUST_PROXY off: ignored, a fresh one returned', async () => {
    const res = await api().get('/snippets/').set('X-Request-Id', 'from-the-client-1').expect(200);
    expect(res.headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
  });

  it('GET /snippets/ with one and TRUST_PROXY on: echoed and logged', async () => {
    const res = await api({ TRUST_PROXY: '1' }).get('/snippets/').set('X-Request-Id', 'lb-7f3a:2024.01_x').expect(200);
    expect(res.headers['x-request-id']).to.equal('lb-7f3a:2024.01_x');
    expect(suiteLogRecords().filter((r) => r.reqId === 'lb-7f3a:2024.01_x')).to.have.length(1);
  });

  it('GET /snippets/ with TRUST_PROXY on and an unfit one (too long, or odd characters): a fresh one', async () => {
    for (const sent of ['x'.repeat(201), 'a b', 'a\u00e9b', '']) {
      const res = await api({ TRUST_PROXY: '1' }).get('/snippets/').set('X-Request-Id', sent).expect(200);
      expect(res.headers['x-request-id'], sent).to.match(/^[0-9a-f-]{36}$/);
    }
  });

  it('a 404 and a probe carry one too', async () => {
    expect((await api().get('/nowhere/').expect(404)).headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
    expect((await api().get('/healthz').expect(200)).headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
  });
});
