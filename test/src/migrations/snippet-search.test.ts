// 0006-snippet-search on SQLite: snippets stored before it are found after it, the index stays exact through
// writes (FTS5's own integrity check against the snippets table), and it can run again after being cut short.
import { expect } from 'chai';
import { down, up } from '../../../src/migrations/0006-snippet-search';
import { isSqlite } from '../../support/engine';
import { makeUser, resetDatabase } from '../../support/db';
import { api, basic } from '../../support/http';
import { testStore } from '../../support/runtime';

/** FTS5 compares every indexed entry with the content table's row (rank 1: external content is checked too). */
const integrityCheck = () =>
  testStore().sequelize.query("INSERT INTO snippet_search(snippet_search, rank) VALUES ('integrity-check', 1)");
const found = async (search: string) =>
  (await api().get('/snippets/').query({ search }).expect(200)).body.map((s: { code: string }) => s.code);

describe('migration 0006-snippet-search', function () {
  let ownerId: number;
  before(function () {
    if (!isSqlite(testStore())) this.skip(); // MySQL/MariaDB search without an index (docs/api.md, "Finding snippets")
  });
  beforeEach(async () => {
    await resetDatabase();
    ownerId = (await makeUser('alice')).id;
  });
  afterEach(async () => {
    await up(testStore().sequelize.getQueryInterface()); // whatever a test did, the suite goes on with the index
  });

  it('indexes the snippets stored before it', async () => {
    const qi = testStore().sequelize.getQueryInterface();
    await down(qi);
    await testStore().models.Snippet.bulkCreate([
      { code: 'def retry_backoff():', ownerId },
      { code: 'other', title: 'Exponential BACKOFF', ownerId },
    ]);
    await up(qi);
    expect(await found('backoff')).to.deep.equal(['def retry_backoff():', 'other']);
    await integrityCheck();
  });

  it('runs again over a first run cut short (every statement may be repeated)', async () => {
    const qi = testStore().sequelize.getQueryInterface();
    await testStore().models.Snippet.bulkCreate([{ code: 'needle', ownerId }]);
    await up(qi);
    expect(await found('needle')).to.deep.equal(['needle']);
    await integrityCheck();
  });

  it('stays exact through creates, updates and deletes', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 5; i++)
      ids.push(
        (
          await api()
            .post('/snippets/')
            .set('Authorization', basic('alice'))
            .send({ code: `code ${i}`, title: `t${i}` })
            .expect(201)
        ).body.id,
      );
    await api()
      .put(`/snippets/${ids[1]}/`)
      .set('Authorization', basic('alice'))
      .send({ code: 'changed', title: 'new title' })
      .expect(200);
    await api()
      .put(`/snippets/${ids[2]}/`)
      .set('Authorization', basic('alice'))
      .send({ code: 'code 2', language: 'rust' })
      .expect(200);
    await api().delete(`/snippets/${ids[3]}/`).set('Authorization', basic('alice')).expect(204);
    await integrityCheck();
    expect(await found('code')).to.deep.equal(['code 0', 'code 2', 'code 4']);
  });
});
