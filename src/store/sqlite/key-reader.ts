// The lookups by key a request makes before its real work (who sent it: its token, session, user; src/store/select.ts
// lookup), read at once on the main thread through Node's own SQLite (node:sqlite's DatabaseSync,
// https://nodejs.org/docs/latest-v22.x/api/sqlite.html), not on a reader. Such a statement reads a few pages by an
// index, about 5 µs of CPU; on a reader, node-sqlite3 hands it to libuv's pool and back, about 60 µs of CPU, and it
// waits for a reader's turn among the reads (bench/key-lookup.ts; docs/scaling.md "Lookups by key on the main thread").
// A lookup this connection cannot make now (the file busy: its busy timeout is 0, so it never sleeps here; a value it
// cannot bind) answers undefined, and the caller reads it on a reader as before.
import type { DatabaseSync, StatementSync, SQLInputValue } from 'node:sqlite';

/**
 * node:sqlite, loaded on the first lookup. Node 22 marks it experimental and says so once, on stderr, when it loads
 * (https://nodejs.org/docs/latest-v22.x/api/sqlite.html: "Stability: 1.1 - Active development"); the service's stderr
 * is its log, one JSON record a line (src/log.ts), so that one warning is kept out of it, and no other.
 */
export function nodeSqlite(): typeof import('node:sqlite') {
  const emitWarning = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    if (rest[0] === 'ExperimentalWarning' && String(warning).startsWith('SQLite ')) return;
    (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require('node:sqlite') as typeof import('node:sqlite');
  } finally {
    process.emitWarning = emitWarning;
  }
}

/** SQLITE_BUSY and SQLITE_LOCKED, extended codes included (https://www.sqlite.org/rescode.html). */
const BUSY_CODES = new Set([5, 6]);

const bindable = (value: unknown): value is SQLInputValue =>
  value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint';

export class KeyReader {
  private db: DatabaseSync | undefined;
  private readonly statements = new Map<string, StatementSync>();

  constructor(private readonly file: string) {}

  /** The rows `sql` selects, or undefined when this connection cannot read them now. */
  all<T extends object>(sql: string, params: readonly unknown[]): T[] | undefined {
    if (!params.every(bindable)) return undefined;
    try {
      const statement = this.statement(sql);
      // node:sqlite's rows have no prototype; the callers' rows are plain objects, as node-sqlite3's are.
      return statement.all(...params).map((row) => ({ ...row }) as T);
    } catch (err) {
      if (BUSY_CODES.has(((err as { errcode?: number }).errcode ?? 0) & 0xff)) return undefined;
      throw err;
    }
  }

  close(): void {
    this.db?.close();
    this.db = undefined;
    this.statements.clear();
  }

  private statement(sql: string): StatementSync {
    let statement = this.statements.get(sql);
    if (!statement) {
      // Opened on first use, as the readers are: the file exists and is migrated by then.
      if (!this.db) {
        this.db = new (nodeSqlite().DatabaseSync)(this.file);
        this.db.exec('PRAGMA busy_timeout = 0; PRAGMA query_only = ON');
      }
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}
