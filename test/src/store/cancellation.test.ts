// A read stopped at its deadline (DATABASE_TIMEOUT_MS) or by its client going away is stopped in the engine, not only
// no longer waited for: gone from MariaDB's process list, interrupted on its SQLite reader (which is free again at
// once); stopped in line, it never starts. The statements would run for minutes; every wait here is a hang detector.
import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRuntime, type Runtime } from '../../../src/runtime';
import { cancelledWith } from '../../../src/store/cancellation';
import { eventually, isSqlite, sqliteLanes, statementsRunning } from '../../support/engine';
import { CLIENT_GONE, STORE_DOWN, unavailableDetail } from '../../../src/store/errors';
import { select } from '../../../src/store/select';
import { testConfig } from '../../support/config';
import { suiteLogger } from '../../support/log';
import { testStore } from '../../support/runtime';

/** How a promise settled: its value, or the error it rejected with. */
const outcome = <T>(p: Promise<T>) =>
  p.then(
    (value) => ({ value }),
    (error: Error & { code?: string }) => ({ error }),
  );

let markers = 0;
/** A name no other statement on the server holds (the tests of other checkouts share it). */
const marker = () => `stop_${process.pid}_${Date.now()}_${markers++}`;

/**
 * MySQL/MariaDB: hashes the rows of MariaDB's sequence engine, `n` of them; 1e11 takes hours. Not SLEEP(), which looks
 * every 5 s for a client gone and stops, nor BENCHMARK(), which max_statement_time ends with a result (0) instead of
 * an error: a long scan, as this, is stopped only by the engine.
 */
const HASHES = (m: string, n: string) => `SELECT SUM(MD5(seq) > 'stop') AS ${m} FROM seq_1_to_${n}`;
const HOURS = '100000000000';

/** SQLite: counts to `n` one row at a time; 1e10 takes many minutes. */
const COUNT = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ?) SELECT count(*) AS n FROM c';
const FOREVER = 1e10;

