// Every list answer is bounded: /trpc lists without a limit answer their first page, and a page stops at a budget of
// bytes whatever its limit, while the REST lists asked for whole still stream every row (docs/api.md "Lists and pages").
import { expect } from 'chai';
import { makeUser, resetDatabase } from '../support/db';
import { api, basic } from '../support/http';
import { testStore } from '../support/runtime';
import type { Store } from '../../src/store/database';
import { DEFAULT_PAGE, PAGE_BYTES, PAGE_IDS } from '../../src/store/page-budget';

function linkNext(header: string | undefined): string | undefined {
  const m = /<([^>]+)>;\s*rel="next"/.exec(header ?? '');
  return m ? new URL(m[1]!).pathname + new URL(m[1]!).search : undefined;
}

const trpcQuery = (procedure: string, input?: unknown) =>
  `/trpc/${procedure}${input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`}`;

/**
 * Runs `work` with the SQL and the rows of every SELECT the service ran handed to `seen`, taken where the store hands
 * them to its engine (src/store/select.ts), the same on both engines.
 */
async function tapped(store: Store, seen: (sql: string, rows: unknown) => void, work: () => Promise<unknown>) {
  const engine = store.engine as { select?: (sql: string, ...rest: unknown[]) => Promise<unknown> };
  const select = engine.select!;
  engine.select = async function (this: unknown, sql: string, ...rest: unknown[]) {
    const rows = await select.call(this, sql, ...rest);
    seen(sql, rows);
    return rows;
  };
  try {
    await work();
  } finally {
    delete engine.select;
  }
}

/** The characters of text the service read from the database while `work` ran, counted at its engine (tapped). */
async function charsRead(store: Store, work: () => Promise<unknown>): Promise<number> {
  let chars = 0;
  const count = (_sql: string, rows: unknown) => {
    if (Array.isArray(rows))
      for (const row of rows)
        for (const v of Object.values(row as object)) if (typeof v === 'string') chars += v.length;
  };
  await tapped(store, count, work);
  return chars;
}

/** The statements on the snippets table the service ran while `work` ran, counted at its engine (tapped). */
async function snippetStatements(store: Store, work: () => Promise<unknown>): Promise<number> {
  let statements = 0;
  await tapped(store, (sql) => void (/\bFROM snippets\b/.test(sql) && statements++), work);
  return statements;
}

describe('bounded lists', () => {
  let ownerId: number;
  beforeEach(async () => {
    await resetDatabase();
    ownerId = (await makeUser('alice')).id;
  });

  /** `n` snippets of `size` characters of code, oldest first, titled t0, t1, … */
  async function manySnippets(n: number, size: number): Promise<void> {
    const base = Date.now() - 3600_000;
    const code = 'x'.repeat(size);
    // In chunks: one INSERT of everything would exceed MariaDB's max_allowed_packet.
    const chunk = Math.max(1, Math.floor(4_000_000 / (size + 100)));
    for (let from = 0; from < n; from += chunk) {
      const rows = Array.from({ length: Math.min(chunk, n - from) }, (_, i) => ({
        code,
        title: `t${from + i}`,
        ownerId,
        created: new Date(base + from + i),
      }));
      await testStore().models.Snippet.bulkCreate(rows);
    }
  }

  describe('/trpc snippets.list over 10,000 snippets', () => {
    it('without a limit answers the first page of DEFAULT_PAGE snippets and a cursor, reading a page of rows, not the list', async function () {
      this.timeout(600_000);
      const size = 1000;
      await manySnippets(10_000, size);
      let res: { body: { result: { data: { items: { title: string }[]; next?: string } } } } | undefined;
      const read = await charsRead(
        testStore(),
        async () => (res = await api().get(trpcQuery('snippets.list')).expect(200)),
      );
      const page = res!.body.result.data;
      expect(page.items).to.have.length(DEFAULT_PAGE);
      expect(page.items.map((s) => s.title)).to.deep.equal(Array.from({ length: DEFAULT_PAGE }, (_, i) => `t${i}`));
      expect(page.next).to.be.a('string');
      // The whole list is 10,000,000 characters of code; a page and its lookahead row are about 101,000.
      expect(read).to.be.below(3 * (DEFAULT_PAGE + 1) * (size + 100));
      // The cursor goes on where the page stopped.
      const second = (
        await api()
          .get(trpcQuery('snippets.list', { limit: 2, cursor: page.next }))
          .expect(200)
      ).body.result.data;
      expect(second.items.map((s: { title: string }) => s.title)).to.deep.equal([
        `t${DEFAULT_PAGE}`,
        `t${DEFAULT_PAGE + 1}`,
      ]);
    });
  });

  describe('a page of small snippets', () => {
    it('is read in one statement, each snippet whole, with a cursor to the rest (GET /snippets/?limit=N)', async () => {
      await manySnippets(5, 50);
      let res: { body: { title: string; code: string }[]; headers: Record<string, string> } | undefined;
      const statements = await snippetStatements(
        testStore(),
        async () => (res = await api().get('/snippets/?limit=3').expect(200)),
      );
      expect(statements).to.equal(1);
      expect(res!.body.map((s) => [s.title, s.code])).to.deep.equal(
        ['t0', 't1', 't2'].map((title) => [title, 'x'.repeat(50)]),
      );
      const rest = await api().get(linkNext(res!.headers.link)!).expect(200);
      expect(rest.body.map((s: { title: string }) => s.title)).to.deep.equal(['t3', 't4']);
    });
  });

  describe('a page of large snippets', () => {
    const size = 100_000;
    const count = 30;
    beforeEach(async () => manySnippets(count, size));

    it('/trpc snippets.list with limit 1000 stops at PAGE_BYTES (one snippet past it at most), with a cursor to the rest', async () => {
      let body = '';
      const read = await charsRead(
        testStore(),
        async () =>
          (body = (
            await api()
              .get(trpcQuery('snippets.list', { limit: 1000 }))
              .expect(200)
          ).text),
      );
      const page = JSON.parse(body).result.data as { items: unknown[]; next?: string };
      expect(page.items.length).to.be.within(1, Math.floor(PAGE_BYTES / size));
      expect(page.next).to.be.a('string');
      expect(body.length).to.be.below(PAGE_BYTES + size + 10_000);
      // What was read from the database is bounded by the page too, not by the 3,000,000 characters of the list.
      expect(read).to.be.below(PAGE_BYTES + size + 50_000);
    });

    it('GET /snippets/?limit=1000 answers a bounded page with a Link to the rest, and the Links visit every snippet once', async () => {
      const titles: string[] = [];
      let next: string | undefined = '/snippets/?limit=1000';
      while (next) {
        const res = await api().get(next).expect(200);
        expect(res.text.length).to.be.below(PAGE_BYTES + size + 10_000);
        titles.push(...res.body.map((s: { title: string }) => s.title));
        next = linkNext(res.headers.link);
      }
      expect(titles).to.deep.equal(Array.from({ length: count }, (_, i) => `t${i}`));
    });

    it("the browsable list's Previous cursor names a page of the same bound (snippets.previousPage)", async () => {
      const list = async (cursor?: string) =>
        (
          await api()
            .get(trpcQuery('snippets.list', { limit: 1000, cursor }))
            .expect(200)
        ).body.result.data as { items: { title: string }[]; next?: string };
      const previous = async (cursor: string) =>
        (
          await api()
            .get(trpcQuery('snippets.previousPage', { limit: 1000, cursor }))
            .expect(200)
        ).body.result.data as { cursor?: string } | null;
      const first = await list();
      const second = await list(first.next);
      const back = await previous(second.next!);
      expect(back).to.deep.equal({ cursor: first.next });
      expect(await previous(first.next!)).to.deep.equal({});
    });

    it('GET /snippets/ without a limit is still the whole array, streamed', async () => {
      const res = await api().get('/snippets/').expect(200);
      expect(res.body.map((s: { title: string }) => s.title)).to.deep.equal(
        Array.from({ length: count }, (_, i) => `t${i}`),
      );
    });
  });

  describe('revisions', () => {
    const size = 100_000;
    const count = 30;
    let id: number;
    beforeEach(async () => {
      id = (await api().post('/snippets/').set('Authorization', basic('alice')).send({ code: 'first' }).expect(201))
        .body.id;
      const code = 'y'.repeat(size);
      for (let n = 2; n <= count; n++) {
        await testStore().sequelize.query(
          'INSERT INTO snippet_revisions (snippet_id, n, saved, title, code, linenos, language, style) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
          {
            replacements: [id, n, new Date(), `r${n}`, code, false, 'python', 'friendly'],
          },
        );
      }
    });

    it('/trpc snippets.revisions without a limit answers a bounded first page, newest first, with a cursor', async () => {
      const res = await api().get(trpcQuery('snippets.revisions', { id })).expect(200);
      const page = res.body.result.data as { items: { revision: number }[]; next?: string };
      expect(page.items.length).to.be.within(1, Math.min(DEFAULT_PAGE, Math.floor(PAGE_BYTES / size)));
      expect(page.items[0]!.revision).to.equal(count);
      expect(page.next).to.be.a('string');
      expect(res.text.length).to.be.below(PAGE_BYTES + size + 10_000);
    });

    it('GET …/revisions/?limit=1000 answers a bounded page; its Links visit every revision once, and the whole list still streams', async () => {
      const seen: number[] = [];
      let next: string | undefined = `/snippets/${id}/revisions/?limit=1000`;
      let read = 0;
      while (next) {
        const url: string = next;
        let res: { text: string; body: { revision: number }[]; headers: Record<string, string> } | undefined;
        read = Math.max(read, await charsRead(testStore(), async () => (res = await api().get(url).expect(200))));
        expect(res!.text.length).to.be.below(PAGE_BYTES + size + 10_000);
        seen.push(...res!.body.map((r) => r.revision));
        next = linkNext(res!.headers.link);
      }
      expect(seen).to.deep.equal(Array.from({ length: count }, (_, i) => count - i));
      expect(read, 'characters read for one page').to.be.below(PAGE_BYTES + size + 50_000);
      const whole = await api().get(`/snippets/${id}/revisions/`).expect(200);
      expect(whole.body.map((r: { revision: number }) => r.revision)).to.deep.equal(seen);
    });
  });
  describe('users', () => {
    /** `n` users made straight in the table (a password hash costs 100 ms), named u0, u1, … */
    async function manyUsers(n: number): Promise<number[]> {
      await testStore().models.User.bulkCreate(
        Array.from({ length: n }, (_, i) => ({ username: `u${i}`, password: '!', email: '' })),
      );
      const rows = await testStore().models.User.findAll({ attributes: ['id'], order: [['id', 'ASC']] });
      return rows.map((u) => u.id).filter((id) => id !== ownerId);
    }

    it('/trpc users.list without a limit answers the first page of DEFAULT_PAGE users and a cursor to the rest', async () => {
      const ids = await manyUsers(DEFAULT_PAGE + 50);
      const first = (await api().get(trpcQuery('users.list')).expect(200)).body.result.data as {
        items: { id: number }[];
        next?: string;
      };
      expect(first.items).to.have.length(DEFAULT_PAGE);
      const second = (
        await api()
          .get(trpcQuery('users.list', { cursor: first.next }))
          .expect(200)
      ).body.result.data as { items: { id: number }[]; next?: string };
      expect(second.next).to.equal(undefined);
      expect([...first.items, ...second.items].map((u) => u.id)).to.deep.equal([ownerId, ...ids]);
    });

    it('GET /users/?limit=N pages the list by id with Link; a cursor that is not one of ours is 404 "Invalid cursor"', async () => {
      const ids = await manyUsers(3);
      const first = await api().get('/users/?limit=2').expect(200);
      expect(first.body.map((u: { id: number }) => u.id)).to.deep.equal([ownerId, ids[0]]);
      const rest = await api().get(linkNext(first.headers.link)!).expect(200);
      expect(rest.body.map((u: { id: number }) => u.id)).to.deep.equal(ids.slice(1));
      expect(rest.headers).not.to.have.property('link');
      expect((await api().get('/users/?limit=2&cursor=abc').expect(404)).body).to.deep.equal({
        detail: 'Invalid cursor',
      });
    });

    it("a page of users stops once their snippets' ids reach PAGE_IDS; GET /users/ is still every user with every id, streamed", async function () {
      this.timeout(600_000);
      const bob = (await makeUser('bob')).id;
      // alice owns PAGE_IDS snippets: her record alone fills a page, and bob's one snippet is past it.
      const base = Date.now() - 3600_000;
      for (let from = 0; from < PAGE_IDS; from += 5000) {
        await testStore().models.Snippet.bulkCreate(
          Array.from({ length: 5000 }, (_, i) => ({ code: 'x', ownerId, created: new Date(base + from + i) })),
        );
      }
      await testStore().models.Snippet.bulkCreate([{ code: 'y', ownerId: bob }]);
      const page = (
        await api()
          .get(trpcQuery('users.list', { limit: 10 }))
          .expect(200)
      ).body.result.data as { items: { id: number; snippets: number[] }[]; next?: string };
      expect(page.items.map((u) => u.id)).to.deep.equal([ownerId]);
      expect(page.items[0]!.snippets).to.have.length(PAGE_IDS);
      expect(page.next).to.be.a('string');
      const whole = await api().get('/users/').expect(200);
      expect(whole.body.map((u: { id: number; snippets: number[] }) => [u.id, u.snippets.length])).to.deep.equal([
        [ownerId, PAGE_IDS],
        [bob, 1],
      ]);
    });
  });
});
