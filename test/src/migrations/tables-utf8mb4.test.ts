// 0005-tables-utf8mb4 on MySQL/MariaDB: tables made under a latin1 default end up utf8mb4_bin, with their rows.
import { expect } from 'chai';
import { QueryTypes } from 'sequelize';
import { up } from '../../../src/migrations/0005-tables-utf8mb4';
import { isSqlite } from '../../support/engine';
import { makeUser, resetDatabase } from '../../support/db';
import { api, basic } from '../../support/http';
import { testStore } from '../../support/runtime';

const collations = async () =>
  Object.fromEntries(
    (
      await testStore().sequelize.query<{ name: string; collation: string }>(
        "SELECT TABLE_NAME AS name, TABLE_COLLATION AS collation FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME IN ('users', 'snippets', 'sessions')",
        { type: QueryTypes.SELECT },
      )
    ).map((r) => [r.name, r.collation]),
  );

describe('migration 0005-tables-utf8mb4', function () {
  before(function () {
    if (isSqlite(testStore())) this.skip(); // SQLite stores UTF-8 and compares bytes: the migration does nothing there
  });
  beforeEach(resetDatabase);

  it('on a database and tables made with a latin1 default: converts them, and emoji and case-distinct usernames work', async () => {
    const sequelize = testStore().sequelize;
    await sequelize.query('ALTER DATABASE CHARACTER SET latin1 COLLATE latin1_swedish_ci');
    for (const table of ['users', 'snippets', 'sessions'])
      await sequelize.query(`ALTER TABLE ${table} CONVERT TO CHARACTER SET latin1 COLLATE latin1_swedish_ci`);
    await makeUser('alice');
    expect(await collations()).to.deep.equal({
      users: 'latin1_swedish_ci',
      snippets: 'latin1_swedish_ci',
      sessions: 'latin1_swedish_ci',
    });

    await up(sequelize.getQueryInterface());

    expect(await collations()).to.deep.equal({
      users: 'utf8mb4_bin',
      snippets: 'utf8mb4_bin',
      sessions: 'utf8mb4_bin',
    });
    const [db] = await sequelize.query<{ collation: string }>('SELECT @@collation_database AS collation', {
      type: QueryTypes.SELECT,
    });
    expect(db?.collation).to.equal('utf8mb4_bin');
    // The row made before the conversion still authenticates; a username differing only in case is another user.
    await makeUser('Alice', 'otherpass');
    const res = await api()
      .post('/snippets/')
      .set('Authorization', basic('alice'))
      .send({ title: 'smile 😀', code: 'print("😀")' })
      .expect(201);
    expect((await api().get(`/snippets/${res.body.id}/`).expect(200)).body).to.include({
      owner: 'alice',
      title: 'smile 😀',
      code: 'print("😀")',
    });
  });
});
