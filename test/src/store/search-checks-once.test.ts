// A search page runs its costly checks (a term looked for in each examined row's lowered text) in one statement: the
// page's ids and sizes (and the text of its small rows) are read with the checks, the rows that came without their
// text then by those ids (src/store/snippets/reads.ts snippetsAfter;
// docs/search.md, "One check a row"). The answers stay those of the checks, page after page, on both engines.
import { expect } from 'chai';
import { snippetPage } from '../../../src/store/snippets/reads';
import { selectionOf } from '../../../src/store/snippets/selection';
import { makeUser, resetDatabase } from '../../support/db';
import { api, basic } from '../../support/http';
import { testStore } from '../../support/runtime';

const as = { Authorization: basic('alice') };

describe('a search page checks each row once (both engines)', () => {
  let codes: string[];
  beforeEach(async () => {
    await resetDatabase();
    await makeUser('alice');
    codes = [];
    for (let i = 0; i < 12; i++) {
      // Every third holds both terms; the others one of them or neither.
      const code = i % 3 === 0 ? `def f${i}(self):\n    return self` : i % 3 === 1 ? `return ${i}` : `x = ${i}`;
      await api().post('/snippets/').set(as).send({ code }).expect(201);
      codes.push(code);
    }
  });

  /** The statements that carry the search's checks while `work` runs, and work's answer. */
  async function counting<T>(check: string, work: () => Promise<T>): Promise<{ value: T; checked: number }> {
    const engine = testStore().engine;
    const select = engine.select.bind(engine);
    let checked = 0;
    engine.select = (sql, params, kind, urgent) => {
      if (sql.includes(check)) checked++;
      return select(sql, params, kind, urgent);
    };
    try {
      return { value: await work(), checked };
    } finally {
      engine.select = select;
    }
  }

  it('reads each page with one statement of checks, and pages through the same answers', async () => {
    const store = testStore();
    const selection = await selectionOf(store, { search: 'return self' });
    const check = selection.scan!.check[0]!;
    const expected = codes.filter((c) => c.includes('return self'));
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const { value, checked } = await counting(check, () => snippetPage(store, 2, cursor, selection));
      expect(checked, `statements with the checks on page ${pages + 1}`).to.equal(1);
      seen.push(...value.items.map((s) => s.code));
      cursor = value.next;
      pages++;
    } while (cursor && pages < 10);
    expect(seen).to.deep.equal(expected);
    expect(pages).to.equal(2);
  });

  it('reads rows too large for the first statement by their ids: still one statement of checks', async () => {
    // With limit 20 a row comes with the first statement only up to PAGE_BYTES / 21 (about 50 kB): these do not.
    const large = (i: number) => `# ${i} ${i % 2 ? 'return self' : 'return other'}\n` + 'x'.repeat(99_000);
    const big: string[] = [];
    for (let i = 0; i < 4; i++) {
      await api()
        .post('/snippets/')
        .set(as)
        .send({ code: large(i) })
        .expect(201);
      big.push(large(i));
    }
    const store = testStore();
    const selection = await selectionOf(store, { search: 'return self' });
    const { value, checked } = await counting(selection.scan!.check[0]!, () =>
      snippetPage(store, 20, undefined, selection),
    );
    expect(checked).to.equal(1);
    expect(value.items.map((s) => s.code)).to.deep.equal([...codes, ...big].filter((c) => c.includes('return self')));
  });

  it('answers newest first the same way', async () => {
    const store = testStore();
    const selection = await selectionOf(store, { search: 'return self', ordering: '-created' });
    const { value, checked } = await counting(selection.scan!.check[0]!, () =>
      snippetPage(store, 100, undefined, selection),
    );
    expect(checked).to.equal(1);
    expect(value.items.map((s) => s.code)).to.deep.equal(codes.filter((c) => c.includes('return self')).reverse());
    expect(value.next).to.equal(undefined);
  });
});
