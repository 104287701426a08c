// The migration lock on MySQL/MariaDB: a row of our own table, so it holds across Galera nodes as on one server.
import { expect } from 'chai';
import { Sequelize } from 'sequelize';
import { withMysqlLock } from '../../../src/store/mysql/migration-lock';
import { isSqlite } from '../../support/engine';
import { testStore } from '../../support/runtime';

describe('withMigrationLock on MySQL/MariaDB', function () {
  const others: Sequelize[] = [];
  before(function () {
    if (isSqlite(testStore())) this.skip(); // SQLite's lock is an exclusive transaction on a side file (tested by migrating files)
  });
  after(() => Promise.all(others.map((s) => s.close())));

  /** Another process's view of the database: connections of its own. */
  const connection = () => {
    const s = new Sequelize(process.env.DATABASE_URL!.replace(/^mariadb:/, 'mysql:'), { logging: false });
    others.push(s);
    return s;
  };

  it('lets one migrator in at a time: four at once never overlap, and each gets its turn', async () => {
    let inside = 0;
    let most = 0;
    const turns: number[] = [];
    await Promise.all(
      [testStore().sequelize, connection(), connection(), connection()].map((sequelize, i) =>
        withMysqlLock(sequelize, async () => {
          most = Math.max(most, ++inside);
          // Held long enough that four claims made together would overlap if the lock let two in.
          await new Promise((r) => setTimeout(r, 300));
          turns.push(i);
          inside--;
        }),
      ),
    );
    expect(most).to.equal(1);
    expect([...turns].sort()).to.deep.equal([0, 1, 2, 3]);
  });

  it('takes over a claim its holder left behind (a process killed while migrating) once it has expired', async () => {
    await testStore().sequelize.query(
      "INSERT INTO schema_migration_lock (name, holder, expires) VALUES ('snippets_migrate', 'dead-process', UTC_TIMESTAMP(6) - INTERVAL 1 SECOND)",
    );
    expect(await withMysqlLock(connection(), async () => 'migrated')).to.equal('migrated');
  });

  it('waits for a live claim, and gives up with a clear error at its bound', async () => {
    await testStore().sequelize.query(
      "INSERT INTO schema_migration_lock (name, holder, expires) VALUES ('snippets_migrate', 'live-process', UTC_TIMESTAMP(6) + INTERVAL 60 SECOND)",
    );
    try {
      let ran = false;
      const err = await withMysqlLock(connection(), async () => (ran = true), 1).then(
        () => null,
        (e: Error) => e,
      );
      expect(err?.message).to.match(/could not take the migration lock within 1 s/);
      expect(ran).to.equal(false);
    } finally {
      await testStore().sequelize.query("DELETE FROM schema_migration_lock WHERE holder = 'live-process'");
    }
  });
});
