// 0019-user-storage: each user's stored bytes move from users.stored_bytes to a row of user_storage, and back when
// undone; a user without a row (made since) gets one at their first save; the old column is no longer written. Run on the suite's database (SQLite, or
// MariaDB with DATABASE_URL).
import { expect } from 'chai';
import { down, up } from '../../../src/migrations/0019-user-storage';
import { select } from '../../../src/store/select';
import { makeUser, resetDatabase } from '../../support/db';
import { api, basic } from '../../support/http';
import { testStore } from '../../support/runtime';

const counts = () =>
  select<{ username: string; bytes: number | null }>(
    testStore(),
    'SELECT u.username AS username, c.stored_bytes AS bytes FROM users u LEFT JOIN user_storage c ON c.user_id = u.id ORDER BY u.username',
  );

describe('migration 0019-user-storage', () => {
  beforeEach(resetDatabase);

  it("keeps every user's count through down and up, and a user made after it gets a row at their first save", async () => {
    await makeUser('alice');
    await makeUser('bob');
    await api().post('/snippets/').set('Authorization', basic('alice')).send({ title: 'é', code: 'ab' }).expect(201);
    // "é" (2 bytes) + "ab" (2); bob has saved nothing: no row.
    expect((await counts()).map((r) => [r.username, r.bytes === null ? null : Number(r.bytes)])).to.deep.equal([
      ['alice', 4],
      ['bob', null],
    ]);
    const qi = testStore().sequelize.getQueryInterface();
    await down(qi);
    try {
      expect(await qi.describeTable('users')).to.have.property('stored_bytes');
      const inUsers = await select<{ username: string; bytes: number }>(
        testStore(),
        'SELECT username, stored_bytes AS bytes FROM users ORDER BY username',
      );
      expect(inUsers.map((r) => [r.username, Number(r.bytes)])).to.deep.equal([
        ['alice', 4],
        ['bob', 0],
      ]);
    } finally {
      await up(qi);
    }
    expect((await counts()).map((r) => [r.username, Number(r.bytes)])).to.deep.equal([
      ['alice', 4],
      ['bob', 0],
    ]);
    await makeUser('carol', 'carolpass');
    await api().post('/snippets/').set('Authorization', basic('carol', 'carolpass')).send({ code: 'abc' }).expect(201);
    expect((await counts()).find((r) => r.username === 'carol')?.bytes).to.satisfy((b: unknown) => Number(b) === 3);
    // The old column, kept for the release before during a rolling restart, is not written by this one.
    const [carol] = await select<{ bytes: number }>(
      testStore(),
      "SELECT stored_bytes AS bytes FROM users WHERE username = 'carol'",
    );
    expect(Number(carol!.bytes)).to.equal(0);
  });
});
