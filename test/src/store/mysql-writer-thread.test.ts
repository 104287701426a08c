// MySQL/MariaDB's writer thread (src/store/writer-thread.ts, src/store/mysql/writer-worker.ts): the engine runs a
// portable transaction there from START TRANSACTION to COMMIT without the main thread's event loop, several at once
// (one waiting for a lock holds up no other), under the statement deadline; a value, a refusal and mysql2's errors
// come back as they were; a thread that ends fails its work as a lost connection and the next gets a new thread.
// On the MariaDB of the suite's MariaDB pass (DATABASE_URL); skipped on SQLite.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { expect } from 'chai';
import { createConnection, type Connection } from 'mysql2/promise';
import { OverQuota } from '../../../src/refusal';
import type { PortableWork } from '../../../src/store/engine';
import { STORE_DOWN, unavailableDetail } from '../../../src/store/errors';
import { MysqlEngine } from '../../../src/store/mysql/engine';
import { server } from '../../../src/store/mysql/server';
import { missing } from '../../support/servers';

const MODULE = path.join(__dirname, 'fixtures', 'writer-ops.ts');
const work = (op: string, args?: unknown): PortableWork => ({ module: MODULE, op, args });
const onMainThread = () => Promise.reject(new Error('the main thread ran the work'));
/** A bound on a wait that should end at once: only work that never runs gets near it. */
const HANG_MS = 20_000;
const inserted = (label: string) => ({ label, at: new Date(0) });

describe('MySQL/MariaDB’s writer thread', function () {
  const url = process.env.DATABASE_URL ?? '';
  let engine: MysqlEngine;
  let admin: Connection;

  before(async function () {
    if (!/^(mysql|mariadb):/.test(url)) this.skip();
    const s = server(url);
    admin = await createConnection({
      host: s.host,
      port: s.port,
      user: s.username,
      password: s.password,
      database: s.database,
    });
  });
  after(async () => {
    await admin?.query('DROP TABLE IF EXISTS writer_rows');
    await admin?.end();
  });

  beforeEach(async () => {
    await admin.query('DROP TABLE IF EXISTS writer_rows');
    await admin.query(
      'CREATE TABLE writer_rows (id INTEGER PRIMARY KEY AUTO_INCREMENT, label VARCHAR(40)) ENGINE=InnoDB',
    );
    // A deadline no statement here meets but the one waiting for a lock in the deadline's own test (its engine's).
    engine = new MysqlEngine({ DATABASE_URL: url, DATABASE_TIMEOUT_MS: 20_000 });
  });
  afterEach(async () => {
    await engine.close();
  });

  const labels = async () => {
    const [rows] = await admin.query('SELECT label FROM writer_rows ORDER BY id');
    return (rows as { label: string }[]).map((r) => r.label);
  };
  const tx = (op: string, args?: unknown) => engine.transaction(onMainThread, work(op, args));
  const failure = (p: Promise<unknown>) =>
    p.then(
      () => undefined,
      (e: unknown) => e,
    );

  it('commits an engine’s portable transaction while the main thread is blocked: none of its statements waits for the event loop', async function () {
    const reason = missing('mariadb');
    if (reason) this.skip();
    await tx('insert', 'warm');
    const committed = tx('insert', 'busy');
    // The main thread blocks here, reading the table through the command-line client until the row is there.
    const s = server(url);
    const count = () =>
      Number(
        execFileSync('mariadb', [
          `-h${s.host}`,
          `-P${s.port}`,
          `-u${s.username}`,
          `-p${s.password}`,
          '-N',
          '-e',
          'SELECT COUNT(*) FROM writer_rows',
          s.database,
        ]).toString(),
      );
    const until = Date.now() + HANG_MS;
    while (count() < 2 && Date.now() < until);
    expect(count(), 'the row committed while the event loop was blocked').to.equal(2);
    expect(await committed).to.deep.equal(inserted('busy'));
  });

  it('gives back a refusal as its own type and mysql2’s error with its code and errno; neither is stored', async () => {
    await tx('insert', 'x');
    const quota = await failure(tx('overQuota', 'y'));
    expect(quota).to.be.instanceOf(OverQuota);
    expect(quota).to.include({ quota: 100, stored: 90 });
    const duplicate = await failure(tx('duplicate'));
    expect(duplicate).to.be.instanceOf(Error);
    expect(duplicate).to.include({ code: 'ER_DUP_ENTRY', errno: 1062 });
    expect(await labels()).to.deep.equal(['x']);
  });

  it('runs transactions at once: one waiting for a row’s lock holds up no other', async () => {
    await tx('insert', 'locked');
    await admin.query('START TRANSACTION');
    await admin.query('SELECT id FROM writer_rows WHERE id = 1 FOR UPDATE');
    let waited = false;
    const relabel = tx('relabel', { id: 1, label: 'relabelled' }).finally(() => (waited = true));
    try {
      expect(await tx('insert', 'beside')).to.deep.equal(inserted('beside'));
      expect(waited, 'the UPDATE waited for the lock').to.equal(false);
    } finally {
      await admin.query('COMMIT');
    }
    expect(await relabel).to.equal(1);
    expect(await labels()).to.deep.equal(['relabelled', 'beside']);
  });

  it('counts the rows a statement changed, not those it matched, as on Sequelize’s connections (the Tx contract)', async () => {
    await tx('insert', 'same');
    expect(await tx('relabel', { id: 1, label: 'same' })).to.equal(0);
    expect(
      await engine.transaction((t) => t.change('UPDATE writer_rows SET label = ? WHERE id = ?', ['same', 1])),
    ).to.equal(0);
    expect(await tx('relabel', { id: 1, label: 'other' })).to.equal(1);
  });

  it('fails a statement past DATABASE_TIMEOUT_MS as unavailable (a 503), and the thread goes on', async () => {
    const impatient = new MysqlEngine({ DATABASE_URL: url, DATABASE_TIMEOUT_MS: 500 });
    const on = (op: string, args?: unknown) => impatient.transaction(onMainThread, work(op, args));
    try {
      await on('insert', 'locked');
      await admin.query('START TRANSACTION');
      await admin.query('SELECT id FROM writer_rows WHERE id = 1 FOR UPDATE');
      try {
        const err = await failure(on('relabel', { id: 1, label: 'never' }));
        expect(err).to.include({ code: 'PROTOCOL_SEQUENCE_TIMEOUT' });
        expect(unavailableDetail(err)).to.equal(STORE_DOWN);
      } finally {
        await admin.query('COMMIT');
      }
      expect(await on('insert', 'after')).to.deep.equal(inserted('after'));
    } finally {
      await impatient.close();
    }
    expect(await labels()).to.deep.equal(['locked', 'after']);
  });

  it('fails the work of a thread that ended as a lost connection (a 503), storing none of it, and runs the next on a new thread', async () => {
    await tx('insert', 'before');
    const err = await failure(tx('exit'));
    expect(err).to.include({ code: 'PROTOCOL_CONNECTION_LOST' });
    expect(unavailableDetail(err)).to.equal(STORE_DOWN);
    expect(await tx('insert', 'after')).to.deep.equal(inserted('after'));
    expect(await labels()).to.deep.equal(['before', 'after']);
  });
});
