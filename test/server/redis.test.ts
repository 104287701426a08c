// REDIS_URL: sessions and throttle counters in Redis, shared by two service processes; and Redis down is no crash.
import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import { testRedis } from '../support/db';
import { api } from '../support/http';
import { createWithSession, loginThroughForm } from '../support/pages';
import { runCli, serviceEnv, startService, stopService, type ServiceProcess } from '../support/process';

describe('sessions and throttle counters in Redis (REDIS_URL)', function () {
  this.timeout(600_000);
  let one: ServiceProcess | undefined;
  let two: ServiceProcess | undefined;
  // The tests' own Redis database (CI: /15): emptied before each test.
  const redis = testRedis;

  before(function () {
    if (!process.env.REDIS_URL) this.skip();
  });
  beforeEach(async () => {
    await (await redis()).flushDb();
  });
  afterEach(async () => {
    await Promise.all([one, two].map((s) => s && stopService(s)));
    one = two = undefined;
    await (await redis()).flushDb(); // no counters left for the tests after these
  });

  it('a session made on one process is kept in Redis (sess:<id>, expiring with the cookie) and works on the other', async () => {
    const env = serviceEnv({ REDIS_URL: process.env.REDIS_URL! });
    await runCli(env, 'createuser', 'alice', '--password', 'alicepass');
    [one, two] = await Promise.all([startService(env), startService(env)]);
    const cookie = await loginThroughForm(one.base, 'alice', 'alicepass');
    const keys = await (await redis()).keys('sess:*');
    expect(keys).to.have.length(1);
    expect(await (await redis()).ttl(keys[0]!)).to.be.within(14 * 86400 - 60, 14 * 86400);
    const { pageUser, created } = await createWithSession(two.base, cookie, 'across processes');
    expect(pageUser).to.equal('alice');
    expect(created.status).to.equal(201);
    // Logging out on one process ends the session everywhere: the key is gone.
    const csrf = /(?:^|; )csrftoken=([^;]+)/.exec(cookie)![1]!;
    const logout = await fetch(`${two.base}/api-auth/logout/`, {
      method: 'POST',
      redirect: 'manual',
      headers: { Cookie: cookie, 'X-CSRFToken': decodeURIComponent(csrf) },
    });
    expect(logout.status).to.equal(302);
    expect(await (await redis()).keys('sess:*')).to.deep.equal([]);
  });

  it('a throttle counted on one process holds on the other, under the limiter key prefix in Redis', async () => {
    const env = serviceEnv({ REDIS_URL: process.env.REDIS_URL!, THROTTLE_ANON: '2/minute' });
    [one, two] = await Promise.all([startService(env), startService(env)]);
    expect((await fetch(`${one.base}/users/`)).status).to.equal(200);
    expect((await fetch(`${two.base}/users/`)).status).to.equal(200);
    const refused = await fetch(`${one.base}/users/`);
    expect(refused.status).to.equal(429);
    expect(Number(refused.headers.get('retry-after'))).to.be.within(1, 60);
    const keys = await (await redis()).keys('anon:*');
    expect(keys).to.have.length(1);
    expect(await (await redis()).get(keys[0]!)).to.equal('3');
  });

  it('the in-process app counts THROTTLE_ANON in Redis and refuses the 3rd request with 429', async () => {
    const config = { REDIS_URL: process.env.REDIS_URL!, THROTTLE_ANON: '2/minute' };
    await api(config).get('/users/').expect(200);
    await api(config).get('/users/').expect(200);
    const res = await api(config).get('/users/').expect(429);
    expect(Number(res.headers['retry-after'])).to.be.within(1, 60);
    expect(await (await redis()).keys('anon:*')).to.have.length(1);
  });
});

/** A value signed as express-session signs its cookie (cookie-signature: HMAC-SHA256, base64 without padding). */
const sign = (value: string, secret: string) =>
  `${value}.${createHmac('sha256', secret).update(value).digest('base64').replace(/=+$/, '')}`;

describe('Redis unreachable (REDIS_URL of a closed port)', function () {
  this.timeout(600_000);
  let service: ServiceProcess | undefined;
  afterEach(async () => {
    if (service) await stopService(service);
    service = undefined;
  });

  it('the process keeps serving: throttling falls back to its own memory, a session it cannot read is a 503 with Retry-After', async () => {
    const env = serviceEnv({
      REDIS_URL: 'redis://127.0.0.1:1/0',
      THROTTLE_ANON: '2/minute',
      TRUST_PROXY: '1',
      LOG_LEVEL: 'silent',
    });
    service = await startService(env, { probe: '/healthz' });
    expect((await fetch(`${service.base}/readyz`)).status).to.equal(503);
    expect((await fetch(`${service.base}/users/`)).status).to.equal(200);
    expect((await fetch(`${service.base}/users/`)).status).to.equal(200);
    expect((await fetch(`${service.base}/users/`)).status).to.equal(429);
    // A session cannot be read within the command timeout: 503, try again later (as for a database that is down).
    // A session cookie as the service signs it (express-session's s:<id>.<signature>): only such a cookie is looked up.
    const sessionid = encodeURIComponent(`s:${sign('some-session-id', env.SECRET_KEY!)}`);
    const again = await fetch(`${service.base}/api-auth/login/`, {
      headers: { 'X-Forwarded-For': '192.0.2.1', Cookie: `sessionid=${sessionid}` },
    });
    expect(again.status).to.equal(503);
    expect(again.headers.get('retry-after')).to.equal('1');
    expect(await again.json()).to.deep.equal({
      detail: 'The service is unavailable at the moment; try again shortly.',
    });
    expect(service.child.exitCode).to.equal(null);
    expect((await fetch(`${service.base}/healthz`)).status).to.equal(200);
  });
});
