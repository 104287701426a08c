// retryConflicts on MySQL/MariaDB: a transaction InnoDB chose as a deadlock's victim is run again, and the retry heard.
import { expect } from 'chai';
import { QueryTypes, Sequelize } from 'sequelize';
import { isSqlite } from '../../support/engine';
import { isConflict } from '../../../src/store/errors';
import { retryConflicts, type Retry } from '../../../src/store/retry';
import { testStore } from '../../support/runtime';

describe('retryConflicts', () => {
  it('does not retry what is no conflict: the error is thrown at once', async () => {
    let tries = 0;
    const err = await retryConflicts(async () => {
      tries++;
      throw Object.assign(new Error('duplicate'), { code: 'ER_DUP_ENTRY' });
    }).catch((e: Error) => e);
    expect(err).to.be.instanceOf(Error);
    expect(tries).to.equal(1);
  });

  it('gives up after four tries, throwing the last conflict', async () => {
    const retries: Retry[] = [];
    let tries = 0;
    const conflict = Object.assign(new Error('Deadlock found when trying to get lock; try restarting transaction'), {
      code: 'ER_LOCK_DEADLOCK',
      errno: 1213,
    });
    const err = await retryConflicts(
      async () => {
        tries++;
        throw conflict;
      },
      (r) => retries.push(r),
    ).catch((e: Error) => e);
    expect(err).to.equal(conflict);
    expect(tries).to.equal(4);
    expect(retries.map((r) => r.attempt)).to.deep.equal([1, 2, 3]);
  });

  describe('on MySQL/MariaDB, a real deadlock', function () {
    let other: Sequelize;
    before(async function () {
      if (isSqlite(testStore())) return this.skip(); // SQLite has one writer per process and no deadlocks to lose
      await testStore().sequelize.query('CREATE TABLE retry_probe (id INT PRIMARY KEY, n INT NOT NULL) ENGINE=InnoDB');
      other = new Sequelize(process.env.DATABASE_URL!.replace(/^mariadb:/, 'mysql:'), { logging: false });
    });
    after(async () => {
      await other?.close();
      if (!isSqlite(testStore())) await testStore().sequelize.query('DROP TABLE IF EXISTS retry_probe');
    });

    it('the lighter transaction, chosen as the victim, is run again once and both commit', async () => {
      const rows = Array.from({ length: 30 }, (_, i) => `(${i + 1}, 0)`).join(', ');
      await testStore().sequelize.query(`INSERT INTO retry_probe (id, n) VALUES ${rows}`);
      let holdsRow1!: () => void;
      let holdsRow2!: () => void;
      const ourFirstLock = new Promise<void>((r) => (holdsRow1 = r));
      const theirFirstLock = new Promise<void>((r) => (holdsRow2 = r));
      const retries: Retry[] = [];
      let tries = 0;
      // The other transaction writes 28 rows first: InnoDB rolls back the transaction that has done less, ours.
      const theirs = other.transaction(async (transaction) => {
        await other.query('UPDATE retry_probe SET n = n + 1 WHERE id BETWEEN 3 AND 30', { transaction });
        await other.query('UPDATE retry_probe SET n = n + 1 WHERE id = 2', { transaction });
        holdsRow2();
        await ourFirstLock;
        await other.query('UPDATE retry_probe SET n = n + 1 WHERE id = 1', { transaction }); // waits for ours: a cycle
      });
      const ours = retryConflicts(
        () =>
          testStore().sequelize.transaction(async (transaction) => {
            tries++;
            await testStore().sequelize.query('UPDATE retry_probe SET n = n + 1 WHERE id = 1', { transaction });
            holdsRow1();
            await theirFirstLock;
            await testStore().sequelize.query('UPDATE retry_probe SET n = n + 1 WHERE id = 2', { transaction });
          }),
        (r) => retries.push(r),
      );
      await Promise.all([ours, theirs]);
      expect(tries).to.equal(2);
      expect(retries).to.have.length(1);
      expect(isConflict(retries[0]!.err)).to.equal(true);
      const counts = await testStore().sequelize.query<{ id: number; n: number }>(
        'SELECT id, n FROM retry_probe WHERE id <= 3 ORDER BY id',
        { type: QueryTypes.SELECT },
      );
      expect(counts.map((r) => Number(r.n))).to.deep.equal([2, 2, 1]);
    });
  });
});
