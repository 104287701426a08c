// WEB_CONCURRENCY=2: a personal access token revoked through one worker is refused at once by both (keys are looked up
// in the database on every request, never cached in a process).
import http from 'node:http';
import { expect } from 'chai';
import { testRedis } from '../support/db';
import { runCli, serviceEnv, startService, stopService, type ServiceProcess } from '../support/process';

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

/** Which worker answers each of `n` fresh /healthz requests. */
async function workersSeen(base: string, n: number): Promise<Set<number>> {
  const seen = new Set<number>();
  for (let i = 0; i < n; i++) {
    const body = await new Promise<string>((resolve, reject) => {
      http
        .get(`${base}/healthz`, { agent: false }, (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve(text));
        })
        .on('error', reject);
    });
    seen.add((JSON.parse(body) as { worker: number }).worker);
  }
  return seen;
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
    await runCli(env, 'createuser', 'alice', '--password', 'alicepass');
    const key = await runCli(env, 'createtoken', 'alice', '--name', 'ci', '--scope', 'read');
    service = await startService(env);
    const base = service.base;
    // Both workers answer (the second may still be starting when the first is ready).
    const seen = new Set<number>();
    for (let i = 0; i < 300 && seen.size < 2; i++) for (const w of await workersSeen(base, 1)) seen.add(w);
    expect(seen.size).to.equal(2);
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
