// Several processes on one database: a session made on one works on the other; WEB_CONCURRENCY workers share throttle counters.
import http from 'node:http';
import { expect } from 'chai';
import { testRedis } from '../support/db';
import { createWithSession, loginThroughForm } from '../support/pages';
import { runCli, serviceEnv, startService, stopService, type ServiceProcess } from '../support/process';

describe('two service processes on one database', function () {
  this.timeout(600_000);
  let one: ServiceProcess | undefined;
  let two: ServiceProcess | undefined;
  // With REDIS_URL set (CI's MariaDB pass) the processes inherit it: sessions and counters are in Redis, emptied first.
  beforeEach(async () => {
    if (process.env.REDIS_URL) await (await testRedis()).flushDb();
  });
  afterEach(async () => {
    await Promise.all([one, two].map((s) => s && stopService(s)));
    one = two = undefined;
  });

  it('a session made on one process works on the other, for reads and CSRF-checked writes', async () => {
    const env = serviceEnv();
    await runCli(env, 'createuser', 'alice', '--password', 'alicepass');
    [one, two] = await Promise.all([startService(env), startService(env)]);
    const cookie = await loginThroughForm(one.base, 'alice', 'alicepass');
    const { pageUser, created } = await createWithSession(two.base, cookie, 'across processes');
    expect(pageUser).to.equal('alice');
    expect(created.status).to.equal(201);
    expect(((await created.json()) as { owner: string }).owner).to.equal('alice');
  });

  it('WEB_CONCURRENCY=2: a throttle counted on one worker holds on the other', async () => {
    one = await startService(serviceEnv({ THROTTLE_ANON: '4/minute', WEB_CONCURRENCY: '2' }));
    // A new connection per request, so the primary hands them to the workers in turn.
    const get = (path: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        http.get(`${one!.base}${path}`, { agent: false }, (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        }).on('error', reject);
      });
    // Both workers answer (the second may still be starting when the first is ready).
    const workers = new Set<number>();
    for (let i = 0; i < 300 && workers.size < 2; i++) workers.add((JSON.parse((await get('/healthz')).body) as { worker: number }).worker);
    expect(workers.size).to.equal(2);
    // Counted apart, no worker would see more than three of the five.
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await get('/users/')).status);
    expect(statuses).to.deep.equal([200, 200, 200, 200, 429]);
  });
});
