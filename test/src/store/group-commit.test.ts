// Group commit on SQLite's writer (src/store/sqlite/group-commit.ts): the transactions queued while one runs commit
// together, each in its savepoint; a refused one rolls back alone; a caller hears of its work only after the COMMIT
// that holds it, and a failed COMMIT fails every work of its group. On a database in memory, its one connection held
// by the test as SqliteEngine.holdWriter holds the writer.
import { expect } from 'chai';
import sqlite3 from 'sqlite3';
import { GroupCommit, GROUP_MAX } from '../../../src/store/sqlite/group-commit';
import { exec, writerStatements } from '../../../src/store/sqlite/transaction';
import type { Tx } from '../../../src/store/engine';

function all<T>(db: sqlite3.Database, sql: string): Promise<T[]> {
  return new Promise((resolve, reject) =>
    db.all(sql, (err: Error | null, rows: T[]) => (err ? reject(err) : resolve(rows))),
  );
}

describe('GroupCommit (SQLite’s writer)', () => {
  let db: sqlite3.Database;
  /** Each hold of the writer: the works its group ran, by label. */
  let holds: string[][];
  let groups: GroupCommit;

  beforeEach(async () => {
    db = await new Promise<sqlite3.Database>((resolve, reject) => {
      const opened = new sqlite3.Database(':memory:', (err) => (err ? reject(err) : resolve(opened)));
    });
    await exec(
      db,
      `PRAGMA foreign_keys = ON;
       CREATE TABLE owners (id INTEGER PRIMARY KEY);
       CREATE TABLE rows (label TEXT, owner INTEGER REFERENCES owners(id) DEFERRABLE INITIALLY DEFERRED);
       INSERT INTO owners (id) VALUES (1);`,
    );
    holds = [];
    groups = new GroupCommit(async (run) => {
      holds.push([]);
      return run(db);
    });
  });

  afterEach(async () => {
    await writerStatements.finalize(db);
    await new Promise((resolve) => db.close(resolve));
  });

  /** A work that stores a row labelled `label` (owned by `owner`), then throws `fail` if given. */
  const insert =
    (label: string, owner = 1, fail?: Error) =>
    async (tx: Tx) => {
      holds.at(-1)!.push(label);
      await tx.insert('INSERT INTO rows (label, owner) VALUES (?, ?)', [label, owner]);
      if (fail) throw fail;
      return label;
    };

  const stored = async () =>
    (await all<{ label: string }>(db, 'SELECT label FROM rows ORDER BY rowid')).map((r) => r.label);

  it('runs the works queued while one runs in one transaction, and answers each after its COMMIT', async () => {
    // The first takes the writer at once; the others queue while it holds it.
    const first = groups.transaction(insert('a'));
    const rest = ['b', 'c', 'd'].map((label) => groups.transaction(insert(label)));
    expect(await Promise.all([first, ...rest])).to.deep.equal(['a', 'b', 'c', 'd']);
    expect(holds).to.deep.equal([['a'], ['b', 'c', 'd']]);
    expect(await stored()).to.deep.equal(['a', 'b', 'c', 'd']);
  });

  it('answers a caller only once the COMMIT holding its work is done', async () => {
    let committed = false;
    const seen: boolean[] = [];
    const grouped = new GroupCommit(async (run) =>
      run(
        new Proxy(db, {
          get(target, key) {
            const own = Reflect.get(target, key, target) as unknown;
            if (key !== 'exec') return typeof own === 'function' ? (own as () => unknown).bind(target) : own;
            return (sql: string, done: (err: Error | null) => void) =>
              target.exec(sql, (err) => {
                if (sql === 'COMMIT') committed = true;
                done(err);
              });
          },
        }),
      ),
    );
    grouped
      .transaction(async () => 'first')
      .then(
        () => seen.push(committed),
        () => {},
      );
    await grouped.transaction(async () => 'second').then(() => seen.push(committed));
    expect(seen).to.deep.equal([true, true]);
  });

  it('rolls back a refused work alone: the works before and after it in its group are stored and answered', async () => {
    const first = groups.transaction(insert('a'));
    const outcomes = await Promise.allSettled([
      first,
      groups.transaction(insert('b')),
      groups.transaction(insert('refused', 1, new Error('over quota'))),
      groups.transaction(insert('c')),
    ]);
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value : (o.reason as Error).message))).to.deep.equal([
      'a',
      'b',
      'over quota',
      'c',
    ]);
    expect(holds).to.deep.equal([['a'], ['b', 'refused', 'c']]);
    expect(await stored()).to.deep.equal(['a', 'b', 'c']);
  });

  it('fails every work of a group whose COMMIT fails, and stores none of them', async () => {
    const first = groups.transaction(insert('a'));
    // Owner 2 does not exist: a deferred foreign key is checked at COMMIT, which fails.
    const group = [
      groups.transaction(insert('b')),
      groups.transaction(insert('orphan', 2)),
      groups.transaction(insert('c')),
    ];
    expect(await first).to.equal('a');
    const outcomes = await Promise.allSettled(group);
    expect(outcomes.map((o) => o.status)).to.deep.equal(['rejected', 'rejected', 'rejected']);
    for (const o of outcomes) expect(((o as PromiseRejectedResult).reason as Error).message).to.match(/FOREIGN KEY/);
    expect(await stored()).to.deep.equal(['a']);
    // The writer is free and out of any transaction: the next work commits.
    expect(await groups.transaction(insert('d'))).to.equal('d');
    expect(await stored()).to.deep.equal(['a', 'd']);
  });

  it('when SQLite ends the whole transaction under a work, the works before it fail too, those after it run next', async () => {
    const gone = new Error('disk I/O error');
    const first = groups.transaction(insert('a'));
    const outcomes = Promise.allSettled([
      groups.transaction(insert('b')),
      groups.transaction(async (tx) => {
        await insert('ended')(tx);
        await exec(db, 'ROLLBACK'); // as SQLite does on some I/O errors
        throw gone;
      }),
      groups.transaction(insert('c')),
    ]);
    expect(await first).to.equal('a');
    expect(
      (await outcomes).map((o) => (o.status === 'fulfilled' ? o.value : (o.reason as Error).message)),
    ).to.deep.equal(['disk I/O error', 'disk I/O error', 'c']);
    expect(holds).to.deep.equal([['a'], ['b', 'ended'], ['c']]);
    expect(await stored()).to.deep.equal(['a', 'c']);
  });

  it(`holds at most GROUP_MAX (${GROUP_MAX}) works per transaction`, async () => {
    const first = groups.transaction(insert('first'));
    const rest = Array.from({ length: GROUP_MAX + 1 }, (_, i) => groups.transaction(insert(`w${i}`)));
    await Promise.all([first, ...rest]);
    expect(holds.map((h) => h.length)).to.deep.equal([1, GROUP_MAX, 1]);
  });

  it('fails the works of a group when the writer cannot be had, and serves the next group', async () => {
    let refuse = true;
    const grouped = new GroupCommit(async (run) => {
      if (refuse) {
        refuse = false;
        throw Object.assign(new Error('no write turn'), { code: 'SQLITE_BUSY' });
      }
      return run(db);
    });
    const refused = grouped.transaction(insert('a')).catch((e: Error) => e.message);
    const next = grouped.transaction(async (tx) => {
      await tx.insert('INSERT INTO rows (label, owner) VALUES (?, ?)', ['b', 1]);
      return 'b';
    });
    expect(await refused).to.equal('no write turn');
    expect(await next).to.equal('b');
    expect(await stored()).to.deep.equal(['b']);
  });
});
