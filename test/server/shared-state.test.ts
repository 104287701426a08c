// Two service processes on one database: a session made on one works on the other, and throttle counters are shared.
import { expect } from 'chai';
import { redisClient } from '../../server/redis';
import { testConfig } from '../support/config';
import { createWithSession, loginThroughForm } from '../support/pages';
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
    const cookie = await loginThroughForm(one.base, 'alice', 'alicepass');
    const { pageUser, created } = await createWithSession(two.base, cookie, 'across processes');
    expect(pageUser).to.equal('alice');
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
