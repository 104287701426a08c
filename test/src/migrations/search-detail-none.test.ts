// 0016-search-detail-none on SQLite: the search index keeps no positions, and stays exact (FTS5's own integrity check
// against the snippets table, and the searches' answers) through create, update, restore, delete and a save that rolls
// back; an existing database's index is rebuilt in batches, and a rebuild cut short goes on where it stopped.
import { expect } from 'chai';
import { down, up, INDEX_0016 } from '../../../src/migrations/0016-search-detail-none';
import { rebuild } from '../../../src/migrations/search-rebuild';
import { down as contentful, up as contentless } from '../../../src/migrations/0018-search-contentless';
import { isSqlite } from '../../support/engine';
import { makeUser, resetDatabase } from '../../support/db';
import { api, basic } from '../../support/http';
import { found, NEEDLES, rebuildLeftovers, rolledBackSave, seedNeedles, tableSql } from '../../support/search-index';
import { testStore } from '../../support/runtime';

/** rank 1: external content is checked too (every row's trigrams against the index). */
const integrityCheck = () =>
  testStore().sequelize.query("INSERT INTO snippet_search(snippet_search, rank) VALUES ('integrity-check', 1)");
const as = { Authorization: basic('alice') };

describe('migration 0016-search-detail-none', function () {
  this.timeout(120_000);
  let ownerId: number;
  // The index as this migration left it, before 0018 made it contentless; as it is now, after.
  const schema = () => testStore().sequelize.getQueryInterface();
  before(async function () {
    if (!isSqlite(testStore())) this.skip(); // MySQL/MariaDB have no FTS5 index (docs/api.md, "Finding snippets")
    await contentful(schema());
  });
  after(async () => {
    if (isSqlite(testStore())) await contentless(schema());
  });
  beforeEach(async () => {
    await resetDatabase();
    ownerId = (await makeUser('alice')).id;
  });

  it('keeps no positions nor column sizes in the index', async () => {
    expect(await tableSql())
      .to.contain("detail='none'")
      .and.to.contain('columnsize=0');
  });

  it('stays exact through create, update, restore and delete', async () => {
    const { body: a } = await api().post('/snippets/').set(as).send({ code: 'needle one', title: 'Alpha' }).expect(201);
    await api().post('/snippets/').set(as).send({ code: 'needle two' }).expect(201);
    expect(await found('needle')).to.deep.equal(['needle one', 'needle two']);
    await api().put(`/snippets/${a.id}/`).set(as).send({ code: 'haystack', title: 'Beta' }).expect(200);
    await integrityCheck();
    expect(await found('needle')).to.deep.equal(['needle two']);
    expect(await found('hayst')).to.deep.equal(['haystack']);
    expect(await found('alpha')).to.deep.equal([]);
    await api().post(`/snippets/${a.id}/revisions/1/restore/`).set(as).expect(200);
    await integrityCheck();
    expect(await found('needle')).to.deep.equal(['needle one', 'needle two']);
    expect(await found('haystack')).to.deep.equal([]);
    expect(await found('ALPHA')).to.deep.equal(['needle one']);
    await api().delete(`/snippets/${a.id}/`).set(as).expect(204);
    await integrityCheck();
    expect(await found('needle')).to.deep.equal(['needle two']);
  });

  it('leaves no trace of a save that rolls back', async () => {
    const { body } = await api().post('/snippets/').set(as).send({ code: 'needle' }).expect(201);
    await rolledBackSave(body.id, ownerId);
    await integrityCheck();
    expect(await found('needle')).to.deep.equal(['needle']);
    expect(await found('haystack')).to.deep.equal([]);
  });

  it("rebuilds an existing database's index, and goes on from where a cut run stopped", async () => {
    const qi = testStore().sequelize.getQueryInterface();
    await seedNeedles(ownerId);
    await down(qi); // the index with positions, as before this migration
    expect(await tableSql()).not.to.contain('detail');
    expect(await found('needle')).to.have.length(5);
    expect(await rebuild(testStore().sequelize, INDEX_0016, { batch: 10, batches: 1 })).to.equal(false);
    expect(await tableSql()).not.to.contain('detail'); // the old index answers until the new one is whole
    expect(await found('needle')).to.have.length(5);
    await up(qi);
    expect(await tableSql()).to.contain("detail='none'");
    await integrityCheck();
    expect(await found('needle')).to.deep.equal(NEEDLES);
    expect(await rebuildLeftovers()).to.deep.equal([]);
  });
});
