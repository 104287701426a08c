// /trpc batches: at most TRPC_MAX_BATCH calls, and each call counted against the throttles as a request of its own.
import { expect } from 'chai';
import { makeUser, resetDatabase } from '../support/db';
import { api, basic } from '../support/http';
import { testStore } from '../support/runtime';
import { select } from '../../src/store/select';

const snippetCount = async () =>
  Number((await select<{ n: number }>(testStore(), 'SELECT COUNT(*) AS n FROM snippets'))[0]!.n);

/** A POST of `n` creates in one batch: tRPC's batch body is an object of inputs by index. */
const createBatch = (n: number) => ({
  path: `/trpc/${Array(n).fill('snippets.create').join(',')}?batch=1`,
  body: Object.fromEntries(Array.from({ length: n }, (_, i) => [i, { code: `c${i}` }])),
});

/** A GET of `n` searches in one batch. */
const searchBatch = (n: number) =>
  `/trpc/${Array(n).fill('snippets.list').join(',')}?batch=1&input=${encodeURIComponent(JSON.stringify(Object.fromEntries(Array.from({ length: n }, (_, i) => [i, { search: `term${i}` }]))))}`;

interface BatchResult {
  result?: { data: unknown };
  error?: { data: { code: string; httpStatus: number } };
}
const statusesOf = (body: BatchResult[]) => body.map((r) => (r.error ? r.error.data.httpStatus : 200));

describe('/trpc batches', () => {
  beforeEach(async () => {
    await resetDatabase();
    await makeUser('alice');
  });

  describe('past TRPC_MAX_BATCH (10 by default)', () => {
    it('a batch of 11 creates is refused 400 BAD_REQUEST before any call runs', async () => {
      const { path, body } = createBatch(11);
      const res = await api()
        .post(path)
        .set('Authorization', basic('alice'))
        .send(body)
        .expect(400)
        .expect('Content-Type', /^application\/json/);
      expect(res.body.error.data).to.include({ code: 'BAD_REQUEST', httpStatus: 400 });
      expect(res.body.error.message).to.equal('Batch call exceeds maximum size');
      expect(await snippetCount()).to.equal(0);
    });

    it('a batch of 10 creates runs all 10', async () => {
      const { path, body } = createBatch(10);
      const res = await api().post(path).set('Authorization', basic('alice')).send(body).expect(200);
      expect(statusesOf(res.body)).to.deep.equal(Array(10).fill(200));
      expect(await snippetCount()).to.equal(10);
    });

    it('TRPC_MAX_BATCH=1 refuses any batch of 2, and still runs a batch of 1', async () => {
      const config = { TRPC_MAX_BATCH: '1' };
      await api(config).get(searchBatch(2)).expect(400);
      await api(config).get(searchBatch(1)).expect(200);
    });
  });

  describe('each call counts against the throttles as a request would', () => {
    it('a batch of 1,000 creates under THROTTLE_USER=5/minute creates exactly 5 snippets; the other 995 calls are refused 429', async () => {
      const config = { THROTTLE_USER: '5/minute', TRPC_MAX_BATCH: '1000' };
      const { path, body } = createBatch(1000);
      const res = await api(config).post(path).set('Authorization', basic('alice')).send(body).expect(207);
      const statuses = statusesOf(res.body);
      expect(statuses.filter((s) => s === 200)).to.have.length(5);
      expect(statuses.filter((s) => s === 429)).to.have.length(995);
      expect(Number(res.headers['retry-after'])).to.be.within(1, 60);
      const refused = (res.body as BatchResult[]).find((r) => r.error)!.error!;
      expect(refused.data.code).to.equal('TOO_MANY_REQUESTS');
      expect(await snippetCount()).to.equal(5);
      // The user's rate is spent: the next request of any kind is refused.
      await api(config).get('/snippets/').set('Authorization', basic('alice')).expect(429);
    });

    it('an anonymous batch of 5 searches under THROTTLE_ANON=3/minute answers 3 and refuses 2; the address is then throttled', async () => {
      // The batch's searches run at once: EXPENSIVE_CONCURRENCY is set past them, so only the rate refuses here.
      const config = { THROTTLE_ANON: '3/minute', EXPENSIVE_CONCURRENCY: '10' };
      const res = await api(config).get(searchBatch(5)).expect(207);
      expect(statusesOf(res.body).sort()).to.deep.equal([200, 200, 200, 429, 429]);
      const next = await api(config).get('/trpc/snippets.list').expect(429);
      expect(next.body.error.data.code).to.equal('TOO_MANY_REQUESTS');
    });

    it('a call that is not batched counts once, not twice (the request is its first call)', async () => {
      const config = { THROTTLE_USER: '2/minute' };
      for (const code of ['a', 'b'])
        await api(config).post('/trpc/snippets.create').set('Authorization', basic('alice')).send({ code }).expect(200);
      await api(config)
        .post('/trpc/snippets.create')
        .set('Authorization', basic('alice'))
        .send({ code: 'c' })
        .expect(429);
      expect(await snippetCount()).to.equal(2);
    });

    it('REST requests still count once each (their procedures are not charged again)', async () => {
      const config = { THROTTLE_USER: '2/minute' };
      await api(config).post('/snippets/').set('Authorization', basic('alice')).send({ code: 'a' }).expect(201);
      await api(config).get('/snippets/').set('Authorization', basic('alice')).expect(200);
      await api(config).get('/snippets/').set('Authorization', basic('alice')).expect(429);
    });
  });
});
