// 0013-search-automerge on SQLite: the search index merges sixteen segments at a time, and stays exact (FTS5's own
// integrity check, and the searches' answers) through creates, updates and deletes that make it merge.
import { expect } from 'chai';
import { down, up } from '../../../src/migrations/0013-search-automerge';
import { isSqlite } from '../../support/engine';
import { makeUser, resetDatabase } from '../../support/db';
import { api, basic } from '../../support/http';
import { testStore } from '../../support/runtime';

const automerge = async () => {
  const [rows] = await testStore().sequelize.query("SELECT v FROM snippet_search_config WHERE k = 'automerge'");
  return Number((rows as { v: unknown }[])[0]?.v ?? 4); // absent: FTS5's default
};
const integrityCheck = () =>
  testStore().sequelize.query("INSERT INTO snippet_search(snippet_search, rank) VALUES ('integrity-check', 1)");
const found = async (search: string) =>
  ((await api().get('/snippets/').query({ search }).expect(200)).body as { code: string }[]).map((s) => s.code);
const as = { Authorization: basic('alice') };

describe('migration 0013-search-automerge', function () {
  this.timeout(120_000);
  before(function () {
    if (!isSqlite(testStore())) this.skip(); // MySQL/MariaDB have no FTS5 index (docs/api.md, "Finding snippets")
  });
  beforeEach(async () => {
    await resetDatabase();
    await makeUser('alice');
  });

  it('sets the index to merge 16 segments at a time, and back to 4 when undone', async () => {
    expect(await automerge()).to.equal(16);
    const qi = testStore().sequelize.getQueryInterface();
    await down(qi);
    expect(await automerge()).to.equal(4);
    await up(qi);
    expect(await automerge()).to.equal(16);
  });

  it('keeps the index exact through 40 creates, 20 updates and 10 deletes (each its own segment, merged)', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 40; i++)
      ids.push(
        (
          await api()
            .post('/snippets/')
            .set(as)
            .send({ code: `needle ${i} x` })
            .expect(201)
        ).body.id,
      );
    for (let i = 0; i < 20; i++)
      await api()
        .put(`/snippets/${ids[i]}/`)
        .set(as)
        .send({ code: `haystack ${i} x` })
        .expect(200);
    for (let i = 30; i < 40; i++) await api().delete(`/snippets/${ids[i]}/`).set(as).expect(204);
    await integrityCheck();
    const range = (from: number, to: number, word: string) =>
      Array.from({ length: to - from }, (_, i) => `${word} ${from + i} x`);
    expect(await found('needle')).to.deep.equal(range(20, 30, 'needle'));
    expect(await found('HAYSTACK')).to.deep.equal(range(0, 20, 'haystack'));
    expect(await found('ystack 1')).to.deep.equal(['haystack 1 x', ...range(10, 20, 'haystack')]);
  });
});
