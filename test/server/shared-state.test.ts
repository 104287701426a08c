// Two service processes on one database: a session made on one works on the other, and throttle counters are shared.
import { expect } from 'chai';
import { redisClient } from '../../server/redis';
import { testConfig } from '../support/config';
import { cookies, csrfFrom } from '../support/pages';
import { runCli, serviceEnv, startService, stopService, type ServiceProcess } from '../support/process';

describe('two service processes on one database', function () {
  this.timeout(90000);
  let one: ServiceProcess | undefined;
  let two: ServiceProcess | undefined;
  // With REDIS_URL set (CI's MariaDB pass) the processes inherit it: sessions and counters are in Redis, emptied first.
  beforeEach(async () => {
    if (process.env.REDIS_URL) await redisClient(testConfig()).flushDb();
  });
  afterEach(async () => {
    await Promise.all([one, two].map((s) => s && stopService(s)));
    one = two = undefined;
  });

  it('a session made on one process works on the other, for reads and CSRF-checked writes', async () => {
    const env = serviceEnv();
    runCli(env, 'createuser', 'alice', '--password', 'alicepass');
    [one, two] = await Promise.all([startService(env), startService(env)]);
    const jar = new Map<string, string>();
    const form = await fetch(`${one.base}/api-auth/login/`);
    let cookie = cookies(form, jar);
    const csrf = csrfFrom(await form.text());
    const login = await fetch(`${one.base}/api-auth/login/`, {
      method: 'POST',
      redirect: 'manual',
      headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: 'alice', password: 'alicepass', csrfmiddlewaretoken: csrf }),
    });
    expect(login.status).to.equal(302);
    cookie = cookies(login, jar);
    const page = await fetch(`${two.base}/snippets/`, { headers: { Cookie: cookie, Accept: 'text/html' } });
    const html = await page.text();
    expect(html).to.include('<span class="user">alice</span>');
    const token = csrfFrom(html);
    const created = await fetch(`${two.base}/snippets/`, { method: 'POST', headers: { Cookie: cookie, 'X-CSRFToken': token, 'Content-Type': 'application/json' }, body: '{"code":"across processes"}' });
    expect(created.status).to.equal(201);
    expect(((await created.json()) as { owner: string }).owner).to.equal('alice');
  });

  it('a throttle counted on one process holds on the other', async () => {
    const env = serviceEnv({ THROTTLE_ANON: '2/minute' });
    [one, two] = await Promise.all([startService(env), startService(env)]);
    expect((await fetch(`${one.base}/users/`)).status).to.equal(200);
    expect((await fetch(`${one.base}/users/`)).status).to.equal(200);
    const refused = await fetch(`${two.base}/users/`);
    expect(refused.status).to.equal(429);
    expect(Number(refused.headers.get('retry-after'))).to.be.within(1, 60);
  });
});
