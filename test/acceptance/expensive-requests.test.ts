// Diffs and searches are expensive requests: diffs run on workers of their own, a small change in a quick lane, and a
// client has at most EXPENSIVE_CONCURRENCY of them in flight (docs/configuration.md, "Diffs and searches").
import { expect } from 'chai';
import supertest from 'supertest';
import { createApp } from '../../server/app';
import { Differ } from '../../src/highlight';
import { makeUser, resetDatabase } from '../support/db';
import { api, basic } from '../support/http';
import { noting } from '../support/log';
import { runtimeWith } from '../support/runtime';

const as = (user: string) => ({ Authorization: basic(user) });
const from = (address: string) => ({ 'X-Forwarded-For': address });
const THROTTLED = { detail: 'Request was throttled. Expected available in 1 seconds.', wait: 1 };

/** Resolves once `ready()` holds, looking again after each turn of the event loop's I/O. */
async function until(ready: () => boolean): Promise<void> {
  while (!ready()) await new Promise((r) => setTimeout(r, 5));
}

/** A snippet by alice with revision 1 `before` and revision 2 `after`. */
async function snippetWith(before: string, after: string): Promise<number> {
  const id = (await api().post('/snippets/').set(as('alice')).send({ code: before }).expect(201)).body.id as number;
  await api().put(`/snippets/${id}/`).set(as('alice')).send({ code: after }).expect(200);
  return id;
}

