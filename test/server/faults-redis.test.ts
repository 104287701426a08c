// Redis hung (SIGSTOP) or stopped under a running service: every request answers (200 or 503 with Retry-After) within
// REDIS_TIMEOUT_MS, /readyz says 503, and the service recovers on its own when Redis is back.
import { createConnection, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { expect } from 'chai';
import { cookies, csrfFrom } from '../support/pages';
import { runCli, serviceEnv, startService, stopService, type ServiceProcess } from '../support/process';
import { missing, startRedis, type OwnServer } from '../support/servers';

/** A hang detector, not a measure: a request still unanswered this long is hanging. */
const HANG_MS = 20_000;

const get = (url: string, headers: Record<string, string> = {}) =>
  fetch(url, { headers, signal: AbortSignal.timeout(HANG_MS) });

/** Polls until `ok` holds for /readyz's status (a bound for a hang, not a measure). */
async function readyzBecomes(base: string, status: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const res = await get(`${base}/readyz`);
    if (res.status === status) return;
    if (Date.now() > deadline) throw new Error(`/readyz stayed ${res.status}, expected ${status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The login form's POST with a good password: the form's CSRF token and cookie first (GET needs no store). */
async function logIn(base: string): Promise<Response> {
  const jar = new Map<string, string>();
  const form = await get(`${base}/api-auth/login/`);
  expect(form.status).to.equal(200);
  const cookie = cookies(form, jar);
  return fetch(`${base}/api-auth/login/`, {
    method: 'POST',
    redirect: 'manual',
    signal: AbortSignal.timeout(HANG_MS),
    headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      username: 'alice',
      password: 'alicepass',
      csrfmiddlewaretoken: csrfFrom(await form.text()),
    }),
  });
}

/**
 * What every kind of request gets while Redis is away: reads answer (throttles count in memory), the login form is a
 * 503 that sets no cookie, /readyz 503.
 */
async function expectServedWithoutRedis(base: string, token: string): Promise<void> {
  const basic = `Basic ${Buffer.from('alice:alicepass').toString('base64')}`;
  for (const headers of [{}, { Authorization: `Token ${token}` }, { Authorization: basic }] as Record<
    string,
    string
  >[]) {
    const res = await get(`${base}/snippets/`, headers);
    expect(res.status, JSON.stringify(headers)).to.equal(200);
  }
  const login = await logIn(base);
  expect(login.status).to.equal(503);
  expect(login.headers.get('retry-after')).to.equal('1');
  expect(login.headers.getSetCookie()).to.deep.equal([]);
  expect(await login.json()).to.deep.equal({ detail: 'The service is unavailable at the moment; try again shortly.' });
  const ready = await get(`${base}/readyz`);
  expect(ready.status).to.equal(503);
  expect(ready.headers.get('retry-after')).to.equal('1');
  expect(await ready.json()).to.deep.equal({ detail: 'Redis is not answering.' });
}

/** /readyz 200 again, a login keeps its session, without a restart of the service. */
async function expectRecovered(base: string, token: string): Promise<void> {
  await readyzBecomes(base, 200);
  const login = await logIn(base);
  expect(login.status).to.equal(302);
  expect(login.headers.getSetCookie().some((c) => c.startsWith('sessionid='))).to.equal(true);
  expect((await get(`${base}/snippets/`, { Authorization: `Token ${token}` })).status).to.equal(200);
}

describe('Redis hung or stopped under a running service (REDIS_URL)', function () {
  this.timeout(600_000);
  let redis: OwnServer | undefined;
  let service: ServiceProcess | undefined;
  let token = '';

  before(async function () {
    const reason = missing('redis-server');
    if (reason) {
      console.log(`      skipped: ${reason}`);
      this.skip();
    }
    redis = await startRedis();
    // Every throttle on, so that each request counts in Redis; a short deadline keeps the suite quick.
    const env = serviceEnv({
      REDIS_URL: redis.url,
      REDIS_TIMEOUT_MS: '500',
      THROTTLE_ANON: '1000/minute',
      THROTTLE_USER: '1000/minute',
      LOG_LEVEL: 'silent',
    });
    await runCli(env, 'createuser', 'alice', '--password', 'alicepass');
    token = await runCli(env, 'createtoken', 'alice');
    service = await startService(env);
  });
  after(async () => {
    if (service) await stopService(service);
    await redis?.close();
  });

  it('works with Redis up (the baseline the faults below depart from)', async () => {
    expect((await logIn(service!.base)).status).to.equal(302);
    expect((await get(`${service!.base}/readyz`)).status).to.equal(200);
  });

  it('Redis hung (SIGSTOP): requests answer without waiting for it, the login form is 503 without a cookie, /readyz 503; SIGCONT recovers', async () => {
    await redis!.hang();
    try {
      // The first requests may wait for the deadline; none waits for Redis to come back.
      await readyzBecomes(service!.base, 503);
      await expectServedWithoutRedis(service!.base, token);
    } finally {
      redis!.resume();
    }
    await expectRecovered(service!.base, token);
  });

  it('Redis stopped: the same answers; Redis started again is used again without restarting the service', async () => {
    await redis!.stop();
    await readyzBecomes(service!.base, 503);
    await expectServedWithoutRedis(service!.base, token);
    await redis!.start();
    await expectRecovered(service!.base, token);
  });
});

describe('a Redis address that accepts connections and never answers (a black hole), then a Redis behind it', function () {
  this.timeout(600_000);
  let redis: OwnServer | undefined;
  let proxy: Server | undefined;
  let service: ServiceProcess | undefined;
  const held: Socket[] = [];
  let silent = true;

  before(async function () {
    const reason = missing('redis-server');
    if (reason) {
      console.log(`      skipped: ${reason}`);
      this.skip();
    }
    redis = await startRedis();
    // Silent, it takes every connection and answers nothing (the handshake too); after, it passes them to the Redis.
    proxy = createServer((socket) => {
      socket.on('error', () => {});
      if (silent) return void held.push(socket);
      const upstream = createConnection({ host: '127.0.0.1', port: redis!.port });
      upstream.on('error', () => socket.destroy());
      socket.pipe(upstream).pipe(socket);
    });
    await new Promise<void>((resolve) => proxy!.listen(0, '127.0.0.1', resolve));
  });
  after(async () => {
    if (service) await stopService(service);
    for (const socket of held) socket.destroy();
    proxy?.close();
    await redis?.close();
  });

  it('the service starts and serves, the login form and /readyz are 503; once Redis answers, the stalled connection is started again', async () => {
    const port = (proxy!.address() as AddressInfo).port;
    const env = serviceEnv({
      REDIS_URL: `redis://127.0.0.1:${port}/0`,
      REDIS_TIMEOUT_MS: '500',
      THROTTLE_ANON: '1000/minute',
      LOG_LEVEL: 'silent',
    });
    await runCli(env, 'createuser', 'alice', '--password', 'alicepass');
    const token = await runCli(env, 'createtoken', 'alice');
    service = await startService(env, { probe: '/healthz' });
    await expectServedWithoutRedis(service.base, token);
    silent = false;
    await expectRecovered(service.base, token);
  });
});
