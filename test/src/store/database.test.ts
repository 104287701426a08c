// The SQLite connection settings migrate() applies, read back from a real database file in a process of its own.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { serviceEnv } from '../../support/process';

const ROOT = path.resolve(__dirname, '../../..');

/** Opens the database of `env` as the service does (a runtime, migrate) and reads the connection's PRAGMAs. */
function pragmas(env: NodeJS.ProcessEnv): Record<string, unknown> {
  const script = `
    const { loadConfig } = require('./src/config');
    const { createRuntime } = require('./src/runtime');
    const { migrate } = require('./src/store/migrate');
    (async () => {
      const runtime = createRuntime(loadConfig());
      const db = runtime.store.sequelize;
      await migrate(runtime.store);
      const out = {};
      for (const name of ['journal_mode', 'busy_timeout', 'synchronous', 'foreign_keys']) {
        const [row] = await db.query('PRAGMA ' + name, { type: 'SELECT' });
        out[name] = Object.values(row)[0];
      }
      await runtime.close();
      console.log(JSON.stringify(out));
    })();`;
  const res = spawnSync(process.execPath, ['--require', 'tsx/cjs', '-e', script], { cwd: ROOT, env, encoding: 'utf8' });
  if (res.status !== 0) throw new Error(res.stderr);
  return JSON.parse(res.stdout) as Record<string, unknown>;
}

describe('migrate(testStore()) on a SQLite file', function () {
  this.timeout(600_000);

  it('sets WAL, a busy timeout, foreign keys and synchronous=NORMAL by default', () => {
    expect(pragmas(serviceEnv())).to.deep.equal({
      journal_mode: 'wal',
      busy_timeout: 5000,
      synchronous: 1,
      foreign_keys: 1,
    });
  });

  it('SQLITE_SYNCHRONOUS=FULL syncs the WAL on every commit', () => {
    expect(pragmas(serviceEnv({ SQLITE_SYNCHRONOUS: 'FULL' }))).to.include({ journal_mode: 'wal', synchronous: 2 });
  });
});
