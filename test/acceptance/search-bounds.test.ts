// Every search page does a bounded amount of work (issue 28): it examines at most SEARCH_SCAN_ROWS snippets of those
// its other filters leave and hands the rest to its cursor, the pages together still answering exactly; a long
// phrase is asked of SQLite's index by a few pieces and checked whole. On SQLite and, with DATABASE_URL, MariaDB.
import { expect } from 'chai';
import { makeUser, resetDatabase } from '../support/db';
import { api } from '../support/http';
import { testStore } from '../support/runtime';
import { isSqlite } from '../support/engine';
import { trigramQuery } from '../../src/store/sqlite/long-terms';

interface Listed {
  id: number;
  code: string;
}

const SCAN = 10;
const bounded = () => api({ SEARCH_SCAN_ROWS: String(SCAN) });

const linkNext = (header: string | undefined) => {
  const m = /<([^>]+)>;\s*rel="next"/.exec(header ?? '');
  return m ? new URL(m[1]!).pathname + new URL(m[1]!).search : undefined;
};
const cursorId = (path: string) =>
  (
    JSON.parse(Buffer.from(new URL(path, 'http://x').searchParams.get('cursor')!, 'base64url').toString()) as unknown[]
  )[1];

/** Every page of a list from `?limit=N&…`, each page's items and the id its cursor points at. */
async function pages(query: Record<string, string>): Promise<{ items: Listed[]; next?: number; cursor?: string }[]> {
  const out: { items: Listed[]; next?: number; cursor?: string }[] = [];
  let next: string | undefined = `/snippets/?${new URLSearchParams(query)}`;
  while (next) {
    const res = await bounded().get(next).expect(200);
    next = linkNext(res.headers.link);
    const cursor = next && new URL(next, 'http://x').searchParams.get('cursor')!;
    out.push({ items: res.body as Listed[], next: cursor ? (cursorId(next!) as number) : undefined, cursor });
  }
  return out;
}

describe('bounded search pages (SEARCH_SCAN_ROWS)', function () {
  this.timeout(120_000);
  let alice: number;
  let bob: number;
  const base = Date.UTC(2026, 0, 1);
  /** The snippets stored, in list order, with their ids. */
  let stored: { id: number; code: string; owner: number; language: string }[];

  /** 120 snippets a minute apart: `xy` in a few of them, clustered so that some windows hold none. */
  beforeEach(async () => {
    await resetDatabase();
    alice = (await makeUser('alice')).id;
    bob = (await makeUser('bob')).id;
    const has = (i: number) => (i < 30 && i % 4 === 1) || i === 77 || (i > 100 && i % 3 === 0);
    const rows = Array.from({ length: 120 }, (_, i) => ({
      code: has(i) ? `${i} X${i % 2 ? 'Y' : 'y'} found` : `${i} x y`,
      title: '',
      language: i % 2 ? 'rust' : 'python',
      ownerId: i % 5 === 0 ? bob : alice,
      created: new Date(base + i * 60_000),
    }));
    await testStore().models.Snippet.bulkCreate(rows);
    const ids = (await api().get('/snippets/').expect(200)).body as Listed[];
    stored = ids.map((s, i) => ({ id: s.id, code: s.code, owner: rows[i]!.ownerId, language: rows[i]!.language }));
  });

  for (const [label, query, keep] of [
    ['a two-character term', {}, () => true],
    ['with owner', { owner: 'alice' }, (s: { owner: number }) => s.owner === alice],
    [
      'with language, newest first',
      { language: 'rust', ordering: '-created' },
      (s: { language: string }) => s.language === 'rust',
    ],
  ] as const) {
    it(`answers ${label} exactly across pages, each page examining at most ${SCAN} snippets`, async () => {
      const list = stored.filter((s) => (keep as (s: unknown) => boolean)(s));
      if ((query as { ordering?: string }).ordering) list.reverse();
      const expected = list.filter((s) => s.code.toLowerCase().includes('xy')).map((s) => s.code);
      const got = await pages({ ...query, search: 'xy', limit: '4' });
      expect(got.flatMap((p) => p.items.map((s) => s.code))).to.deep.equal(expected);
      // Each page starts after its cursor and ends at the next: no more than SCAN snippets of the filtered list apart.
      let from = -1;
      for (const page of got) {
        const to = page.next === undefined ? list.length - 1 : list.findIndex((s) => s.id === page.next);
        expect(to - from).to.be.at.most(SCAN);
        from = to;
      }
      // Pages cut short by their window: fewer rows than the limit (none at all, past the 30th) and still a next page.
      expect(got.some((p) => p.next !== undefined && p.items.length === 0)).to.equal(true);
    });
  }

  it('pages a term of three characters or more the same way, and the whole list without a limit', async () => {
    const expected = stored.filter((s) => s.code.includes('found')).map((s) => s.code);
    const got = await pages({ search: 'FOUND', limit: '5' });
    expect(got.flatMap((p) => p.items.map((s) => s.code))).to.deep.equal(expected);
    const whole = await bounded().get('/snippets/').query({ search: 'xy' }).expect(200);
    expect((whole.body as Listed[]).map((s) => s.code)).to.deep.equal(
      stored.filter((s) => s.code.toLowerCase().includes('xy')).map((s) => s.code),
    );
  });

  it("gives the browsable list's Previous a cursor at most one window back", async () => {
    const got = await pages({ search: 'xy', limit: '4' });
    const at = (id: number) => stored.findIndex((s) => s.id === id);
    for (const page of got.slice(0, -1)) {
      const input = encodeURIComponent(JSON.stringify({ search: 'xy', limit: 4, cursor: page.cursor }));
      const previous = (await bounded().get(`/trpc/snippets.previousPage?input=${input}`).expect(200)).body.result
        .data as { cursor?: string };
      const back = previous.cursor === undefined ? -1 : at(cursorId(`/?cursor=${previous.cursor}`) as number);
      expect(back).to.be.below(at(page.next!));
      expect(at(page.next!) - back).to.be.at.most(SCAN + 1);
    }
  });
});

