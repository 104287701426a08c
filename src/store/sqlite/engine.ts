// The SQLite store: one writer (Sequelize's connection), on a file a writer thread for the snippet writes' transactions
// (src/store/writer-thread.ts), two readers and a search reader per process, each with its prepared statements; its transactions,
// migration lock, readiness probe and dialect.
import { statfs } from 'node:fs/promises';
import path from 'node:path';
import { Sequelize } from 'sequelize';
import sqlite3 from 'sqlite3';
import type { Config } from '../../config';
import { stoppable } from '../cancellation';
import { deadline } from '../deadline';
import { READINESS_READ, type Engine, type PortableWork, type ReadKind, type Readiness, type Tx } from '../engine';
import { Gate } from '../gate';
import { writerLine, type WriterLine } from '../write-turn-gate';
import { commonTerms, sqliteSearch } from './search';
import type { SearchTerms } from '../search';
import { StatementCache } from './statements';
import { openConnection } from './connection';
import { GroupCommit } from './group-commit';
import { WriterThread } from '../writer-thread';
import type { SqliteWriterData } from './writer-worker';
import { exec, storedTime, writerStatements } from './transaction';

type SqliteConfig = Partial<
  Pick<
    Config,
    | 'SQLITE_SYNCHRONOUS'
    | 'SQLITE_BUSY_TIMEOUT_MS'
    | 'SQLITE_WRITE_TURN_TIMEOUT_MS'
    | 'DATABASE_TIMEOUT_MS'
    | 'SEARCH_TIMEOUT_MS'
  >
>;

/**
 * Connections that SELECTs run on, and their deadline: the store's own (every read), and its search lane (the
 * statements of a list with `search` terms), so that searches never take the connections, nor wait in the line, of
 * detail reads, lists and the lookups of who sent a request (docs/configuration.md, "Diffs and searches").
 */
export interface Lane {
  /** The reader connections of a file, opened on first use, those free to take a statement, and the line for them. */
  readers?: Promise<sqlite3.Database[]>;
  idleReaders: sqlite3.Database[];
  readerGate: Gate;
  /** How many readers the lane opens. */
  width: number;
  /** The deadline of a read, its wait for a reader included: DATABASE_TIMEOUT_MS; the search lane's SEARCH_TIMEOUT_MS. */
  timeoutMs: number;
}

/**
 * Reader connections per process on a SQLite file. A connection runs one statement at a time, and node-sqlite3 runs
 * each statement on a thread of libuv's pool (4 threads), where a statement waiting for its connection still holds a
 * thread. So every connection is handed one statement at a time and the rest wait here, in line: two readers and the
 * writer then use three threads at most, and a write never queues in libuv behind a backlog of reads. The search lane's
 * one reader (SQLITE_SEARCH_READERS) makes four: libuv's pool is then full at worst, still with no read in its queue.
 */
const SQLITE_READERS = 2;
/**
 * The search lane's readers on a SQLite file: one, a search at a time per process (an FTS5 query over a rare term takes
 * milliseconds, a short term's instr() scan what the rows take, bounded by SEARCH_TIMEOUT_MS).
 */
const SQLITE_SEARCH_READERS = 1;

/** How often a stopped read is interrupted again until it ends (withReader). */
const INTERRUPT_AGAIN_MS = 10;

/** Free space below this on the file's filesystem counts as full: a save's WAL frames alone can take more. */
const MIN_FREE_BYTES = 1024 * 1024;

/** How long a process waits for another's migration. */
const MIGRATION_WAIT_SECONDS = 120;

const lane = (width: number, timeoutMs: number): Lane => ({
  idleReaders: [],
  readerGate: new Gate(width),
  width,
  timeoutMs,
});

/** A reader: the file's busy timeout and foreign keys, and nothing but reads. */
function openReader(file: string, pragmas: string[]): Promise<sqlite3.Database> {
  const settings = pragmas.filter((p) => p.startsWith('busy_timeout') || p.startsWith('foreign_keys'));
  return openConnection(file, [...settings, 'query_only = ON']);
}

