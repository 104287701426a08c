// Searches run on a lane of their own (src/store/database.ts Lane): with it busy, detail reads and plain lists answer
// as ever; a search that waits for it past SEARCH_TIMEOUT_MS is refused 503, and one that runs past it is stopped in
// the engine, the lane free after. On a SQLite file (the in-memory database has no readers) and, with DATABASE_URL, on
// MySQL/MariaDB. No timing is asserted: the lane is held by statements that run until cancelled, or by its line.
import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import supertest from 'supertest';
import type { PoolConnection } from 'mysql2';
import { createApp } from '../../server/app';
import { createUser } from '../../src/auth/users';
import { createRuntime, type Runtime } from '../../src/runtime';
import { cancelledWith } from '../../src/store/cancellation';
import type { Store } from '../../src/store/database';
import { eventually, isSqlite, mysqlPools, sqliteLanes, statementsRunning } from '../support/engine';
import { STORE_DOWN, unavailableDetail } from '../../src/store/errors';
import { migrate } from '../../src/store/migrate';
import { select } from '../../src/store/select';
import { testConfig } from '../support/config';
import { resetDatabase } from '../support/db';
import { suiteLogger } from '../support/log';
import { testStore } from '../support/runtime';

const outcome = <T>(p: Promise<T>) =>
  p.then(
    (value) => ({ value }),
    (error: Error & { code?: string }) => ({ error }),
  );

let markers = 0;
const marker = () => `lane_${process.pid}_${Date.now()}_${markers++}`;

/**
 * A statement that runs for hours on either engine unless stopped. MariaDB: a scan of its sequence engine's rows, not
 * BENCHMARK(), which max_statement_time ends with a result (0) instead of an error.
 */
const forever = (store: Store, m: string) =>
  isSqlite(store)
    ? {
        sql: `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ?) SELECT count(*) AS ${m} FROM c`,
        params: [1e10],
      }
    : { sql: `SELECT SUM(MD5(seq) > ?) AS ${m} FROM seq_1_to_100000000000`, params: ['lane'] };

