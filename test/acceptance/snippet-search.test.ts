// GET /snippets/ with filters and search (owner, language, created_after/before, search, ordering), on REST and
// /trpc: the same answers on SQLite and, with DATABASE_URL, on MariaDB.
import { TRPCClientError } from '@trpc/client';
import { expect } from 'chai';
import { snippetsClient } from '../../examples/client';
import type { AppRouter } from '../../src/routers';
import { makeUser, resetDatabase } from '../support/db';
import { api, basic, listening, type Listening } from '../support/http';
import { testStore } from '../support/runtime';

interface Listed {
  id: number;
  owner: string;
  title: string;
  code: string;
  language: string;
}

function linkNext(header: string | undefined): string | undefined {
  const m = /<([^>]+)>;\s*rel="next"/.exec(header ?? '');
  return m ? new URL(m[1]!).pathname + new URL(m[1]!).search : undefined;
}

const list = (query: Record<string, string>) => api().get('/snippets/').query(query);
const codesOf = (body: Listed[]) => body.map((s) => s.code);

/** Every page of a list, following Link from `?limit=N&…`. */
async function allPages(query: Record<string, string>, limit: number): Promise<Listed[]> {
  const seen: Listed[] = [];
  let next: string | undefined = `/snippets/?${new URLSearchParams({ ...query, limit: String(limit) })}`;
  while (next) {
    const res = await api().get(next).expect(200);
    seen.push(...(res.body as Listed[]));
    next = linkNext(res.headers.link);
  }
  return seen;
}

