// GET /readyz: the database's readiness is read on a connection of its own, never behind the pools' traffic.
import { expect } from 'chai';
import type { PoolConnection } from 'mysql2';
import { isSqlite, mysqlPools } from '../support/engine';
import { resetDatabase } from '../support/db';
import { api } from '../support/http';
import { testConfig } from '../support/config';
import { testStore } from '../support/runtime';

describe('GET /readyz', () => {
  beforeEach(resetDatabase);

  it('answers 200 {"status":"ready"} while the database reads its tables', async () => {
    const res = await api().get('/readyz').expect(200);
    expect(res.body).to.deep.equal({ status: 'ready' });
  });

  describe('on MySQL/MariaDB with every pooled connection taken', function () {
    before(function () {
      if (isSqlite(testStore())) this.skip(); // SQLite's probe is a lookup, which goes ahead of the readers' line
    });

    it('still answers 200: its connection is its own, not a slot it would wait for', async () => {
      const size = testConfig().DATABASE_POOL_MAX;
      const manager = testStore().sequelize.connectionManager;
      const writers = await Promise.all(Array.from({ length: size }, () => manager.getConnection({ type: 'write' })));
      const pool = mysqlPools(testStore()).read;
      const readers = await Promise.all(
        Array.from(
          { length: size },
          () =>
            new Promise<PoolConnection>((resolve, reject) =>
              pool.getConnection((err, c) => (err ? reject(err) : resolve(c))),
            ),
        ),
      );
      try {
        const res = await api().get('/readyz').expect(200);
        expect(res.body).to.deep.equal({ status: 'ready' });
      } finally {
        for (const c of writers) manager.releaseConnection(c);
        for (const c of readers) c.release();
      }
    });
  });
});
