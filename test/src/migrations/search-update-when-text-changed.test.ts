// 0017-search-update-when-text-changed on SQLite: a save that changes neither the title nor the code leaves the search
// index as it is (not one byte of its segments written), one that changes either re-indexes, and the index stays
// exact (FTS5's own integrity check against the snippets, and the searches' answers).
import { expect } from 'chai';
import { down, up } from '../../../src/migrations/0017-search-update-when-text-changed';
import { down as contentful, up as contentless } from '../../../src/migrations/0018-search-contentless';
import { isSqlite } from '../../support/engine';
import { makeUser, resetDatabase } from '../../support/db';
import { api, basic } from '../../support/http';
import { testStore } from '../../support/runtime';

/** Every block of the index's segments and its structure record (which counts each write), in order. */
const indexBlocks = async () => {
  const [rows] = await testStore().sequelize.query('SELECT id, hex(block) AS b FROM snippet_search_data ORDER BY id');
  return rows;
};
const integrityCheck = () =>
  testStore().sequelize.query("INSERT INTO snippet_search(snippet_search, rank) VALUES ('integrity-check', 1)");
const found = async (search: string) =>
  ((await api().get('/snippets/').query({ search }).expect(200)).body as { code: string }[]).map((s) => s.code);
const as = { Authorization: basic('alice') };

describe('migration 0017-search-update-when-text-changed', () => {
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
    await makeUser('alice');
  });

  const save = async (id: number, body: object) => api().put(`/snippets/${id}/`).set(as).send(body).expect(200);

  it('leaves the index untouched by a save of the same title and code, and re-indexes a changed one', async () => {
    const { id } = (
      await api().post('/snippets/').set(as).send({ title: 'Retry', code: 'def backoff(): pass' }).expect(201)
    ).body as { id: number };
    const before = await indexBlocks();
    await save(id, { title: 'Retry', code: 'def backoff(): pass', language: 'text', linenos: true, style: 'monokai' });
    expect(await indexBlocks(), 'the index after a save of the same text').to.deep.equal(before);
    await save(id, { title: 'Retry', code: 'def jitter(): pass', language: 'text' });
    expect(await indexBlocks()).to.not.deep.equal(before);
    expect(await found('backoff')).to.deep.equal([]);
    expect(await found('JITTER')).to.deep.equal(['def jitter(): pass']);
    const changed = await indexBlocks();
    await save(id, { title: 'RETRY', code: 'def jitter(): pass', language: 'text' }); // the case of the title alone
    expect(await indexBlocks()).to.not.deep.equal(changed);
    await integrityCheck();
  });

  it('fires on every save again when undone', async () => {
    const qi = testStore().sequelize.getQueryInterface();
    await down(qi);
    try {
      const { id } = (await api().post('/snippets/').set(as).send({ code: 'def backoff(): pass' }).expect(201))
        .body as {
        id: number;
      };
      const before = await indexBlocks();
      await save(id, { code: 'def backoff(): pass', language: 'text' });
      expect(await indexBlocks()).to.not.deep.equal(before);
      await integrityCheck();
    } finally {
      await up(qi);
    }
  });
});
