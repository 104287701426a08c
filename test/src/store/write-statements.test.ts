// The statements of the snippet writes (src/store/snippets/write-ops.ts), counted at the engine's transaction (tapped:
// its portable work dropped, so that the same work runs here on both engines with a counting Tx), and the reads before
// it. On MySQL/MariaDB each statement is a round trip, and those of a save are made while the snippet's row is locked
// (docs/benchmarks.md, "MariaDB's writes, 2026-11-26").
import { expect } from 'chai';
import type { Tx } from '../../../src/store/transaction';
import { snippetForWrite, updateSnippet, type StoredSnippet } from '../../../src/store/snippets/writes';
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
      /^\s*(\w+)\b.*?\b(?:INTO|FROM|UPDATE)?\s*\b(snippets|snippet_revisions|snippet_trigram_words|user_storage|users)\b/is.exec(
        sql,
      );
    return m ? `${m[1]!.toUpperCase()} ${m[2]}` : sql;
  };
  const counting = (tx: Tx): Tx => ({
    insert: (sql, params) => (seen.push(kind(sql)), tx.insert(sql, params)),
    change: (sql, params) => (seen.push(kind(sql)), tx.change(sql, params)),
    selectForUpdate: (sql, params) => (seen.push(kind(sql)), tx.selectForUpdate(sql, params)),
    increment: (table, ...rest) => (seen.push(`UPDATE ${table}`), tx.increment(table, ...rest)),
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

  it("a create: the snippet, its revision, its search words where the engine keeps them, and the owner's count last", async () => {
    await api().post('/snippets/').set(as).send({ code: 'first' }).expect(201); // alice's row of user_storage made
    const statements = await statementsOf(() => api().post('/snippets/').set(as).send({ code: 'second' }).expect(201));
    // On MySQL/MariaDB the count's row stays locked until the COMMIT: counted last, another create of the same user
    // waits for it one statement, not the whole transaction (migration 0019-user-storage).
    expect(statements).to.deep.equal([
      'INSERT snippets',
      'INSERT snippet_revisions',
      ...(testStore().engine.searchEntry ? ['INSERT snippet_trigram_words'] : []),
      'UPDATE user_storage',
    ]);
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

  it('saves without If-Match from one read, one after the other: each goes on top in its first UPDATE, no row read again', async () => {
    const { id } = (await api().post('/snippets/').set(as).send({ code: 'same code' }).expect(201)).body as {
      id: number;
    };
    const store = testStore();
    const read = (await snippetForWrite(store, id))!;
    // As a crowd of PUTs that all read revision 1 before any of them saved.
    const saves: StoredSnippet[] = [];
    const statements = await statementsOf(async () => {
      for (const linenos of [true, false, true])
        saves.push((await updateSnippet(store, read, { code: 'same code', linenos })) as StoredSnippet);
    });
    expect(saves.map((s) => s.revision)).to.deep.equal([2, 3, 4]);
    // Each a new revision of the same bytes, counted for the owner; the third thins the first away (SNIPPET_REVISIONS_KEEP 3).
    const kept = ['UPDATE snippets', 'INSERT snippet_revisions', 'UPDATE user_storage'];
    expect(statements).to.deep.equal([
      ...kept,
      ...kept,
      'UPDATE snippets',
      'INSERT snippet_revisions',
      'SELECT snippet_revisions',
      'DELETE snippet_revisions',
    ]);
    const stored = await api().get(`/snippets/${id}/`).expect(200);
    expect([(stored.body as { linenos: boolean }).linenos, stored.headers.etag]).to.deep.equal([true, '"4"']);
  });

  it('a save whose left-out field another save changed is rendered again from the row as it now is', async () => {
    const { id } = (await api().post('/snippets/').set(as).send({ code: 'print(1)' }).expect(201)).body as {
      id: number;
    };
    const store = testStore();
    const read = (await snippetForWrite(store, id))!;
    await updateSnippet(store, read, { linenos: true });
    const statements = await statementsOf(() => updateSnippet(store, read, { code: 'print(2)' }));
    // Its UPDATE (linenos no longer false) changes nothing; the row read, locked, and the save made again.
    expect(statements.slice(0, 2)).to.deep.equal(['UPDATE snippets', 'SELECT snippets']);
    const body = (await api().get(`/snippets/${id}/`).expect(200)).body as { code: string; linenos: boolean };
    expect([body.code, body.linenos]).to.deep.equal(['print(2)', true]);
    const html = (await api().get(`/snippets/${id}/highlight/`).expect(200)).text;
    // Rendered with the line numbers the row now has, and the new code.
    expect(html).to.include('<table class="highlighttable">').and.to.include('>2<');
  });

  it('a left-out title changed only by a trailing space is a change: the save is made again on top of it', async () => {
    const { id } = (await api().post('/snippets/').set(as).send({ title: 'abc', code: 'x' }).expect(201)).body as {
      id: number;
    };
    const store = testStore();
    const read = (await snippetForWrite(store, id))!;
    await updateSnippet(store, read, { title: 'abc ' });
    const statements = await statementsOf(() => updateSnippet(store, read, { code: 'y' }));
    expect(statements.slice(0, 2)).to.deep.equal(['UPDATE snippets', 'SELECT snippets']);
    const body = (await api().get(`/snippets/${id}/`).expect(200)).body as { title: string; code: string };
    expect([body.title, body.code]).to.deep.equal(['abc ', 'y']);
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