describe('long search terms', () => {
  beforeEach(async () => {
    await resetDatabase();
    await makeUser('alice');
  });

  const search = async (text: string) =>
    ((await api().get('/snippets/').query({ search: text }).expect(200)).body as Listed[]).map((s) => s.code);

  async function store(codes: string[]): Promise<void> {
    const owner = (await testStore().models.User.findOne({ where: { username: 'alice' } }))!.get('id') as number;
    await testStore().models.Snippet.bulkCreate(
      codes.map((code, i) => ({ code, title: '', language: 'python', ownerId: owner, created: new Date(1e12 + i) })),
    );
  }

  it('asks the index for the likely rarest 4 of the distinct trigrams of a term, rarest first', () => {
    expect(trigramQuery('ret'.repeat(333))).to.equal('"ret" AND "etr" AND "tre"');
    // `z`, `q` and `k` are rare in code, `_`, `m` and `a` less so (src/store/search.ts FREQUENT).
    expect(trigramQuery('zq_rare_marker')).to.equal('"zq_" AND "q_r" AND "ark" AND "_ma"');
    expect(trigramQuery('Return RET')).to.equal('"urn" AND "tur" AND "etu" AND "Ret"');
    expect(trigramQuery('a"b')).to.equal('"a""b"');
    expect(trigramQuery('abcdefghijklmnopqrstuvwxyz').split(' AND ')).to.have.length(4);
  });

  it('finds a term exactly though the index is asked for its rarest trigrams alone', async () => {
    // The term's 4 rarest trigrams (zq_, q_r, ark, _ma) all in each decoy, and most of its others too, but never the
    // whole term: only the checks tell them from its matches.
    const term = 'zq_rare_marker';
    const decoys = [
      'zq_r ark _ma rare_ marker',
      'zq_rare_ma marker',
      'zq_rare_mARK _marker',
      'zq_rare_marke zq_rare_ma rker',
      'zq_re_marker q_rare_marker',
    ];
    expect(trigramQuery(term)).to.equal('"zq_" AND "q_r" AND "ark" AND "_ma"');
    const matches = ['x ZQ_RARE_MARKER y', 'zq_rare_marker', 'a.zq_rare_markers'];
    await store([...decoys, matches[0]!, ...decoys.map((d) => d.toUpperCase()), matches[1]!, matches[2]!]);
    expect(await search(term)).to.deep.equal(matches);
    expect(await search(`"${term}"`)).to.deep.equal(matches);
    expect(await search('zq_rare_marker x')).to.deep.equal([matches[0]]);
  });

  it('finds a long repetitive phrase exactly, ignoring case, and not a shorter run of it', async () => {
    const long = 'ret'.repeat(300);
    await store([`a ${long.toUpperCase()} b`, `x ${'ret'.repeat(299)} y`, `${long}`, 'return']);
    expect(await search(long)).to.deep.equal([`a ${long.toUpperCase()} b`, long]);
    expect(await search(`"${long.slice(0, 40)} "`)).to.deep.equal([]);
  });

  it('checks a long term whole, its GLOB and LIKE characters and other scripts literal, between the pieces asked of the index', async () => {
    // 80 characters: the index is asked for 4 of its trigrams (the likely rarest); the special characters are checked whole.
    const term = `${'Жук'.repeat(5)}Ж x*?[a]^%_\\ ${'q'.repeat(4)}${'ЖУК-'.repeat(4)}${'w'.repeat(16)}${'Ω'.repeat(16)}`;
    expect([...term]).to.have.length(80);
    const found = `< ${term.toLowerCase()} >`;
    await store([
      found,
      term.replace('*', 'x'),
      term.replace('[a]', 'a'),
      term.replace('%', 'x'),
      term.replace('\\', '/'),
    ]);
    expect(await search(`"${term}"`)).to.deep.equal([found]);
  });
});

