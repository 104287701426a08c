// 0007-snippet-revisions on a database made before revisions: each snippet gets revision 1, its current fields, and
// its ETag "1"; the next save is revision 2. Run on the suite's database (SQLite, or MariaDB with DATABASE_URL): the
// migration is taken back first, then applied again.
import { expect } from 'chai';
import { QueryTypes } from 'sequelize';
import { down, up } from '../../../src/migrations/0007-snippet-revisions';
import * as storageUsage from '../../../src/migrations/0009-storage-usage';
import * as userStorage from '../../../src/migrations/0019-user-storage';
import { makeUser, resetDatabase } from '../../support/db';
import { api, basic } from '../../support/http';
import { testStore } from '../../support/runtime';

describe('migration 0007-snippet-revisions', () => {
  beforeEach(resetDatabase);

  it('gives every existing snippet revision 1 = its current fields, saved at its creation time', async () => {
    const sequelize = testStore().sequelize;
    const qi = sequelize.getQueryInterface();
    const alice = await makeUser('alice');
    // The later migrations that change the revisions table (and the count 0009 made) go back first, and come again after.
    await userStorage.down(qi);
    await storageUsage.down(qi);
    await down(qi);
    try {
      // Rows as the service wrote them before revisions: no revision column, no revisions table.
      const columns = (await qi.describeTable('snippets')) as Record<string, unknown>;
      expect(columns).not.to.have.property('revision');
      // As the model stores it (a raw Date would lose its milliseconds on MySQL).
      const created =
        sequelize.getDialect() === 'sqlite' ? '2026-01-02 03:04:05.678 +00:00' : '2026-01-02 03:04:05.678';
      for (const [title, code, linenos, language, style] of [
        ['one', 'print(1)', false, 'python', 'friendly'],
        ['two', 'fn main() {}', true, 'rust', 'monokai'],
      ] as const) {
        await sequelize.query(
          'INSERT INTO snippets (created, title, code, linenos, language, style, highlighted, owner_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
          {
            replacements: [created, title, code, linenos, language, style, '<html>', alice.id],
            type: QueryTypes.INSERT,
          },
        );
      }
    } finally {
      await up(qi);
      await storageUsage.up(qi);
      await userStorage.up(qi);
    }
    const list = (await api().get('/snippets/').expect(200)).body as {
      id: number;
      title: string;
      code: string;
      linenos: boolean;
      language: string;
      style: string;
    }[];
    expect(list).to.have.length(2);
    for (const snippet of list) {
      const revisions = (await api().get(`/snippets/${snippet.id}/revisions/`).expect(200)).body;
      const { id: _id, owner: _owner, ...fields } = snippet as typeof snippet & { owner: string };
      expect(revisions).to.deep.equal([{ revision: 1, saved: '2026-01-02T03:04:05.678Z', ...fields }]);
      expect((await api().get(`/snippets/${snippet.id}/`).expect(200)).headers.etag).to.equal('"1"');
    }
    const [first] = list;
    await api()
      .put(`/snippets/${first!.id}/`)
      .set('Authorization', basic('alice'))
      .set('If-Match', '"1"')
      .send({ code: 'print(2)' })
      .expect(200);
    const after = (await api().get(`/snippets/${first!.id}/revisions/`).expect(200)).body as {
      revision: number;
      code: string;
    }[];
    expect(after.map((r) => [r.revision, r.code])).to.deep.equal([
      [2, 'print(2)'],
      [1, 'print(1)'],
    ]);
  });
});
