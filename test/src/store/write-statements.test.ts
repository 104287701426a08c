// The statements of the snippet writes (src/store/snippets/write-ops.ts), counted at the engine's transaction (tapped:
// its portable work dropped, so that the same work runs here on both engines with a counting Tx), and the reads before
// it. On MySQL/MariaDB each statement is a round trip, and those of a save are made while the snippet's row is locked
// (docs/benchmarks.md, "MariaDB's writes, 2026-11-26").
import { expect } from 'chai';
import type { Tx } from '../../../src/store/transaction';
import { makeUser, resetDatabase } from '../../support/db';
import { api, basic } from '../../support/http';
import { testStore } from '../../support/runtime';

const as = { Authorization: basic('alice') };

/** Each statement the transactions run while `work` runs, as its verb and table (`UPDATE snippets`). */
async function statementsOf(work: () => Promise<unknown>): Promise<string[]> {
  const engine = testStore().engine;
  const seen: string[] = [];
  const kind = (sql: string) => {
    const m =
      /^\s*(\w+)\b.*?\b(?:INTO|FROM|UPDATE)?\s*\b(snippets|snippet_revisions|snippet_trigram_words|users)\b/is.exec(
        sql,
      );
    return m ? `${m[1]!.toUpperCase()} ${m[2]}` : sql;
  };
  const counting = (tx: Tx): Tx => ({
    insert: (sql, params) => (seen.push(kind(sql)), tx.insert(sql, params)),
    change: (sql, params) => (seen.push(kind(sql)), tx.change(sql, params)),
    selectForUpdate: (sql, params) => (seen.push(kind(sql)), tx.selectForUpdate(sql, params)),
  });
  const transaction = engine.transaction;
  engine.transaction = <T>(txWork: (tx: Tx) => Promise<T>) =>
    transaction.call(engine, (tx: Tx) => txWork(counting(tx))) as Promise<T>;
  try {
    await work();
  } finally {
    engine.transaction = transaction;
  }
  return seen;
}

describe('the statements of a snippet write (both engines)', () => {
  let saved: { keep: number; daily: number };
  before(() => {
    const store = testStore();
    saved = { keep: store.revisionsKeep, daily: store.revisionsDaily };
    Object.assign(store, { revisionsKeep: 3, revisionsDaily: 2 });
  });
  after(() => Object.assign(testStore(), { revisionsKeep: saved.keep, revisionsDaily: saved.daily }));
  beforeEach(async () => {
    await resetDatabase();
    await makeUser('alice');
  });

  it('a save past the newest kept revisions: the UPDATE, the revision, one SELECT of the older keys, one DELETE', async () => {
    const { id } = (await api().post('/snippets/').set(as).send({ code: 'same code' }).expect(201)).body as {
      id: number;
    };
    const put = (linenos: boolean) =>
      api().put(`/snippets/${id}/`).set(as).send({ code: 'same code', linenos }).expect(200);
    for (let n = 2; n <= 4; n++) await put(n % 2 === 0); // revision 4 thins revision 1 away: all on one day
    // Revision 5 leaves revision 2 out of the newest three: saved the same day as 3, it goes (the bytes it frees are
    // the new one's: no change to the owner's count).
    const statements = await statementsOf(() => put(true));
    expect(statements).to.deep.equal([
      'UPDATE snippets',
      'INSERT snippet_revisions',
      'SELECT snippet_revisions',
      'DELETE snippet_revisions',
    ]);
    const numbers = (await api().get(`/snippets/${id}/revisions/`).expect(200)).body as { revision: number }[];
    expect(numbers.map((r) => r.revision)).to.deep.equal([5, 4, 3]);
  });

  it('a create of ASCII text asks the server for no lowering of its search words; other text, one statement', async function () {
    const engine = testStore().engine;
    if (!engine.searchEntry) this.skip(); // SQLite's FTS5 keeps its own index
    const lowering: string[] = [];
    const select = engine.select;
    engine.select = function (sql, ...rest) {
      if (/\bLOWER\(/.test(sql)) lowering.push(sql);
      return select.call(engine, sql, ...rest) as never;
    };
    try {
      await api().post('/snippets/').set(as).send({ title: 'ASCII Title', code: 'def F(): pass' }).expect(201);
      expect(lowering).to.deep.equal([]);
      await api().post('/snippets/').set(as).send({ title: 'Été', code: 'def F(): pass' }).expect(201);
      expect(lowering).to.have.length(1);
    } finally {
      engine.select = select;
    }
    // The words stored for either are the server's (test/src/store/mysql-search-index.test.ts checks them all).
    const found = (await api().get('/snippets/?search=ascii%20title').expect(200)).body as { title: string }[];
    expect(found.map((s) => s.title)).to.deep.equal(['ASCII Title']);
  });
});