describe('a read of the store, stopped', function () {
  this.timeout(120_000);

  describe('on MySQL/MariaDB', () => {
    let runtime: Runtime | undefined;
    const open = (settings: Record<string, string>) =>
      (runtime = createRuntime(testConfig(settings), { log: suiteLogger }));
    const running = (m: string) => statementsRunning(testStore().sequelize, m);

    before(function () {
      if (isSqlite(testStore())) this.skip();
    });
    afterEach(async () => {
      await runtime?.close();
      runtime = undefined;
    });

    it('past DATABASE_TIMEOUT_MS: answered 503, and gone from SHOW PROCESSLIST within seconds', async () => {
      const { store } = open({ DATABASE_TIMEOUT_MS: '200' });
      const m = marker();
      // A connection open and the statement prepared on it: the long one then starts at once, well within its 200 ms.
      await select(store, HASHES(m, '1'), []);
      const { error } = (await outcome(select(store, HASHES(m, HOURS), []))) as { error?: Error };
      expect(unavailableDetail(error)).to.equal(STORE_DOWN);
      await eventually(async () => (await running(m)) === 0);
    });

    it("a write connection's statement past DATABASE_TIMEOUT_MS (Sequelize's pool): gone from SHOW PROCESSLIST too", async () => {
      const { store } = open({ DATABASE_TIMEOUT_MS: '200' });
      const m = marker();
      const { error } = (await outcome(store.sequelize.query(HASHES(m, HOURS)))) as { error?: Error };
      expect(unavailableDetail(error)).to.equal(STORE_DOWN);
      await eventually(async () => (await running(m)) === 0);
    });

    it('its client gone while it runs: answered at once, and gone from SHOW PROCESSLIST', async () => {
      const { store } = open({ DATABASE_TIMEOUT_MS: '600000' });
      const client = new AbortController();
      const m = marker();
      const read = outcome(cancelledWith(client.signal, () => select(store, HASHES(m, HOURS), [])));
      await eventually(async () => (await running(m)) === 1);
      client.abort();
      const { error } = (await read) as { error?: Error };
      expect(unavailableDetail(error)).to.equal(CLIENT_GONE);
      await eventually(async () => (await running(m)) === 0);
    });

    it('its client gone while it waits for a connection: it never starts', async () => {
      const { store } = open({ DATABASE_TIMEOUT_MS: '60000', DATABASE_POOL_MAX: '1' });
      const [first, second] = [new AbortController(), new AbortController()];
      const [m1, m2] = [marker(), marker()];
      const running1 = outcome(cancelledWith(first.signal, () => select(store, HASHES(m1, HOURS), [])));
      await eventually(async () => (await running(m1)) === 1);
      const queued = outcome(cancelledWith(second.signal, () => select(store, HASHES(m2, HOURS), [])));
      second.abort();
      expect(unavailableDetail(((await queued) as { error?: Error }).error)).to.equal(CLIENT_GONE);
      first.abort();
      await running1;
      // The pool's one connection goes to those in line in turn: had the abandoned read taken it (before either of
      // these, or between them), it would hold it for hours, and one of these would be answered 503 after a minute.
      for (let i = 0; i < 2; i++) expect(await select(store, 'SELECT 1 AS one')).to.deep.equal([{ one: 1 }]);
      expect(await running(m2)).to.equal(0);
    });
  });

  describe('on a SQLite file', () => {
    let dir: string;
    let runtime: Runtime | undefined;
    const open = async (settings: Record<string, string>) => {
      runtime = createRuntime(testConfig({ DATABASE_URL: `sqlite:${path.join(dir, 'db.sqlite3')}`, ...settings }), {
        log: suiteLogger,
      });
      await runtime.store.engine.configure();
      return runtime.store;
    };

    before(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'snippets-stop-'))));
    afterEach(async () => {
      await runtime?.close();
      runtime = undefined;
    });
    after(() => fs.rmSync(dir, { recursive: true, force: true }));

    it('past DATABASE_TIMEOUT_MS: answered 503, interrupted, and its reader takes the same statement right after', async () => {
      const store = await open({ DATABASE_TIMEOUT_MS: '200' });
      // One long read for each reader: a reader still running one would leave the next read waiting for minutes.
      const reads = await Promise.all([1, 2].map(() => outcome(select(store, COUNT, [FOREVER]))));
      for (const read of reads) expect(unavailableDetail((read as { error?: Error }).error)).to.equal(STORE_DOWN);
      await eventually(async () => sqliteLanes(store).read.idleReaders.length === 2);
      expect(await select(store, COUNT, [1000])).to.deep.equal([{ n: 1000 }]);
      expect(await select(store, COUNT, [1000])).to.deep.equal([{ n: 1000 }]);
    });

    it('its client gone while it runs: answered at once, interrupted; gone while in line: it never starts', async () => {
      const store = await open({ DATABASE_TIMEOUT_MS: '600000' });
      const [first, second] = [new AbortController(), new AbortController()];
      const runningReads = [1, 2].map(() =>
        outcome(cancelledWith(first.signal, () => select(store, COUNT, [FOREVER]))),
      );
      await eventually(async () => sqliteLanes(store).read.idleReaders.length === 0);
      const queued = outcome(cancelledWith(second.signal, () => select(store, COUNT, [FOREVER])));
      second.abort();
      expect(unavailableDetail(((await queued) as { error?: Error }).error)).to.equal(CLIENT_GONE);
      first.abort();
      for (const read of await Promise.all(runningReads))
        expect(unavailableDetail((read as { error?: Error }).error)).to.equal(CLIENT_GONE);
      // Both readers free: neither runs the abandoned read (it would hold one for minutes).
      await eventually(async () => sqliteLanes(store).read.idleReaders.length === 2);
      expect(await select(store, COUNT, [10])).to.deep.equal([{ n: 10 }]);
      expect(sqliteLanes(store).read.idleReaders.length).to.equal(2);
    });
  });
});