/** SQLite's writer thread on a file (writer-worker.ts); a thread that ends fails its groups as an I/O error (a 503). */
export const sqliteWriterThread = (data: SqliteWriterData) =>
  new WriterThread(path.join(__dirname, 'writer-worker'), data, 'SQLITE_IOERR');

export class SqliteEngine implements Engine {
  readonly name = 'sqlite';
  readonly sequelize: Sequelize;
  /** The database file, or undefined in memory. */
  readonly file: string | undefined;
  /** The PRAGMAs of every connection to the file (each connection has its own). */
  private readonly pragmas: string[];
  /** The store's own read lane, and the searches'. */
  readonly read: Lane;
  readonly searchLane: Lane;
  /** The search's common terms of late (./search.ts CommonTerms). */
  private readonly commonTerms = commonTerms();
  /** The line for the writer connection, one statement at a time (or one transaction, holdWriter). */
  private readonly writerGate: WriterLine;
  private readonly readerStatements = new StatementCache();
  /** The snippet writes' connection on a file, on a thread of its own. */
  private readonly thread: WriterThread | undefined;
  /** The writes that queue meanwhile commit together, each in its savepoint (src/store/sqlite/group-commit.ts). */
  private readonly groups: GroupCommit;
  readonly snippetsTable = 'snippets s';
  readonly snippetsWithOwners = 'snippets s JOIN users u ON u.id = s.owner_id';

  /**
   * Sequelize keeps one connection for the store (it opens others only for its own transactions, which the store never
   * starts; see holdWriter): it is the writer, so the store's writes run one after another on it and never contend
   * with each other for the file.
   */
  constructor(url: string, config: SqliteConfig) {
    const storage = url.slice('sqlite:'.length) || ':memory:';
    this.file = storage !== ':memory:' ? storage : undefined;
    // No retries: Sequelize would try a busy write five times, each waiting the busy timeout, where one wait is the bound.
    this.sequelize = new Sequelize({
      logging: false,
      define: { underscored: true, timestamps: false },
      dialect: 'sqlite',
      storage,
      pool: { max: 1 },
      retry: { max: 1 },
    });
    // The writer takes one statement at a time too (see SQLITE_READERS), in the order they come; in a cluster worker
    // its line also takes the write turn (src/store/write-turn-gate.ts), which can be refused: Sequelize runs
    // afterQuery even then, and only a query that got through leaves.
    const gate = (this.writerGate = writerLine(this.file !== undefined, config.SQLITE_WRITE_TURN_TIMEOUT_MS ?? 5000));
    const through = new WeakSet<object>();
    this.sequelize.addHook('beforeQuery', async (_options, query) => {
      await gate.enter();
      through.add(query);
    });
    this.sequelize.addHook('afterQuery', (_options, query) => {
      if (through.delete(query)) gate.leave();
    });
    // Every connection's PRAGMAs, with the busy timeout it waits for another process's write lock.
    const pragmas = (busyTimeoutMs: number) => [
      // WAL: readers never block the writer, nor the writer them.
      'journal_mode = WAL',
      // Another process's write lock is waited for this long, then the write fails as busy (a 503, never a 500).
      `busy_timeout = ${busyTimeoutMs}`,
      `synchronous = ${config.SQLITE_SYNCHRONOUS ?? 'NORMAL'}`,
      'foreign_keys = ON',
    ];
    this.pragmas = pragmas(config.SQLITE_BUSY_TIMEOUT_MS ?? 5000);
    // On a file the snippet writes run on a thread of their own (src/store/writer-thread.ts), which waits for the file's lock
    // itself (take-lock.ts: no busy handler, no write turn); in memory there is one connection.
    this.thread = this.file
      ? sqliteWriterThread({
          file: this.file,
          pragmas: pragmas(0),
          lockWaitMs: config.SQLITE_WRITE_TURN_TIMEOUT_MS ?? 5000,
        })
      : undefined;
    this.groups = new GroupCommit((run, onThread) => this.holdWriter(run, !onThread), this.thread?.commit);
    this.read = lane(SQLITE_READERS, config.DATABASE_TIMEOUT_MS ?? 5000);
    this.searchLane = lane(SQLITE_SEARCH_READERS, config.SEARCH_TIMEOUT_MS ?? 5000);
  }

