// WEB_CONCURRENCY=2: a personal access token revoked through one worker is refused at once by both (keys are looked up
// in the database on every request, never cached in a process).
import { expect } from 'chai';
import { testRedis } from '../support/db';
import { freshRequest, startTwoWorkers } from '../support/cluster';
import { runCli, serviceEnv, stopService, type ServiceProcess } from '../support/process';

describe('a personal access token on a WEB_CONCURRENCY=2 service', function () {
  this.timeout(600_000);
  let service: ServiceProcess | undefined;
  beforeEach(async () => {
    if (process.env.REDIS_URL) await (await testRedis()).flushDb();
  });
  afterEach(async () => {
    if (service) await stopService(service);
    service = undefined;
  });

  it('is accepted by both workers, and once revoked through one, refused by both at once', async () => {
    const env = serviceEnv({ WEB_CONCURRENCY: '2' });
    // Once both workers listen and each has answered (support/cluster.ts; a count of tries alone, here before, ran out
    // on a quiet machine while the second worker started, 2026-11-26).
    service = await startTwoWorkers(env);
    const base = service.base;
    const key = await runCli(env, 'createtoken', 'alice', '--name', 'ci', '--scope', 'read');
    const token = `Token ${key}`;
    const before = await Promise.all(
      [0, 1, 2, 3].map(() => freshRequest(base, 'GET', '/snippets/', { Authorization: token })),
    );
    expect(before.map((r) => r.status)).to.deep.equal([200, 200, 200, 200]);
    const [id] = (await runCli(env, 'listtokens', 'alice')).split('\t');
    const basic = `Basic ${Buffer.from('alice:alicepass').toString('base64')}`;
    expect((await freshRequest(base, 'DELETE', `/tokens/${id}/`, { Authorization: basic })).status).to.equal(204);
    // Fresh connections alternate between the workers: each of them refuses it from the next request on.
    const after: number[] = [];
    for (let i = 0; i < 6; i++)
      after.push((await freshRequest(base, 'GET', '/snippets/', { Authorization: token })).status);
    expect(after).to.deep.equal([401, 401, 401, 401, 401, 401]);
  });
});
