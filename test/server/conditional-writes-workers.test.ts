// WEB_CONCURRENCY=2: two processes serve one snippet; its ETag is the same from either, and of N truly concurrent PUTs
// sent with the same ETag exactly one wins (on a SQLite file, and on MariaDB when DATABASE_URL names one).
import { expect } from 'chai';
import { resetDatabase, testRedis } from '../support/db';
import { ALICE, freshRequest as request, startTwoWorkers } from '../support/cluster';
import { mysqlPass, serviceEnv, stopService, type ServiceProcess } from '../support/process';

describe('conditional writes with WEB_CONCURRENCY=2', function () {
  this.timeout(600_000);
  let service: ServiceProcess | undefined;
  afterEach(async () => {
    if (service) await stopService(service);
    service = undefined;
  });

  // Each pass its own engine: the MariaDB pass (.ci/run) would repeat the SQLite file's run.
  for (const engine of mysqlPass ? ['MariaDB'] : ['SQLite']) {
    it(`on ${engine}: the ETag is the same from both workers, and of N concurrent PUTs with it exactly one answers 200, the rest 412`, async () => {
      if (process.env.REDIS_URL) await (await testRedis()).flushDb();
      const env = serviceEnv({
        WEB_CONCURRENCY: '2',
        ...(engine === 'MariaDB' ? { DATABASE_URL: process.env.DATABASE_URL! } : {}),
      });
      if (engine === 'MariaDB') await resetDatabase();
      service = await startTwoWorkers(env);
      const base = service.base;

      const created = await request(
        base,
        'POST',
        '/snippets/',
        { Authorization: ALICE },
        JSON.stringify({ code: 'v1' }),
      );
      expect(created.status).to.equal(201);
      const id = (JSON.parse(created.body) as { id: number }).id;
      const tags = new Set<string>();
      for (let i = 0; i < 10; i++) tags.add(String((await request(base, 'GET', `/snippets/${id}/`)).headers.etag));
      expect([...tags]).to.deep.equal(['"1"']);

      const N = 12;
      const answers = await Promise.all(
        Array.from({ length: N }, (_, i) =>
          request(
            base,
            'PUT',
            `/snippets/${id}/`,
            { Authorization: ALICE, 'If-Match': '"1"' },
            JSON.stringify({ code: `writer ${i}` }),
          ),
        ),
      );
      // On a mismatch the message names what the odd answers said (a 503's detail tells a busy line from a deadline).
      const odd = answers.filter((a) => a.status !== 200 && a.status !== 412);
      expect(
        answers.map((a) => a.status).sort(),
        odd.map((a) => `${a.status} ${a.body} Retry-After: ${a.headers['retry-after']}`).join('; '),
      ).to.deep.equal([200, ...Array(N - 1).fill(412)]);
      const winner = (JSON.parse(answers.find((a) => a.status === 200)!.body) as { code: string }).code;
      const now = await request(base, 'GET', `/snippets/${id}/`);
      expect((JSON.parse(now.body) as { code: string }).code).to.equal(winner);
      expect(now.headers.etag).to.equal('"2"');
      const revisions = JSON.parse((await request(base, 'GET', `/snippets/${id}/revisions/`)).body) as {
        revision: number;
        code: string;
      }[];
      expect(revisions.map((r) => [r.revision, r.code])).to.deep.equal([
        [2, winner],
        [1, 'v1'],
      ]);
    });
  }
});
