// The SQLite connection settings migrate() applies, read back from a real database file: the service's configuration,
// runtime and migration, in this process (the file is the test's own).
import { expect } from 'chai';
import { QueryTypes } from 'sequelize';
import { loadConfig } from '../../../src/config';
import { createRuntime } from '../../../src/runtime';
import { migrate } from '../../../src/store/migrate';
import { serviceEnv } from '../../support/process';

/** Opens the database of `env` as the service does (a runtime, migrate) and reads the connection's PRAGMAs. */
async function pragmas(env: NodeJS.ProcessEnv): Promise<Record<string, unknown>> {
  const runtime = createRuntime(loadConfig(env));
  try {
    await migrate(runtime.store);
    const out: Record<string, unknown> = {};
    for (const name of ['journal_mode', 'busy_timeout', 'synchronous', 'foreign_keys']) {
      const [row] = await runtime.store.sequelize.query<Record<string, unknown>>(`PRAGMA ${name}`, {
        type: QueryTypes.SELECT,
      });
      out[name] = Object.values(row!)[0];
    }
    return out;
  } finally {
    await runtime.close();
  }
}

describe('migrate(testStore()) on a SQLite file', function () {
  this.timeout(600_000);

  it('sets WAL, a busy timeout, foreign keys and synchronous=NORMAL by default', async () => {
    expect(await pragmas(serviceEnv())).to.deep.equal({
      journal_mode: 'wal',
      busy_timeout: 5000,
      synchronous: 1,
      foreign_keys: 1,
    });
  });

  it('SQLITE_SYNCHRONOUS=FULL syncs the WAL on every commit', async () => {
    expect(await pragmas(serviceEnv({ SQLITE_SYNCHRONOUS: 'FULL' }))).to.include({
      journal_mode: 'wal',
      synchronous: 2,
    });
  });
});
