// 0009-storage-usage on a database that has snippets already: each revision is counted in bytes, and each user's
// count is the sum over their snippets' revisions. Run on the suite's database (SQLite, or MariaDB with DATABASE_URL).
import { expect } from 'chai';
import { down, up } from '../../../src/migrations/0009-storage-usage';
import { down as countInUsers, up as countApart } from '../../../src/migrations/0019-user-storage';
import { select } from '../../../src/store/select';
import { makeUser, resetDatabase } from '../../support/db';
import { api, basic } from '../../support/http';
import { testStore } from '../../support/runtime';

describe('migration 0009-storage-usage', () => {
  beforeEach(resetDatabase);

  it("counts the UTF-8 bytes of every existing revision into its owner's stored_bytes", async () => {
    await makeUser('alice');
    await makeUser('bob');
    const { id } = (
      await api().post('/snippets/').set('Authorization', basic('alice')).send({ title: 'é', code: 'ab' }).expect(201)
    ).body as { id: number };
    await api().put(`/snippets/${id}/`).set('Authorization', basic('alice')).send({ code: '😀' }).expect(200);
    const qi = testStore().sequelize.getQueryInterface();
    await countInUsers(qi); // the schema this migration made (0019 moves the count to a table of its own)
    let rows: { username: string; bytes: number }[];
    try {
      await down(qi);
      try {
        expect(await qi.describeTable('users')).not.to.have.property('stored_bytes');
      } finally {
        await up(qi);
      }
      rows = await select(testStore(), 'SELECT username, stored_bytes AS bytes FROM users ORDER BY username');
    } finally {
      await countApart(qi);
    }
    // Revision 1: "é" (2 bytes) + "ab" (2); revision 2: "é" + "😀" (4).
    expect(rows.map((r) => [r.username, Number(r.bytes)])).to.deep.equal([
      ['alice', 10],
      ['bob', 0],
    ]);
  });
});
