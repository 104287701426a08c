// A statement the server does not answer within DATABASE_TIMEOUT_MS fails (PROTOCOL_SEQUENCE_TIMEOUT, a 503), and its
// connection is not handed out again; migrations have no deadline. On a MariaDB of the test's own.
import { expect } from 'chai';
import mysql2 from 'mysql2';
import { QueryTypes, Sequelize } from 'sequelize';
import { unavailableDetail } from '../../../src/store/errors';
import { mysql2WithDeadline, withDeadline, withoutStatementDeadline } from '../../../src/store/mysql-deadline';
import { missing, startMariadb, type OwnServer } from '../../support/servers';

/** A hang detector, not a measure. */
const HANG_MS = 20_000;

function settlesWithin<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<never>(
    (_r, reject) => (timer = setTimeout(() => reject(new Error('the statement hung')), HANG_MS)),
  );
  return Promise.race([work, hung]).finally(() => clearTimeout(timer));
}

describe('statement deadlines on MySQL/MariaDB (mysql-deadline.ts)', function () {
  this.timeout(300_000);
  let mariadb: OwnServer | undefined;
  let sequelize: Sequelize | undefined;

  before(async function () {
    const reason = missing('mariadbd', 'mariadb-install-db', 'mariadb-admin');
    if (reason) {
      console.log(`      skipped: ${reason}`);
      this.skip();
    }
    mariadb = await startMariadb();
    sequelize = new Sequelize(mariadb.url, {
      logging: false,
      dialect: 'mysql',
      dialectModule: mysql2WithDeadline(500),
      pool: { max: 1 },
    });
  });
  after(async () => {
    await sequelize?.close();
    await mariadb?.close();
  });

  it("Sequelize: a statement past the deadline fails as unavailable, and the pool's next statement runs on a new connection", async () => {
    const connectionId = async () =>
      (await sequelize!.query<{ id: number }>('SELECT CONNECTION_ID() AS id', { type: QueryTypes.SELECT }))[0]!.id;
    const first = await connectionId();
    const err = await settlesWithin(
      sequelize!.query('SELECT SLEEP(5)').then(
        () => undefined,
        (e: unknown) => e,
      ),
    );
    expect((err as { parent?: { code?: string } }).parent?.code).to.equal('PROTOCOL_SEQUENCE_TIMEOUT');
    expect(unavailableDetail(err)).to.equal('The service is unavailable at the moment; try again shortly.');
    expect(await connectionId()).not.to.equal(first);
  });

  it('a migration (withoutStatementDeadline) may take longer than the deadline', async () => {
    const rows = await withoutStatementDeadline(() =>
      sequelize!.query<{ s: number }>('SELECT SLEEP(1) AS s', { type: QueryTypes.SELECT }),
    );
    expect(rows).to.deep.equal([{ s: 0 }]);
  });

  it("a mysql2 pool's connections (the readers): execute() past the deadline fails, the next one answers on a new connection", async () => {
    const pool = mysql2.createPool({ uri: mariadb!.url, connectionLimit: 1 });
    pool.on('connection', (connection) => withDeadline(connection, 500));
    const execute = (sql: string) =>
      new Promise<unknown>((resolve, reject) =>
        pool.execute(sql, [], (err, rows) => (err ? reject(err) : resolve(rows))),
      );
    const connectionId = async () =>
      ((await settlesWithin(execute('SELECT CONNECTION_ID() AS id'))) as [{ id: number }])[0].id;
    try {
      const first = await connectionId();
      const err = await settlesWithin(
        execute('SELECT SLEEP(5)').then(
          () => undefined,
          (e: unknown) => e,
        ),
      );
      expect((err as { code?: string }).code).to.equal('PROTOCOL_SEQUENCE_TIMEOUT');
      expect(await connectionId()).not.to.equal(first);
    } finally {
      await pool.promise().end();
    }
  });
});
