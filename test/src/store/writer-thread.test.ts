// SQLite's writer thread (src/store/writer-thread.ts, src/store/sqlite/writer-worker.ts): a group of transactions runs there from BEGIN to COMMIT
// without the main thread's event loop; what a work returns or throws comes back as the same value or error type; a
// thread that ends fails the groups it had, and the next group gets a new thread; it waits for the file's lock itself
// (take-lock.ts), and gives up as SQLITE_BUSY past its bound; a SQLite file's engine runs its portable transactions there.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import sqlite3 from 'sqlite3';
import { OverQuota } from '../../../src/refusal';
import type { PortableWork } from '../../../src/store/engine';
import { SqliteEngine, sqliteWriterThread } from '../../../src/store/sqlite/engine';
import { exec } from '../../../src/store/sqlite/transaction';
import type { WriterThread } from '../../../src/store/writer-thread';

const MODULE = path.join(__dirname, 'fixtures', 'writer-ops.ts');
const work = (op: string, args?: unknown): PortableWork => ({ module: MODULE, op, args });
/** A bound on a wait that should end at once: only a group that never runs gets near it. */
const HANG_MS = 60_000;
const inserted = (label: string) => ({ label, at: new Date(0) });

describe('SQLite’s writer thread', () => {
  let dir: string;
  let file: string;
  let thread: WriterThread;

  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'writer-thread-'));
    file = path.join(dir, 'db.sqlite3');
    const db = new sqlite3.Database(file);
    await exec(db, 'PRAGMA journal_mode = WAL; CREATE TABLE writer_rows (id INTEGER PRIMARY KEY, label TEXT)');
    await new Promise((resolve) => db.close(resolve));
    thread = sqliteWriterThread({ file, pragmas: ['busy_timeout = 0', 'synchronous = NORMAL'], lockWaitMs: 5000 });
  });

  afterEach(async () => {
    await thread.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const labels = async () => {
    const db = new sqlite3.Database(file);
    const rows = await new Promise<{ label: string }[]>((resolve, reject) =>
      db.all('SELECT label FROM writer_rows ORDER BY id', (e: Error | null, r: { label: string }[]) =>
        e ? reject(e) : resolve(r),
      ),
    );
    await new Promise((resolve) => db.close(resolve));
    return rows.map((r) => r.label);
  };

  const walBytes = () => {
    try {
      return statSync(`${file}-wal`).size;
    } catch {
      return 0;
    }
  };

  /**
   * Blocks the main thread until the WAL has grown past `before` by a COMMIT (or the hang bound passes): on the main
   * thread's own connection, no statement after the first could run meanwhile.
   */
  const blockUntilWalGrows = (before: number) => {
    const until = Date.now() + HANG_MS;
    while (walBytes() === before && Date.now() < until);
    expect(walBytes(), 'the WAL grew while the event loop was blocked').to.be.above(before);
  };

  it('commits a group while the main thread is busy: no statement of it waits for the event loop', async () => {
    await thread.commit([work('insert', 'warm')]);
    const before = walBytes();
    const committed = thread.commit([work('insert', 'a'), work('insert', 'b'), work('insert', 'c')]);
    blockUntilWalGrows(before);
    const outcomes = await committed;
    expect(outcomes.map((o) => o.ok && o.value)).to.deep.equal(['a', 'b', 'c'].map(inserted));
  });

  it('gives back a refusal as its own type and a SQLite error with its code; the others of the group commit', async () => {
    const outcomes = await thread.commit([
      work('insert', 'x'),
      work('overQuota', 'y'),
      work('duplicate'),
      work('insert', 'z'),
    ]);
    const [, quota, duplicate] = outcomes.map((o) => (o.ok ? undefined : o.err));
    expect(quota).to.be.instanceOf(OverQuota);
    expect(quota).to.include({ quota: 100, stored: 90 });
    expect(duplicate).to.be.instanceOf(Error);
    expect(duplicate).to.include({ code: 'SQLITE_CONSTRAINT' });
    expect(await labels()).to.deep.equal(['x', 'z']);
  });

  it('fails the group of a thread that ended, storing none of it, and runs the next group on a new thread', async () => {
    const err = await thread.commit([work('insert', 'lost'), work('exit')]).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).to.include({ code: 'SQLITE_IOERR' });
    expect(await thread.commit([work('insert', 'after')])).to.deep.equal([{ ok: true, value: inserted('after') }]);
    expect(await labels()).to.deep.equal(['after']);
  });

  it('fails a group it cannot run (its file cannot be opened) with the error’s code, instead of leaving it waiting', async () => {
    const lost = sqliteWriterThread({ file: path.join(dir, 'missing', 'db.sqlite3'), pragmas: [], lockWaitMs: 5000 });
    try {
      const err = await lost.commit([work('insert', 'nowhere')]).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).to.include({ code: 'SQLITE_CANTOPEN' });
    } finally {
      await lost.close();
    }
  });

  /** Another process's writer, in this test another connection: it holds the file's write lock until released. */
  const lockHolder = async () => {
    const db = new sqlite3.Database(file);
    await exec(db, 'BEGIN IMMEDIATE');
    return async () => {
      await exec(db, 'COMMIT');
      await new Promise((resolve) => db.close(resolve));
    };
  };

  it('takes the file’s lock itself: a group sent while another connection holds it commits once it is freed', async () => {
    await thread.commit([work('insert', 'warm')]);
    const release = await lockHolder();
    let settled = false;
    const committed = thread.commit([work('insert', 'waited')]).finally(() => (settled = true));
    // Time for the thread to find the lock taken (its busy timeout is 0): only a wait that gave up would settle.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(settled, 'the group settled while the lock was held').to.equal(false);
    await release();
    expect(await committed).to.deep.equal([{ ok: true, value: inserted('waited') }]);
    expect(await labels()).to.deep.equal(['warm', 'waited']);
  });

  it('fails a group as a busy store (SQLITE_BUSY, a 503) when the lock stays taken past its wait', async () => {
    const impatient = sqliteWriterThread({ file, pragmas: ['busy_timeout = 0'], lockWaitMs: 50 });
    const release = await lockHolder();
    try {
      const [outcome] = await impatient.commit([work('insert', 'never')]);
      expect(outcome).to.include({ ok: false });
      expect(outcome!.ok || outcome!.err).to.include({ code: 'SQLITE_BUSY' });
    } finally {
      await release();
      await impatient.close();
    }
    expect(await labels()).to.deep.equal([]);
  });

  it('is where a SQLite file’s engine runs a portable transaction', async () => {
    const engine = new SqliteEngine(`sqlite:${file}`, {});
    try {
      await engine.configure();
      const tx = (label: string) =>
        engine.transaction(() => Promise.reject(new Error('the main thread ran the work')), work('insert', label));
      await tx('warm');
      const before = walBytes();
      const committed = tx('busy');
      // The group reaches the thread once the writer's line is taken: a few turns of the event loop.
      for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
      blockUntilWalGrows(before);
      expect(await committed).to.deep.equal(inserted('busy'));
    } finally {
      await engine.close();
    }
    expect(await labels()).to.deep.equal(['warm', 'busy']);
  });
});
