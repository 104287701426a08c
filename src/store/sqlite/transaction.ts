// SQLite's transaction statements: on the writer connection, held throughout a group of transactions opened with
// BEGIN IMMEDIATE, so that the write lock is taken (or waited for, under the busy timeout) at the start, never refused
// half-way (src/store/sqlite/group-commit.ts).
import type sqlite3 from 'sqlite3';
import type { Tx } from '../engine';
import { StatementCache } from './statements';

/** A time as the models store it on SQLite, to the millisecond: the text its lists compare as text. */
export function storedTime(date: Date): string {
  return `${date.toISOString().replace('T', ' ').slice(0, 23)} +00:00`;
}

const bound = (params: readonly unknown[]) => params.map((p) => (p instanceof Date ? storedTime(p) : p));

/** Statements prepared once per connection and kept, as the readers' SELECTs are (src/store/sqlite/engine.ts). */
export const writerStatements = new StatementCache();

/** The statements of a transaction on `db`, the writer connection (prepared once and kept). */
export function sqliteTx(db: sqlite3.Database): Tx {
  const run = async (sql: string, params: readonly unknown[]) => {
    const stmt = await writerStatements.get(db, sql);
    return new Promise<{ lastID: number; changes: number }>((resolve, reject) =>
      stmt.run(bound(params), function (this: sqlite3.RunResult, err: Error | null) {
        if (err) reject(err);
        else resolve({ lastID: this.lastID, changes: this.changes });
      }),
    );
  };
  async function all<T extends object>(sql: string, params: readonly unknown[]): Promise<T[]> {
    const stmt = await writerStatements.get(db, sql);
    return new Promise<T[]>((resolve, reject) =>
      stmt.all(bound(params), (err: Error | null, rows: T[]) => (err ? reject(err) : resolve(rows))),
    );
  }
  return {
    insert: async (sql, params) => (await run(sql, params)).lastID,
    change: async (sql, params) => (await run(sql, params)).changes,
    selectForUpdate: all,
    // https://sqlite.org/lang_returning.html (SQLite 3.35 and later)
    async increment(table, assignments, counter, where, params) {
      const sql = `UPDATE ${table} SET ${assignments}, ${counter} = ${counter} + 1 WHERE ${where} RETURNING ${counter}`;
      const [row] = await all<Record<string, number>>(sql, params);
      return row ? Number(row[counter]) : undefined;
    },
  };
}

export function exec(db: sqlite3.Database, sql: string): Promise<void> {
  return new Promise((resolve, reject) => db.exec(sql, (err) => (err ? reject(err) : resolve())));
}
