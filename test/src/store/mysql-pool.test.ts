// The store's mysql2 pools keep their connections between statements (src/store/mysql/server.ts poolOptions): with
// `maxIdle` under the pool's size, mysql2 closed every free connection each second, and the next statements paid a
// new connection and the preparing of every statement again (bench:mixed on MariaDB: 302 connections and 1,099
// prepares in one run, 31 and 108 with them kept; docs/benchmarks.md, "mysql2's idle connections"). MySQL/MariaDB only.
import { expect } from 'chai';
import type { Pool, RowDataPacket } from 'mysql2';
import { QueryTypes } from 'sequelize';
import { eventually, isSqlite, mysqlPools } from '../../support/engine';
import { testStore } from '../../support/runtime';

/** The server's id of the connection a pool runs a statement on. */
const connectionOf = (pool: Pool) =>
  new Promise<number>((resolve, reject) =>
    pool.execute<RowDataPacket[]>('SELECT CONNECTION_ID() AS id', (err, rows) =>
      err ? reject(err) : resolve(Number(rows[0]!.id)),
    ),
  );

describe('the store’s mysql2 pools keep an idle connection (MySQL/MariaDB)', () => {
  before(function () {
    if (isSqlite(testStore())) this.skip();
  });

  it('runs the next statement on the same connection after two seconds idle', async () => {
    const { read } = mysqlPools(testStore());
    const first = await connectionOf(read);
    // mysql2's sweep runs every second.
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    expect(await connectionOf(read)).to.equal(first);
  });

  it('answers on a new connection after the server ended an idle one', async () => {
    const { read } = mysqlPools(testStore());
    const first = await connectionOf(read);
    const sequelize = testStore().sequelize;
    await sequelize.query(`KILL CONNECTION ${first}`);
    // Gone from the server, its socket closed: each poll's round trip lets the pool hear of the end meanwhile.
    const listed = async () => {
      const [row] = await sequelize.query<{ n: number }>(
        'SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE ID = ?',
        { type: QueryTypes.SELECT, replacements: [first] },
      );
      return Number(row!.n) > 0;
    };
    await eventually(async () => !(await listed()));
    expect(await connectionOf(read)).to.not.equal(first);
  });
});