describe('searches on a lane of their own', function () {
  this.timeout(120_000);
  let dir: string;
  let runtime: Runtime | undefined;

  const sqlite = () => isSqlite(testStore());
  /** A runtime of the test's own on the suite's database (SQLite: a file, for its readers), one user and snippet in it. */
  async function open(
    settings: Record<string, string>,
  ): Promise<{ store: Store; api: ReturnType<typeof supertest>; id: number }> {
    const url: Record<string, string> = sqlite()
      ? { DATABASE_URL: `sqlite:${path.join(dir, `db${markers++}.sqlite3`)}` }
      : {};
    runtime = createRuntime(testConfig({ ...url, ...settings }), { log: suiteLogger });
    const { store } = runtime;
    if (isSqlite(store)) await store.engine.configure();
    await migrate(store);
    const user = await createUser(store, 'alice', 'alicepass', { iterations: 1000 });
    const snippet = await store.models.Snippet.create({
      code: 'print("zq_rare_marker")',
      title: '',
      language: 'python',
      ownerId: user.id,
    });
    return { store, api: supertest(createApp(runtime)), id: snippet.id };
  }
  /** Whether `n` statements holding `m` run: SQLite, the lane's readers all taken; MySQL/MariaDB, in the process list. */
  const running = (store: Store, m: string, n: number) => async () =>
    isSqlite(store)
      ? sqliteLanes(store).search.readers !== undefined && sqliteLanes(store).search.idleReaders.length === 0 && n > 0
      : (await statementsRunning(store.sequelize, m)) === n;

  before(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'snippets-lane-'))));
  beforeEach(() => resetDatabase());
  afterEach(async () => {
    await runtime?.close();
    runtime = undefined;
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('with every search connection running a statement: a detail read and the plain list answer 200', async () => {
    // As many read connections as search ones: had the searches' statements taken the readers, these reads would wait
    // for them until the test's timeout (a hang detector). No deadline ends them sooner: with a shorter
    // DATABASE_TIMEOUT_MS, MariaDB's max_statement_time would end statements on the read pool before the reads' own.
    const { store, api, id } = await open({
      SEARCH_POOL_MAX: '2',
      DATABASE_POOL_MAX: '2',
      SEARCH_TIMEOUT_MS: '600000',
      DATABASE_TIMEOUT_MS: '600000',
    });
    const width = isSqlite(store) ? sqliteLanes(store).search.width : 2;
    const client = new AbortController();
    const m = marker();
    const { sql, params } = forever(store, m);
    const held = Array.from({ length: width }, () =>
      outcome(cancelledWith(client.signal, () => select(store, sql, params, 'search'))),
    );
    try {
      await eventually(running(store, m, width));
      const detail = await api.get(`/snippets/${id}/`);
      expect(detail.status, JSON.stringify(detail.body)).to.equal(200);
      expect(detail.body).to.include({ id });
      const list = await api.get('/snippets/');
      expect(list.status, JSON.stringify(list.body)).to.equal(200);
      expect((list.body as { id: number }[]).map((s) => s.id)).to.deep.equal([id]);
    } finally {
      client.abort();
      await Promise.all(held);
      // Stopped in the engine before the runtime (and its killer) closes, not left running for hours.
      await eventually(async () =>
        isSqlite(store)
          ? sqliteLanes(store).search.idleReaders.length === width
          : (await statementsRunning(store.sequelize, m)) === 0,
      );
    }
  });

  it('a search waiting for its lane past SEARCH_TIMEOUT_MS: 503 with Retry-After; answered once the lane is free', async () => {
    const { store, api, id } = await open({
      SEARCH_POOL_MAX: '1',
      SEARCH_TIMEOUT_MS: '300',
      DATABASE_TIMEOUT_MS: '60000',
    });
    // The lane held: its reader's place in line (SQLite), its one connection (MySQL/MariaDB).
    let release: () => void;
    if (isSqlite(store)) {
      for (let i = 0; i < sqliteLanes(store).search.width; i++) await sqliteLanes(store).search.readerGate.enter();
      release = () => {
        for (let i = 0; i < sqliteLanes(store).search.width; i++) sqliteLanes(store).search.readerGate.leave();
      };
    } else {
      const [pool] = mysqlPools(store).search;
      const connection = await new Promise<PoolConnection>((resolve, reject) =>
        pool!.getConnection((err, c) => (err ? reject(err) : resolve(c))),
      );
      release = () => connection.release();
    }
    const refused = await api.get('/snippets/').query({ search: 'zq_rare_marker' });
    // The plain list does not wait for the lane.
    await api.get('/snippets/').expect(200);
    release();
    expect(refused.status, JSON.stringify(refused.body)).to.equal(503);
    expect(refused.headers['retry-after']).to.match(/^\d+$/);
    expect(refused.body).to.deep.equal({ detail: STORE_DOWN });
    const found = await api.get('/snippets/').query({ search: 'zq_rare_marker' }).expect(200);
    expect((found.body as { id: number }[]).map((s) => s.id)).to.deep.equal([id]);
  });

  it('a search statement past SEARCH_TIMEOUT_MS is stopped in the engine (503), and the lane is free after', async () => {
    // DATABASE_TIMEOUT_MS far away: only the lane's own deadline can stop it.
    const { store, api, id } = await open({
      SEARCH_POOL_MAX: '1',
      SEARCH_TIMEOUT_MS: '300',
      DATABASE_TIMEOUT_MS: '600000',
    });
    const m = marker();
    const { sql, params } = forever(store, m);
    if (!isSqlite(store)) await select(store, `SELECT 1 AS ${m}`, [], 'search'); // a connection open: the statement starts at once
    const { error } = (await outcome(select(store, sql, params, 'search'))) as { error?: Error };
    expect(unavailableDetail(error)).to.equal(STORE_DOWN);
    if (isSqlite(store))
      await eventually(async () => sqliteLanes(store).search.idleReaders.length === sqliteLanes(store).search.width);
    else await eventually(async () => (await statementsRunning(store.sequelize, m)) === 0);
    const found = await api.get('/snippets/').query({ search: 'zq_rare_marker' }).expect(200);
    expect((found.body as { id: number }[]).map((s) => s.id)).to.deep.equal([id]);
  });
});
