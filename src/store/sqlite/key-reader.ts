// The lookups by key a request makes before its real work (who sent it: its token, session, user; src/store/select.ts
// lookup), read at once on the main thread through Node's own SQLite (node:sqlite's DatabaseSync,
// https://nodejs.org/docs/latest-v22.x/api/sqlite.html), not on a reader. Such a statement reads a few pages by an
// index, about 5 µs of CPU; on a reader, node-sqlite3 hands it to libuv's pool and back, about 60 µs of CPU, and it
// waits for a reader's turn among the reads (bench/key-lookup.ts; docs/scaling.md "Lookups by key on the main thread").
// A lookup this connection cannot make (the file busy: its busy timeout is 0, so it never sleeps here; a value it
// cannot bind; any other error, whose connection is then closed and opened again at the next lookup) answers
// undefined, and the caller reads it on a reader as before: a fault the readers meet too is then answered as every
// read's is (src/store/errors.ts: a 503 with Retry-After for a database out of reach), never as node:sqlite's own error.
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

const bindable = (value: unknown): value is SQLInputValue =>
  value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint';

/** SQLITE_BUSY and SQLITE_LOCKED, extended codes included (https://www.sqlite.org/rescode.html): the file, not the connection. */
const isBusy = (err: unknown) => [5, 6].includes(((err as { errcode?: number }).errcode ?? 0) & 0xff);

export class KeyReader {
  private db: DatabaseSync | undefined;
  private readonly statements = new Map<string, StatementSync>();
  private closed = false;

  constructor(private readonly file: string) {}

  /** The rows `sql` selects, or undefined when this connection cannot read them. */
  all<T extends object>(sql: string, params: readonly unknown[]): T[] | undefined {
    if (this.closed || !params.every(bindable)) return undefined;
    try {
      // node:sqlite's rows have no prototype; the callers' rows are plain objects, as node-sqlite3's are.
      return this.statement(sql)
        .all(...params)
        .map((row) => ({ ...row }) as T);
    } catch (err) {
      if (!isBusy(err)) this.reset();
      return undefined;
    }
  }

  /** Closed with its store: a lookup after it goes to the readers (which answer that the store is closed). */
  close(): void {
    this.closed = true;
    this.reset();
  }

  private reset(): void {
    this.statements.clear();
    this.db?.close();
    this.db = undefined;
  }

  private statement(sql: string): StatementSync {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.connection().prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** Opened on first use, as the readers are (the file exists and is migrated by then), and kept once set up. */
  private connection(): DatabaseSync {
    if (this.db) return this.db;
    const db = new (nodeSqlite().DatabaseSync)(this.file);
    try {
      db.exec('PRAGMA busy_timeout = 0; PRAGMA query_only = ON');
    } catch (err) {
      db.close();
      throw err;
    }
    return (this.db = db);
  }
}