describe('two terms of thousands of matches each', function () {
  this.timeout(120_000);
  const list = async (search: string) => {
    const seen: string[] = [];
    let next: string | undefined = `/snippets/?${new URLSearchParams({ search, limit: '2' })}`;
    while (next) {
      const res = await api().get(next).expect(200);
      seen.push(...(res.body as Listed[]).map((s) => s.code));
      const m = /<([^>]+)>;\s*rel="next"/.exec(res.headers.link ?? '');
      next = m ? new URL(m[1]!).pathname + new URL(m[1]!).search : undefined;
    }
    return seen;
  };

  before(async () => {
    await resetDatabase();
    const owner = (await makeUser('alice')).id;
    // alpha in the even snippets, beta in the odd ones (2,150 each: past the 2,000 the index hands over as ids), both
    // in every thousandth; zeta beside alpha in three.
    const code = (i: number) =>
      `${i % 2 === 0 || i % 1000 === 1 ? 'alpha ' : ''}${i % 2 === 1 ? 'beta ' : ''}${i % 1500 === 4 ? 'zeta ' : ''}${i}`;
    await testStore().models.Snippet.bulkCreate(
      Array.from({ length: 4300 }, (_, i) => ({
        code: code(i),
        title: '',
        language: 'python',
        ownerId: owner,
        created: new Date(Date.UTC(2026, 0, 1) + i * 1000),
      })),
    );
  });

  it('finds where two common terms meet, and a rare one beside a common one, exactly', async () => {
    expect(await list('beta alpha')).to.deep.equal([1, 1001, 2001, 3001, 4001].map((i) => `alpha beta ${i}`));
    expect(await list('ALPHA zeta')).to.deep.equal(['alpha zeta 4', 'alpha zeta 1504', 'alpha zeta 3004']);
    expect(await list('zeta beta')).to.deep.equal([]);
  });

  it('checks a short term beside two common ones', async () => {
    expect(await list('beta 01 alpha')).to.deep.equal([1001, 2001, 3001, 4001].map((i) => `alpha beta ${i}`));
  });

  /** The statements the store's engine is given while `run` runs (SQLite's: MariaDB walks no index). */
  async function statementsOf(run: () => Promise<unknown>): Promise<string[]> {
    const engine = testStore().engine;
    const select = engine.select.bind(engine);
    const seen: string[] = [];
    engine.select = (sql, params, kind, urgent) => {
      seen.push(sql);
      return select(sql, params, kind, urgent);
    };
    try {
      await run();
    } finally {
      engine.select = select;
    }
    return seen;
  }

  it("asks the index for a common term's count once, not for every page (SQLite: MariaDB walks no index)", async function () {
    if (!isSqlite(testStore())) this.skip();
    // Five matches, pages of two: three pages, each walking the two common terms' windows.
    const seen = await statementsOf(async () => expect(await list('beta alpha')).to.have.length(5));
    expect(seen.filter((sql) => sql.includes('count(*) AS n'))).to.have.length.at.most(1);
  });

  it("reads a page's rows by the ids its walk checked, with no check again (SQLite: MariaDB walks no index)", async function () {
    if (!isSqlite(testStore())) this.skip();
    const seen = await statementsOf(async () => expect(await list('beta alpha')).to.have.length(5));
    const read = seen.filter((sql) => sql.includes('s.title AS title'));
    expect(read).to.have.length.greaterThan(2);
    for (const sql of read) expect(sql).to.not.match(/instr|GLOB/);
  });
});
