// On a SQLite file, the lookups by key a request makes before its real work (its token, session, user) are read at once
// on the main thread (src/store/sqlite/key-reader.ts), not on a reader: they never wait behind reads, and they see every
// write committed before them. When that connection cannot read (the file locked), the lookup goes to a reader.
import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createUser } from '../../../src/auth/users';
import { tokenFor, userForToken } from '../../../src/auth/tokens';
import { createRuntime, type Runtime } from '../../../src/runtime';
import { cancelledWith } from '../../../src/store/cancellation';
import { migrate } from '../../../src/store/migrate';
import { select } from '../../../src/store/select';
import { KeyReader, nodeSqlite } from '../../../src/store/sqlite/key-reader';
import { deleteToken } from '../../../src/store/tokens';
import { eventually, isSqlite, sqliteLanes } from '../../support/engine';
import { testConfig } from '../../support/config';
import { suiteLogger } from '../../support/log';
import { testStore } from '../../support/runtime';

/** SQLite: counts to `n` one row at a time; 1e10 takes many minutes. */
const COUNT = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ?) SELECT count(*) AS n FROM c';

describe('lookups by key on a SQLite file', function () {
  this.timeout(120_000);
  let dir: string;
  let runtime: Runtime | undefined;

  before(function () {
    if (!isSqlite(testStore())) this.skip();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'snippets-key-reader-'));
  });
  afterEach(async () => {
    await runtime?.close();
    runtime = undefined;
  });
  after(() => dir && fs.rmSync(dir, { recursive: true, force: true }));

  async function open() {
    runtime = createRuntime(testConfig({ DATABASE_URL: `sqlite:${path.join(dir, `db-${Date.now()}.sqlite3`)}` }), {
      log: suiteLogger,
    });
    await migrate(runtime.store);
    const alice = await createUser(runtime.store, 'alice', 'alicepass', { iterations: 1 });
    return { store: runtime.store, alice, key: await tokenFor(runtime.store, alice) };
  }

  it('answers while every reader is busy: a lookup takes no reader', async () => {
    const { store, alice, key } = await open();
    const stop = new AbortController();
    const long = [1, 2].map(() =>
      cancelledWith(stop.signal, () => select(store, COUNT, [1e10])).catch(() => 'stopped'),
    );
    try {
      await eventually(async () => sqliteLanes(store).read.idleReaders.length === 0);
      const user = await Promise.race([
        userForToken(store, key),
        new Promise((resolve) => setTimeout(() => resolve('waited for a reader'), 5000)),
      ]);
      expect(user).to.deep.equal({ id: alice.id, username: 'alice', storedBytes: 0 });
    } finally {
      stop.abort();
      await Promise.all(long);
    }
  });

  it('sees a write committed just before it: a deleted token finds no one at once', async () => {
    const { store, alice, key } = await open();
    expect(await userForToken(store, key)).to.include({ id: alice.id });
    expect(await deleteToken(store, alice.id)).to.equal(true);
    expect(await userForToken(store, key)).to.equal(undefined);
  });

  it('cannot read while another connection holds the file locked, nor after an error or its close: answers undefined, never waits nor throws', () => {
    // Rollback-journal mode, where a writer's EXCLUSIVE lock keeps readers out (in WAL mode, as the service runs,
    // readers are kept out only while the WAL's index is rebuilt).
    const file = path.join(dir, 'locked.sqlite3');
    const other = new (nodeSqlite().DatabaseSync)(file);
    other.exec(
      "PRAGMA journal_mode = DELETE; CREATE TABLE t (k TEXT PRIMARY KEY, v INTEGER); INSERT INTO t VALUES ('a', 1)",
    );
    const reader = new KeyReader(file);
    try {
      const sql = 'SELECT v FROM t WHERE k = ?';
      expect(reader.all(sql, ['a'])).to.deep.equal([{ v: 1 }]);
      other.exec('BEGIN EXCLUSIVE; UPDATE t SET v = 2');
      expect(reader.all(sql, ['a'])).to.equal(undefined);
      other.exec('COMMIT');
      expect(reader.all(sql, ['a'])).to.deep.equal([{ v: 2 }]);
      // A value node:sqlite cannot bind (a Date) is left to a reader too.
      expect(reader.all(sql, [new Date()])).to.equal(undefined);
      // So is any other error (a reader meets it too, and the store answers it as it answers every read's); the
      // lookups after it read at once again.
      expect(reader.all('SELECT v FROM no_such_table WHERE k = ?', ['a'])).to.equal(undefined);
      expect(reader.all(sql, ['a'])).to.deep.equal([{ v: 2 }]);
      // Closed with its store, it opens no connection again: the lookup goes to the readers.
      reader.close();
      expect(reader.all(sql, ['a'])).to.equal(undefined);
    } finally {
      reader.close();
      other.close();
    }
  });
});