  /** Sequelize's own connection (the writer). */
  private async writer(): Promise<sqlite3.Database> {
    return (await this.sequelize.connectionManager.getConnection({ type: 'write' })) as unknown as sqlite3.Database;
  }

  /** Applies the PRAGMAs to the writer connection; migrate() calls it first (every process migrates before it serves). */
  async configure(): Promise<void> {
    for (const pragma of this.pragmas) await this.sequelize.query(`PRAGMA ${pragma}`);
  }

  /**
   * Runs `work` on the writer connection, holding its line from the first statement to the last, so that a
   * transaction's statements (BEGIN ... COMMIT) are the only ones on it meanwhile; `work` runs them on the connection
   * itself, not through Sequelize (whose queries wait in that line). Sequelize's own transactions would not do: on a
   * file it opens a connection per transaction, a second writer contending with the first for the file's lock.
   * `turn` false: the line without a cluster's write turn, for the writer thread's groups (take-lock.ts).
   */
  async holdWriter<T>(work: (writer: sqlite3.Database) => Promise<T>, turn = true): Promise<T> {
    const writer = await this.writer();
    await this.writerGate.enter(false, undefined, turn);
    try {
      return await work(writer);
    } finally {
      this.writerGate.leave();
    }
  }

  transaction<T>(work: (tx: Tx) => Promise<T>, portable?: PortableWork): Promise<T> {
    return this.groups.transaction(work, portable);
  }

  /**
   * Every read has a stop: its lane's deadline from the call, and its query's client going away
   * (src/store/cancellation.ts). Stopped before it has a reader, it never starts; stopped while it runs, it is
   * interrupted on its reader (withReader).
   */
  select<T extends object>(sql: string, params: readonly unknown[], kind: ReadKind, urgent: boolean): Promise<T[]> {
    const on = kind === 'search' ? this.searchLane : this.read;
    return this.withReader(
      on,
      async (db) => {
        const prepared = await this.readerStatements.get(db, sql);
        return new Promise<T[]>((resolve, reject) =>
          prepared.all(params, (err: Error | null, rows: T[]) => (err ? reject(err) : resolve(rows))),
        );
      },
      urgent,
    );
  }

  /**
   * One row of one JSON text for the page's rows (https://sqlite.org/json1.html#jgrouparray), in their order by the
   * aggregate's own ORDER BY (https://sqlite.org/lang_aggfunc.html#aggorderby): node-sqlite3 makes each cell of a row a
   * value on the main thread, where JSON.parse makes a page's in a fraction of the time (docs/scaling.md "A page's rows
   * in one value").
   */
  async selectMany<T extends object>(
    sql: string,
    params: readonly unknown[],
    kind: ReadKind,
    columns: readonly string[],
    order: string,
  ): Promise<T[]> {
    const object = `json_object(${columns.map((c) => `'${c}', ${c}`).join(', ')})`;
    const [row] = await this.select<{ page: string | null }>(
      `SELECT json_group_array(${object} ORDER BY ${order}) AS page FROM (${sql})`,
      params,
      kind,
      false,
    );
    return row?.page ? (JSON.parse(row.page) as T[]) : [];
  }

  /**
   * Runs `work` (one statement) on a free reader of `on`, under its lane's deadline and its request's client
   * (stoppable: the deadline counts from the call, the readers' opening and the wait in line included): connections of
   * their own that may only read, so a steady stream of reads never queues in front of a write on the writer. A
   * `lookup` (one row by key: the token, the session, the user a request acts as) goes ahead of the reads in line, so
   * that no request, a write least of all, waits behind other clients' lists just to learn who sent it. Stopped in
   * line, it leaves the line; stopped while it runs, it is interrupted (sqlite3_interrupt: the reader runs only this
   * statement, and is free again as soon as SQLite gives up). In memory, the one database is the writer's, shared with
   * the writes an interrupt would stop too: a stopped read is answered at once but runs to its end; it has no readers,
   * so no lanes either (a search runs there too, under the lane's deadline).
   */
  private withReader<T>(on: Lane, work: (db: sqlite3.Database) => Promise<T>, lookup: boolean): Promise<T> {
    const file = this.file;
    if (!file) return stoppable(on.timeoutMs, { take: () => this.writer(), run: work, halt() {}, give() {} });
    let interrupting: NodeJS.Timeout | undefined;
    return stoppable(on.timeoutMs, {
      take: async (stop) => {
        await this.openReaders(on, file);
        await on.readerGate.enter(lookup, stop);
        return on.idleReaders.pop()!;
      },
      run: work,
      halt(db) {
        // An interrupt finds nothing to stop while the statement is still on its way to SQLite's thread (it then
        // starts as if never interrupted): again until it ends, which frees the reader.
        const interrupt = () => {
          try {
            db.interrupt();
          } catch {
            clearInterval(interrupting); // the store is closing: nothing left to stop
          }
        };
        interrupt();
        interrupting = setInterval(interrupt, INTERRUPT_AGAIN_MS);
      },
      give(db) {
        clearInterval(interrupting);
        on.idleReaders.push(db);
        on.readerGate.leave();
      },
    });
  }

