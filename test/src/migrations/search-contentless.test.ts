// 0018-search-contentless on SQLite: the search index keeps no text (FTS5 content='', a row leaves it by its rowid),
// and stays exact through create, update, restore, delete and a save that rolls back; an existing database's index is
// rebuilt in batches, and a rebuild cut short goes on where it stopped.
import { expect } from 'chai';
import { down, up, CONTENTLESS_INDEX } from '../../../src/migrations/0018-search-contentless';
import { rebuild } from '../../../src/migrations/search-rebuild';
import { trigramQuery } from '../../../src/store/sqlite/long-terms';
import { isSqlite } from '../../support/engine';
import { makeUser, resetDatabase } from '../../support/db';
import { api, basic } from '../../support/http';
import { found, NEEDLES, rebuildLeftovers, rolledBackSave, seedNeedles, tableSql } from '../../support/search-index';
import { testStore } from '../../support/runtime';

const query = async <T>(sql: string) => (await testStore().sequelize.query(sql))[0] as T[];
/**
 * FTS5's own check of its structure, and the rows it holds against the snippets: a contentless index cannot be
 * checked against text it does not have (FTS5's rank-1 check reads a content table), so the searches below check that.
 */
async function exact(): Promise<void> {
  await testStore().sequelize.query("INSERT INTO snippet_search(snippet_search, rank) VALUES ('integrity-check', 1)");
  const indexed = await query<{ id: number }>('SELECT id FROM snippet_search_docsize ORDER BY id');
  const stored = await query<{ id: number }>('SELECT id FROM snippets ORDER BY id');
  expect(indexed).to.deep.equal(stored);
}
/** The ids the index itself answers for `term` (its trigrams), before the service checks each row's text. */
const indexed = async (term: string) =>
  (
    await testStore().sequelize.query(
      'SELECT rowid AS id FROM snippet_search WHERE snippet_search MATCH ? ORDER BY rowid',
      {
        replacements: [trigramQuery(term)],
      },
    )
  )[0].map((r) => (r as { id: number }).id);
const as = { Authorization: basic('alice') };

describe('migration 0018-search-contentless', function () {
  this.timeout(120_000);
  let ownerId: number;
  before(function () {
    if (!isSqlite(testStore())) this.skip(); // MySQL/MariaDB have no FTS5 index (docs/api.md, "Finding snippets")
  });
  beforeEach(async () => {
    await resetDatabase();
    ownerId = (await makeUser('alice')).id;
  });

  it('keeps no text nor positions in the index, and removes a row by its id', async () => {
    expect(await tableSql())
      .to.contain("content=''")
      .and.to.contain('contentless_delete=1')
      .and.to.contain("detail='none'");
    const triggers = await query<{ sql: string }>(
      "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'snippet_search_%' ORDER BY name",
    );
    expect(triggers.map((t) => t.sql).join('\n')).not.to.contain("'delete'");
  });

  it('stays exact through create, update, restore and delete', async () => {
    const { body: a } = await api().post('/snippets/').set(as).send({ code: 'needle one', title: 'Alpha' }).expect(201);
    await api().post('/snippets/').set(as).send({ code: 'needle two' }).expect(201);
    await exact();
    expect(await found('needle')).to.deep.equal(['needle one', 'needle two']);
    await api().put(`/snippets/${a.id}/`).set(as).send({ code: 'haystack', title: 'Beta' }).expect(200);
    await exact();
    expect(await found('needle')).to.deep.equal(['needle two']);
    expect(await indexed('needle one')).to.deep.equal([]); // the old text's entries are gone, not only checked away
    expect(await found('hayst')).to.deep.equal(['haystack']);
    expect(await found('alpha')).to.deep.equal([]);
    expect(await found('beta')).to.deep.equal(['haystack']);
    await api().post(`/snippets/${a.id}/revisions/1/restore/`).set(as).expect(200);
    await exact();
    expect(await found('needle')).to.deep.equal(['needle one', 'needle two']);
    expect(await found('haystack')).to.deep.equal([]);
    expect(await found('ALPHA')).to.deep.equal(['needle one']);
    await api()
      .put(`/snippets/${a.id}/`)
      .set(as)
      .send({ code: 'needle one', title: 'Alpha', language: 'ruby' })
      .expect(200);
    expect(await found('needle')).to.deep.equal(['needle one', 'needle two']);
    await api().delete(`/snippets/${a.id}/`).set(as).expect(204);
    await exact();
    expect(await found('needle')).to.deep.equal(['needle two']);
    expect(await indexed('alpha')).to.deep.equal([]);
  });

  it('leaves no trace of a save that rolls back', async () => {
    const { body } = await api().post('/snippets/').set(as).send({ code: 'needle' }).expect(201);
    await rolledBackSave(body.id, ownerId);
    await exact();
    expect(await found('needle')).to.deep.equal(['needle']);
    expect(await found('haystack')).to.deep.equal([]);
  });

  it("rebuilds an existing database's index, and goes on from where a cut run stopped", async () => {
    const qi = testStore().sequelize.getQueryInterface();
    await seedNeedles(ownerId);
    await down(qi); // the index of 0016 (external content), as before this migration
    expect(await tableSql()).to.contain("content='snippets'");
    expect(await found('needle')).to.have.length(5);
    const cut = await rebuild(testStore().sequelize, CONTENTLESS_INDEX, { batch: 10, batches: 1 });
    expect(cut).to.equal(false);
    expect(await tableSql()).to.contain("content='snippets'"); // the old index answers until the new one is whole
    expect(await found('needle')).to.have.length(5);
    // Its progress counts the batch of the cut run too: the last line says every snippet.
    const lines: string[] = [];
    const write = process.stderr.write;
    process.stderr.write = ((chunk: string) => (lines.push(String(chunk)), true)) as typeof process.stderr.write;
    try {
      await up(qi);
    } finally {
      process.stderr.write = write;
    }
    const [rows] = await testStore().sequelize.query('SELECT COUNT(*) AS total FROM snippets');
    const total = (rows as { total: number }[])[0]!.total;
    expect(lines.filter((l) => l.startsWith('migration: search index')).at(-1)).to.equal(
      `migration: search index ${total} of ${total} snippets\n`,
    );
    expect(await tableSql()).to.contain("content=''");
    await exact();
    expect(await found('needle')).to.deep.equal(NEEDLES);
    expect(await rebuildLeftovers()).to.deep.equal([]);
  });
});