describe('GET /snippets/ with filters and search', () => {
  let alice: number;
  let bob: number;
  const base = Date.UTC(2026, 0, 1);

  /** Snippets created a minute apart from 2026-01-01 00:00 UTC, in the order given. */
  async function store(rows: { code: string; title?: string; language?: string; owner?: number }[]): Promise<void> {
    await testStore().models.Snippet.bulkCreate(
      rows.map((r, i) => ({
        code: r.code,
        title: r.title ?? '',
        language: r.language ?? 'python',
        ownerId: r.owner ?? alice,
        created: new Date(base + i * 60_000),
      })),
    );
  }

  beforeEach(async () => {
    await resetDatabase();
    alice = (await makeUser('alice')).id;
    bob = (await makeUser('bob')).id;
  });

  describe('without any new parameter', () => {
    it('answers the whole list, oldest first, as before', async () => {
      await store([{ code: 'a' }, { code: 'b', owner: bob }]);
      const res = await api().get('/snippets/').expect(200);
      expect(codesOf(res.body)).to.deep.equal(['a', 'b']);
      expect(res.headers).not.to.have.property('link');
    });

    it('streams the whole list whatever cursor comes without a limit, as before', async () => {
      await store([{ code: 'a' }, { code: 'b' }]);
      expect(codesOf((await list({ cursor: 'not-a-cursor' }).expect(200)).body)).to.deep.equal(['a', 'b']);
    });

    it('treats empty values as absent (a form left blank)', async () => {
      await store([{ code: 'a' }, { code: 'b', owner: bob }]);
      const res = await list({
        owner: '',
        language: '',
        search: '',
        ordering: '',
        created_after: '',
        created_before: '',
      }).expect(200);
      expect(codesOf(res.body)).to.deep.equal(['a', 'b']);
    });
  });

  describe('?owner=', () => {
    it("answers that user's snippets only", async () => {
      await store([{ code: 'a' }, { code: 'b', owner: bob }, { code: 'c' }]);
      expect(codesOf((await list({ owner: 'alice' }).expect(200)).body)).to.deep.equal(['a', 'c']);
      expect(codesOf((await list({ owner: 'bob' }).expect(200)).body)).to.deep.equal(['b']);
    });

    it('answers an empty list for an unknown user', async () => {
      await store([{ code: 'a' }]);
      expect((await list({ owner: 'nobody' }).expect(200)).body).to.deep.equal([]);
      expect((await list({ owner: 'Alice' }).expect(200)).body).to.deep.equal([]);
    });
  });

  describe('?language=', () => {
    it('answers the snippets in that language', async () => {
      await store([{ code: 'a', language: 'rust' }, { code: 'b' }, { code: 'c', language: 'rust' }]);
      expect(codesOf((await list({ language: 'rust' }).expect(200)).body)).to.deep.equal(['a', 'c']);
    });

    it('responds 400 with a field map for a value that is not a language', async () => {
      const res = await list({ language: 'nope' }).expect(400);
      expect(res.body).to.deep.equal({
        language: ['Select a valid choice. nope is not one of the available choices.'],
      });
    });
  });

  describe('?created_after= and ?created_before=', () => {
    beforeEach(() => store([{ code: 'm0' }, { code: 'm1' }, { code: 'm2' }, { code: 'm3' }]));

    it('answers snippets created at or after, and strictly before, the given instant', async () => {
      expect(codesOf((await list({ created_after: '2026-01-01T00:01:00Z' }).expect(200)).body)).to.deep.equal([
        'm1',
        'm2',
        'm3',
      ]);
      expect(codesOf((await list({ created_before: '2026-01-01T00:02' }).expect(200)).body)).to.deep.equal([
        'm0',
        'm1',
      ]);
      expect(
        codesOf(
          (
            await list({
              created_after: '2026-01-01T01:01:00+01:00',
              created_before: '2026-01-01T00:03:00.000Z',
            }).expect(200)
          ).body,
        ),
      ).to.deep.equal(['m1', 'm2']);
    });

    it('reads a date as midnight UTC', async () => {
      expect(codesOf((await list({ created_after: '2026-01-01' }).expect(200)).body)).to.have.length(4);
      expect((await list({ created_before: '2026-01-01' }).expect(200)).body).to.deep.equal([]);
      expect((await list({ created_after: '2026-01-02' }).expect(200)).body).to.deep.equal([]);
    });

    for (const bad of [
      'yesterday',
      '2026-13-01',
      '2026-02-30',
      '2026-01-01T25:00',
      '20260101',
      '2026-01-01T00:00+24:00',
      '1e9',
    ]) {
      it(`responds 400 with a field map for ${JSON.stringify(bad)}`, async () => {
        expect((await list({ created_after: bad }).expect(400)).body).to.deep.equal({
          created_after: ['Enter a valid date/time.'],
        });
        expect((await list({ created_before: bad }).expect(400)).body).to.deep.equal({
          created_before: ['Enter a valid date/time.'],
        });
      });
    }
  });

  describe('?search=', () => {
    const search = async (text: string) => codesOf((await list({ search: text }).expect(200)).body);

    it('finds a substring of the code or the title, not only words', async () => {
      await store([
        { code: 'def retry_backoff(n):' },
        { code: 'const exponentialBackoff = 2;' },
        { code: 'x', title: 'Backoff notes' },
        { code: 'back off' },
      ]);
      expect(await search('backoff')).to.deep.equal(['def retry_backoff(n):', 'const exponentialBackoff = 2;', 'x']);
      expect(await search('ackof')).to.deep.equal(['def retry_backoff(n):', 'const exponentialBackoff = 2;', 'x']);
    });

    it('ignores case, ASCII and beyond, but not accents', async () => {
      await store([{ code: 'Élan vital' }, { code: 'elan' }, { code: 'ΩMEGA' }, { code: 'Жук' }]);
      expect(await search('éLAN')).to.deep.equal(['Élan vital']);
      expect(await search('ELAN')).to.deep.equal(['elan']);
      expect(await search('ωmega')).to.deep.equal(['ΩMEGA']);
      expect(await search('жУК')).to.deep.equal(['Жук']);
      expect(await search('é')).to.deep.equal(['Élan vital']);
      expect(await search('жу')).to.deep.equal(['Жук']);
    });

    it('requires every term (AND), each in the title or the code', async () => {
      await store([{ code: 'alpha beta' }, { code: 'alpha', title: 'beta' }, { code: 'alpha' }, { code: 'beta' }]);
      expect(await search('alpha beta')).to.deep.equal(['alpha beta', 'alpha']);
      expect(await search('  beta   alpha  ')).to.deep.equal(['alpha beta', 'alpha']);
    });

    it('keeps a double-quoted phrase as one term', async () => {
      await store([{ code: 'hello world' }, { code: 'world hello' }]);
      expect(await search('"hello world"')).to.deep.equal(['hello world']);
      expect(await search('hello world')).to.deep.equal(['hello world', 'world hello']);
      expect(await search('"o w"')).to.deep.equal(['hello world']);
    });

    it('hands the engine the search split once, its terms sorted by what can answer them', async () => {
      await store([{ code: 'hello world' }]);
      const engine = testStore().engine;
      const { search: engineSearch } = engine;
      const asked: unknown[] = [];
      engine.search = (terms) => {
        asked.push(terms);
        return engineSearch.call(engine, terms);
      };
      try {
        expect(await search('ll  "o w" world')).to.deep.equal(['hello world']);
      } finally {
        engine.search = engineSearch;
      }
      expect(asked).to.deep.equal([{ all: ['ll', 'o w', 'world'], long: ['o w', 'world'], short: ['ll'] }]);
    });

    it('finds terms of one and two characters', async () => {
      await store([{ code: 'x = 1' }, { code: 'y = 2' }, { code: 'if a:' }, { code: 'IF' }]);
      expect(await search('1')).to.deep.equal(['x = 1']);
      expect(await search('if')).to.deep.equal(['if a:', 'IF']);
      expect(await search('If =')).to.deep.equal([]);
      expect(await search('y 2')).to.deep.equal(['y = 2']);
    });

    const literal: [string, string, string][] = [
      // [search text, a snippet it must find, one it must not]
      ['"quoted"x', 'say "quoted"x', 'say quotedx'],
      ['"', 'say "hi"', "say 'hi'"],
      ['""', 'x = ""', 'x = "a"'],
      ['a"b', 'x = a"b', 'x = ab'],
      ['*', 'a * b', 'a b'],
      ['ret*', 'ret*urn', 'return'],
      ['-x', 'a -x b', 'a x b'],
      ['-rf', 'rm -rf /', 'rm rf /'],
      ['OR', 'a OR b', 'a b'],
      ['NEAR', 'NEAR(a b)', 'a b'],
      ['NEAR(a', 'NEAR(a b)', 'NEAR a'],
      ['%', '100%', '100'],
      ['50%', 'up 50%', 'up 500'],
      ['_', 'a_b', 'ab'],
      ['a_c', 'a_c', 'abc'],
      ['\\', 'C:\\x', 'C:/x'],
      ['\\n"', 'print("\\n")', 'print("n")'],
      ['😀', 'smile 😀!', 'smile'],
      ['😀😀😀', 'x😀😀😀y', 'x😀😀y'],
      ["'", "it's", 'its'],
      ["'; DROP TABLE snippets; --", "x'; DROP TABLE snippets; --", 'DROP TABLE'],
      ['^col', 'x ^col', 'col'],
      ['{title}:', 'a {title}: b', 'title'],
    ];
    for (const [text, hit, miss] of literal) {
      it(`matches ${JSON.stringify(text)} literally`, async () => {
        await store([{ code: hit }, { code: miss }]);
        expect(await search(text)).to.deep.equal([hit]);
      });
    }

    it('responds 400 with a field map for more than 1000 characters', async () => {
      expect(await search('a'.repeat(1000))).to.deep.equal([]);
      const res = await list({ search: 'a'.repeat(1001) }).expect(400);
      expect(res.body).to.deep.equal({ search: ['Ensure this field has no more than 1000 characters.'] });
    });

    it('responds 400 with a field map for more than 20 terms', async () => {
      await store([{ code: 'abc' }]);
      expect(await search(Array(20).fill('abc').join(' '))).to.deep.equal(['abc']);
      const res = await list({ search: Array(21).fill('abc').join(' ') }).expect(400);
      expect(res.body).to.deep.equal({ search: ['Ensure this field has no more than 20 terms.'] });
    });

    it('pages a term common to thousands of snippets the same way (the index looked up per snippet, not handed over)', async () => {
      // 2,100 matches, one snippet in ten: sparse enough that a page reads several windows of the list.
      const matching = (i: number) => i % 10 === 3 || i % 10 === 6;
      await store(
        Array.from({ length: 10500 }, (_, i) => ({
          code: matching(i) ? `common ${i}` : `x${i}`,
          language: i % 3 ? 'rust' : 'python',
        })),
      );
      const expected = Array.from({ length: 10500 }, (_, i) => i).filter(matching);
      const first = await list({ search: 'COMMON', limit: '3' }).expect(200);
      expect(codesOf(first.body)).to.deep.equal(expected.slice(0, 3).map((i) => `common ${i}`));
      const newest = await list({ search: 'common', ordering: '-created', limit: '70', language: 'rust' }).expect(200);
      const rust = expected
        .filter((i) => i % 3)
        .reverse()
        .map((i) => `common ${i}`);
      expect(codesOf(newest.body)).to.deep.equal(rust.slice(0, 70));
      const next = await api().get(linkNext(newest.headers.link)!).expect(200);
      expect(codesOf(next.body)).to.deep.equal(rust.slice(70, 140));
      expect(codesOf((await list({ search: 'common' }).expect(200)).body)).to.have.length(expected.length);
    });

    it('keeps the index exact through update and delete', async () => {
      await api().post('/snippets/').set('Authorization', basic('alice')).send({ code: 'needle one' }).expect(201);
      const { body: second } = await api()
        .post('/snippets/')
        .set('Authorization', basic('alice'))
        .send({ code: 'needle two' })
        .expect(201);
      expect(await search('needle')).to.deep.equal(['needle one', 'needle two']);
      await api()
        .put(`/snippets/${second.id}/`)
        .set('Authorization', basic('alice'))
        .send({ code: 'haystack', title: 'spool' })
        .expect(200);
      expect(await search('needle')).to.deep.equal(['needle one']);
      expect(await search('haystack')).to.deep.equal(['haystack']);
      expect(await search('spool')).to.deep.equal(['haystack']);
      await api()
        .put(`/snippets/${second.id}/`)
        .set('Authorization', basic('alice'))
        .send({ code: 'haystack', language: 'rust' })
        .expect(200);
      expect(await search('haystack')).to.deep.equal(['haystack']);
      await api().delete(`/snippets/${second.id}/`).set('Authorization', basic('alice')).expect(204);
      expect(await search('haystack')).to.deep.equal([]);
      expect(await search('needle')).to.deep.equal(['needle one']);
    });
  });

  describe('combined', () => {
    it('answers only snippets that pass every filter (AND)', async () => {
      await store([
        { code: 'fn retry()', language: 'rust' },
        { code: 'def retry():', language: 'python' },
        { code: 'fn retry()', language: 'rust', owner: bob },
        { code: 'fn other()', language: 'rust' },
        { code: 'fn retry_later()', language: 'rust' },
      ]);
      const res = await list({
        owner: 'alice',
        language: 'rust',
        search: 'retry fn',
        created_after: '2026-01-01T00:00:30Z',
      }).expect(200);
      expect(codesOf(res.body)).to.deep.equal(['fn retry_later()']);
    });

    it('reports every bad parameter in one field map', async () => {
      const res = await list({ language: 'x', created_after: 'x', ordering: 'title' }).expect(400);
      expect(res.body).to.deep.equal({
        language: ['Select a valid choice. x is not one of the available choices.'],
        created_after: ['Enter a valid date/time.'],
        ordering: ['Select a valid choice. title is not one of the available choices.'],
      });
    });

    it('filters the streamed whole list too', async () => {
      await store(Array.from({ length: 250 }, (_, i) => ({ code: `c${i}`, language: i % 2 ? 'rust' : 'python' })));
      const res = await list({ language: 'rust', ordering: '-created' }).expect(200);
      expect(codesOf(res.body)).to.deep.equal(Array.from({ length: 125 }, (_, i) => `c${249 - 2 * i}`));
    });
  });

  describe('?ordering= with keyset paging', () => {
    beforeEach(() => store(Array.from({ length: 7 }, (_, i) => ({ code: `s${i}` }))));

    it('pages oldest first with ordering=created and newest first with ordering=-created', async () => {
      expect(codesOf(await allPages({ ordering: 'created' }, 3))).to.deep.equal([
        's0',
        's1',
        's2',
        's3',
        's4',
        's5',
        's6',
      ]);
      expect(codesOf(await allPages({ ordering: '-created' }, 3))).to.deep.equal([
        's6',
        's5',
        's4',
        's3',
        's2',
        's1',
        's0',
      ]);
      expect(codesOf(await allPages({ ordering: '-created', search: 's' }, 2))).to.deep.equal([
        's6',
        's5',
        's4',
        's3',
        's2',
        's1',
        's0',
      ]);
    });

    it('responds 400 with a field map for another ordering', async () => {
      expect((await list({ ordering: 'id' }).expect(400)).body).to.deep.equal({
        ordering: ['Select a valid choice. id is not one of the available choices.'],
      });
    });

    it('responds 400 with a field map for a cursor replayed with other filters or another ordering', async () => {
      const filtered = await list({ limit: '2', owner: 'alice' }).expect(200);
      const cursor = new URL(/<([^>]+)>/.exec(filtered.headers.link!)![1]!).searchParams.get('cursor')!;
      const plain = await list({ limit: '2' }).expect(200);
      const plainCursor = new URL(/<([^>]+)>/.exec(plain.headers.link!)![1]!).searchParams.get('cursor')!;
      const wrong = { cursor: ['Invalid cursor: it was made for other filters or another ordering.'] };
      expect((await list({ limit: '2', cursor }).expect(400)).body).to.deep.equal(wrong);
      expect((await list({ limit: '2', cursor, owner: 'bob' }).expect(400)).body).to.deep.equal(wrong);
      expect((await list({ limit: '2', cursor, owner: 'alice', ordering: '-created' }).expect(400)).body).to.deep.equal(
        wrong,
      );
      expect((await list({ limit: '2', cursor: plainCursor, ordering: '-created' }).expect(400)).body).to.deep.equal(
        wrong,
      );
      expect((await list({ limit: '2', cursor: plainCursor, search: 's' }).expect(400)).body).to.deep.equal(wrong);
      // The same filters spelled otherwise are the same list.
      expect(
        codesOf((await list({ limit: '2', cursor, owner: 'alice', ordering: 'created' }).expect(200)).body),
      ).to.deep.equal(['s2', 's3']);
      expect(
        codesOf((await list({ limit: '2', cursor: plainCursor, ordering: 'created', search: '' }).expect(200)).body),
      ).to.deep.equal(['s2', 's3']);
    });

    it('still responds 404 "Invalid cursor" for a cursor it did not make', async () => {
      expect((await list({ limit: '2', cursor: 'nope', search: 's' }).expect(404)).body).to.deep.equal({
        detail: 'Invalid cursor',
      });
    });
  });

  describe('paging a filtered list while snippets are added', () => {
    for (const ordering of ['created', '-created']) {
      it(`visits every matching snippet exactly once (ordering=${ordering})`, async () => {
        await store(
          Array.from({ length: 40 }, (_, i) => ({
            code: i % 2 ? `match ${i}` : `other ${i}`,
            owner: i % 4 === 1 ? bob : alice,
          })),
        );
        const query = { search: 'match', owner: 'alice', ordering, limit: '2' };
        const seen: string[] = [];
        let next: string | undefined = `/snippets/?${new URLSearchParams(query)}`;
        let added = 0;
        while (next) {
          const res = await api().get(next).expect(200);
          seen.push(...codesOf(res.body));
          next = linkNext(res.headers.link);
          if (next && added < 4)
            await api()
              .post('/snippets/')
              .set('Authorization', basic('alice'))
              .send({ code: `match new${added++}` })
              .expect(201);
        }
        const stored = Array.from({ length: 40 }, (_, i) => i)
          .filter((i) => i % 2 && i % 4 !== 1)
          .map((i) => `match ${i}`);
        // Newest first, the snippets added after the first page come before it and are not visited.
        const expected =
          ordering === 'created'
            ? [...stored, ...Array.from({ length: added }, (_, i) => `match new${i}`)]
            : stored.reverse();
        expect(added).to.equal(4);
        expect(seen).to.deep.equal(expected);
      });
    }
  });

  describe('on /trpc with the typed client', () => {
    let served: Listening;
    before(async () => (served = await listening()));
    after(() => served.close());

    it('filters, searches and orders snippets.list, pages bound to the filters', async () => {
      await store([
        { code: 'fn a', language: 'rust' },
        { code: 'fn b', language: 'rust', owner: bob },
        { code: 'fn c', language: 'rust' },
        { code: 'def d' },
      ]);
      const client = snippetsClient(served.base);
      const first = await client.snippets.list.query({
        owner: 'alice',
        language: 'rust',
        search: 'FN',
        ordering: '-created',
        limit: 1,
      });
      expect(first.items.map((s) => s.code)).to.deep.equal(['fn c']);
      const second = await client.snippets.list.query({
        owner: 'alice',
        language: 'rust',
        search: 'FN',
        ordering: '-created',
        limit: 1,
        cursor: first.next,
      });
      expect(second.items.map((s) => s.code)).to.deep.equal(['fn a']);
      expect(second.next).to.equal(undefined);
      const whole = await client.snippets.list.query({ search: 'fn' });
      expect(whole.items.map((s) => s.code)).to.deep.equal(['fn a', 'fn b', 'fn c']);
      const err = await client.snippets.list
        .query({ owner: 'bob', limit: 1, cursor: first.next })
        .catch((e: unknown) => e);
      expect(err).to.be.instanceOf(TRPCClientError);
      expect((err as TRPCClientError<AppRouter>).data?.code).to.equal('BAD_REQUEST');
      const bad = await client.snippets.list.query({ language: 'nope' }).catch((e: unknown) => e);
      expect((bad as TRPCClientError<AppRouter>).data?.code).to.equal('BAD_REQUEST');
    });
  });
});
