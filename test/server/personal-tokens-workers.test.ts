// WEB_CONCURRENCY=2: a personal access token revoked through one worker is refused at once by both (keys are looked up
// in the database on every request, never cached in a process).
import http from 'node:http';
import { expect } from 'chai';
import { testRedis } from '../support/db';
import { startTwoWorkers } from '../support/cluster';
import { runCli, serviceEnv, stopService, type ServiceProcess } from '../support/process';

/** A request on a new connection, so the primary hands successive requests to the workers in turn. */
function fresh(base: string, method: string, path: string, authorization: string): Promise<{ status: number }> {
  return new Promise((resolve, reject) => {
    http
      .request(`${base}${path}`, { method, agent: false, headers: { Authorization: authorization } }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
      })
      .on('error', reject)
      .end();
  });
}

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
    const before = await Promise.all([0, 1, 2, 3].map(() => fresh(base, 'GET', '/snippets/', token)));
    expect(before.map((r) => r.status)).to.deep.equal([200, 200, 200, 200]);
    const [id] = (await runCli(env, 'listtokens', 'alice')).split('\t');
    const basic = `Basic ${Buffer.from('alice:alicepass').toString('base64')}`;
    expect((await fresh(base, 'DELETE', `/tokens/${id}/`, basic)).status).to.equal(204);
    // Fresh connections alternate between the workers: each of them refuses it from the next request on.
    const after: number[] = [];
    for (let i = 0; i < 6; i++) after.push((await fresh(base, 'GET', '/snippets/', token)).status);
    expect(after).to.deep.equal([401, 401, 401, 401, 401, 401]);
  });
});