describe('expensive requests (diffs, searches)', function () {
  this.timeout(120_000);
  let huge: number;
  let oneLine: number;
  const lines = Array.from({ length: 10_000 }, (_, i) => `line ${i}`);
  const changed = lines.map((l, i) => (i === 5000 ? 'changed' : l));

  beforeEach(async () => {
    await resetDatabase();
    await makeUser('alice');
    // Two 50,000-line codes with no line in common: jsdiff's Myers diff of them is quadratic, minutes without a bound.
    huge = await snippetWith('a\n'.repeat(50_000), 'b\n'.repeat(50_000));
    oneLine = await snippetWith(`${lines.join('\n')}\n`, `${changed.join('\n')}\n`);
  });

  describe('while two anonymous attackers each hold two diffs of two long, unlike codes in the pool', () => {
    // A differ whose long diffs run until it is closed: the attackers' diffs are running for as long as the test needs.
    let differ: Differ;
    let client: ReturnType<typeof supertest>;
    let attacks: Promise<supertest.Response>[];

    beforeEach(async () => {
      differ = new Differ({ workers: 1, timeoutMs: 600_000, maxChangedLines: 0 });
      client = supertest(
        noting(createApp({ ...runtimeWith({ TRUST_PROXY: '1', EXPENSIVE_CONCURRENCY: '2' }), differ })),
      );
      attacks = ['203.0.113.1', '203.0.113.1', '203.0.113.2', '203.0.113.2'].map((a) =>
        client
          .get(`/snippets/${huge}/revisions/2/diff/`)
          .set(from(a))
          .then((r) => r),
      );
      // All four counted and in the pool (one running, three waiting for its worker).
      await until(() => differ.load.pool === 4);
    });

    afterEach(async () => {
      await differ.close();
      // A closed differ answers its diffs null: 422, for those four only.
      for (const res of await Promise.all(attacks)) expect(res.status).to.equal(422);
    });

    it("another client's diff of a one-line change answers 200, and a save is highlighted in time", async () => {
      const res = await client.get(`/snippets/${oneLine}/revisions/2/diff/`).set(from('198.51.100.7')).expect(200);
      expect(res.text).to.include('@@ -4997,9 +4997,9 @@').and.include('-line 5000\n+changed\n');
      expect(differ.load.pool).to.equal(4);
      const saved = await client
        .post('/snippets/')
        .set(as('alice'))
        .send({ code: 'def f():\n    return 1\n', language: 'python' })
        .expect(201);
      expect((await client.get(`/snippets/${saved.body.id}/highlight/`).expect(200)).text).to.include(
        '<span class="hljs-keyword">def</span>',
      );
    });

    it("an attacker's third expensive request answers 429 with Retry-After, on REST and /trpc; another client's answers 200", async () => {
      const search = await client.get('/snippets/?search=line&limit=5').set(from('203.0.113.1')).expect(429);
      expect(search.headers['retry-after']).to.equal('1');
      expect(search.body).to.deep.equal(THROTTLED);
      const diff = await client.get(`/snippets/${oneLine}/revisions/2/diff/`).set(from('203.0.113.2')).expect(429);
      expect(diff.headers['retry-after']).to.equal('1');
      const input = encodeURIComponent(JSON.stringify({ search: 'line', limit: 5 }));
      const trpc = await client.get(`/trpc/snippets.list?input=${input}`).set(from('203.0.113.2')).expect(429);
      expect(trpc.headers['retry-after']).to.equal('1');
      expect(trpc.body.error.data).to.include({ code: 'TOO_MANY_REQUESTS', httpStatus: 429 });
      // Not expensive: a list without a search, a detail read.
      await client.get('/snippets/?limit=5').set(from('203.0.113.1')).expect(200);
      await client.get(`/snippets/${oneLine}/`).set(from('203.0.113.1')).expect(200);
      // Another client, anonymous or signed in, is counted apart.
      await client.get('/snippets/?search=line&limit=5').set(from('198.51.100.7')).expect(200);
      await client.get(`/snippets/${oneLine}/revisions/2/diff/`).set(as('alice')).set(from('203.0.113.1')).expect(200);
    });

    it("an attacker's revisions page comes at once without its line counts, adding no diff; another client's has them", async () => {
      const page = (address: string) =>
        client.get(`/snippets/${oneLine}/revisions/`).set('Accept', 'text/html').set(from(address)).expect(200);
      const attacker = await page('203.0.113.1');
      expect(attacker.text).to.include('id="revision-2"').and.not.include('class="changes"');
      expect(differ.load.pool).to.equal(4);
      const other = await page('198.51.100.7');
      expect(other.text)
        .to.include('<span class="changes">+1 −1</span>')
        .and.include('<span class="changes">+10000 −0</span>');
      expect(differ.load.pool).to.equal(4);
    });

    it("a refused request takes no slot, and the attacker's slots free when its diffs end", async () => {
      for (let i = 0; i < 3; i++)
        await client.get('/snippets/?search=line&limit=5').set(from('203.0.113.1')).expect(429);
      await differ.close();
      for (const res of await Promise.all(attacks)) expect(res.status).to.equal(422);
      await Promise.all(
        [1, 2].map(() => client.get('/snippets/?search=line&limit=5').set(from('203.0.113.1')).expect(200)),
      );
    });
  });

  describe('DIFF_MAX_CHANGED_LINES', () => {
    it('a diff that changes more lines than the bound answers 422 at once, long before its deadline; a smaller one 200', async () => {
      const differ = new Differ({ workers: 1, timeoutMs: 600_000, maxChangedLines: 150 });
      const client = supertest(noting(createApp({ ...runtimeWith(), differ })));
      try {
        // 101 lines removed and 101 added: past the quick lane's 100, within a bound of 150 only if counted apart.
        const wide = await snippetWith('a\n'.repeat(101), 'b\n'.repeat(101));
        const res = await client.get(`/snippets/${wide}/revisions/2/diff/`).expect(422);
        expect(res.body.detail).to.match(/^These revisions differ too much/);
        const narrow = await snippetWith('a\n'.repeat(60), 'b\n'.repeat(60));
        expect((await client.get(`/snippets/${narrow}/revisions/2/diff/`).expect(200)).text).to.include(
          '@@ -1,60 +1,60 @@',
        );
      } finally {
        await differ.close();
      }
    });
  });
});