  /** The lane's reader connections, opened on its first read. */
  private async openReaders(on: Lane, file: string): Promise<void> {
    if (on.readers) return void (await on.readers);
    on.readers = Promise.all(Array.from({ length: on.width }, () => openReader(file, this.pragmas)));
    on.idleReaders.push(...(await on.readers));
  }

  /** An exclusive transaction on a side file; a second process's BEGIN waits in the busy handler. In memory, a no-op. */
  async withMigrationLock<T>(work: () => Promise<T>, waitSeconds = MIGRATION_WAIT_SECONDS): Promise<T> {
    if (!this.file) return work();
    const db = new sqlite3.Database(`${this.file}-migrate.lock`);
    try {
      db.configure('busyTimeout', waitSeconds * 1000);
      await exec(db, 'BEGIN EXCLUSIVE');
      try {
        return await work();
      } finally {
        await exec(db, 'COMMIT');
      }
    } finally {
      await new Promise<void>((resolve) => db.close(() => resolve()));
    }
  }

  /** A real read of a table, a lookup: never queued behind request traffic. */
  readiness(timeoutMs: number): Readiness {
    return {
      check: () =>
        deadline(
          this.select(READINESS_READ, [], 'read', true).then(() => undefined),
          timeoutMs,
        ),
      close: () => {},
    };
  }

  /** The file's filesystem has (next to) no space left for this process. */
  async diskShortBecause(): Promise<string | undefined> {
    if (!this.file) return undefined;
    const { bavail, bsize } = await statfs(path.dirname(path.resolve(this.file)));
    if (bavail * bsize < MIN_FREE_BYTES)
      return `The database cannot take writes: the disk of its file has ${bavail * bsize} bytes free.`;
    return undefined;
  }

  /** None: the counters of one machine's processes are the cluster primary's (src/store/counters.ts). */
  sharedCounter(): undefined {
    return undefined;
  }

  /** The text Sequelize writes (`2026-11-24 11:30:00.123 +00:00`): SQLite compares times as text. */
  time(instant: Date): string {
    return storedTime(instant);
  }

  /** SQLite keeps the text it was given, and a cursor carries that text. */
  cursorTime(text: string): string {
    return text;
  }

  upsert(table: string, key: string, columns: readonly string[]): string {
    const others = columns.filter((c) => c !== key);
    return `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')}) ON CONFLICT(${key}) DO UPDATE SET ${others.map((c) => `${c} = excluded.${c}`).join(', ')}`;
  }

  search(terms: SearchTerms) {
    return sqliteSearch((sql, params) => this.select(sql, params, 'search', false), terms, this.commonTerms);
  }

  async close(): Promise<void> {
    await this.thread?.close();
    const writer = await this.writer();
    const opened = async (l: Lane) => (l.readers ? await l.readers.catch(() => []) : []);
    const readers = [...(await opened(this.read)), ...(await opened(this.searchLane))];
    for (const connection of readers) await this.readerStatements.finalize(connection);
    await writerStatements.finalize(writer);
    // In memory the writer is also the one reader.
    await this.readerStatements.finalize(writer);
    await Promise.all(readers.map((db) => new Promise<void>((resolve) => db.close(() => resolve()))));
    await this.sequelize.close();
  }
}
