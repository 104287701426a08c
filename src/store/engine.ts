// The one typed interface of a database engine. SQLite (src/store/sqlite/) and MySQL/MariaDB (src/store/mysql/) each
// implement it and own their connections, statement caches, dialect and quirks; no other file asks which engine it
// runs on (migrations aside: they describe each engine's schema).
import type { Sequelize } from 'sequelize';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { SearchSql, SearchTerms } from './search';

/** /readyz's read of a table the API reads (each engine runs it its own way): the table exists, the connection reads it. */
export const READINESS_READ = 'SELECT id FROM snippets ORDER BY id LIMIT 1';

/** The statements a transaction runs, `?` placeholders bound to their values (never spliced into the SQL). */
export interface Tx {
  /** An INSERT; its new row's auto-increment id. */
  insert(sql: string, params: readonly unknown[]): Promise<number>;
  /** An UPDATE or DELETE; how many rows it changed. */
  change(sql: string, params: readonly unknown[]): Promise<number>;
  /** A SELECT of rows the transaction is about to change, locked until it ends (MySQL's FOR UPDATE; on SQLite the write lock covers it). */
  selectForUpdate<T extends object>(sql: string, params: readonly unknown[]): Promise<T[]>;
  /**
   * `UPDATE table SET assignments, counter = counter + 1 WHERE where` of one row: the row's new `counter`, read from
   * the UPDATE's own answer, with no statement more (MySQL/MariaDB: LAST_INSERT_ID(expr), which the OK packet
   * carries; SQLite: RETURNING), or undefined when no row matched.
   */
  increment(
    table: string,
    assignments: string,
    counter: string,
    where: string,
    params: readonly unknown[],
  ): Promise<number | undefined>;
}

/**
 * A transaction's work by name, which another thread can run: the module at `module` exports `transactions`, and
 * `transactions[op](tx, args)` does what the work's closure does (src/store/snippets/write-ops.ts). `args` are
 * cloneable (https://nodejs.org/api/worker_threads.html#portpostmessagevalue-transferlist).
 */
export interface PortableWork {
  module: string;
  op: string;
  args: unknown;
}

/** Which connections a read runs on: the store's readers, or the search lane's (a list with `search` terms). */
export type ReadKind = 'read' | 'search';

export interface Readiness {
  /** Resolves when the database can serve this instance, rejects (within DATABASE_TIMEOUT_MS) otherwise. */
  check(): Promise<void>;
  close(): void;
}

export interface CounterOptions {
  points: number;
  /** Seconds. */
  duration: number;
  /** Names the counter family; unique per family. */
  keyPrefix: string;
}

export interface Engine {
  /** For logs and tests only: code never branches on it. */
  readonly name: 'sqlite' | 'mysql';
  /** Sequelize on this database: the models, the migrations, and the writes that go through the models. */
  readonly sequelize: Sequelize;
  /**
   * A SELECT with `?` placeholders, prepared once per connection, under its lane's deadline and its request's client
   * (src/store/cancellation.ts). `urgent`: a lookup by key a request needs before its real work, ahead in line.
   */
  select<T extends object>(sql: string, params: readonly unknown[], kind: ReadKind, urgent: boolean): Promise<T[]>;
  /**
   * The rows of a SELECT of many (a page), as select() reads them: `columns` are its result columns, `order` its ORDER BY
   * written with their names. SQLite hands them across its binding as one JSON text (a list's page: one value where the
   * rows were a value per cell, each made on the main thread; docs/scaling.md "A page's rows in one value"), MySQL/MariaDB
   * row by row.
   */
  selectMany<T extends object>(
    sql: string,
    params: readonly unknown[],
    kind: ReadKind,
    columns: readonly string[],
    order: string,
  ): Promise<T[]>;
  /**
   * Runs `work` in one transaction and commits it, or rolls it back when `work` throws; where `portable` names the same
   * work, the engine may run that instead, on a thread of its own (SQLite's writer thread).
   */
  transaction<T>(work: (tx: Tx) => Promise<T>, portable?: PortableWork): Promise<T>;
  /** Settings of the writer connection (SQLite's PRAGMAs), applied before the first statement of a process. */
  configure(): Promise<void>;
  /** Runs `work` holding the database's migration lock, across processes and machines. */
  withMigrationLock<T>(work: () => Promise<T>, waitSeconds?: number): Promise<T>;
  /** /readyz's probe of the database. */
  readiness(timeoutMs: number): Readiness;
  /** Why the disk of the database cannot take writes now (a SQLite file's filesystem all but full), or undefined. */
  diskShortBecause(): Promise<string | undefined>;
  /** A counter of password guesses in the database, shared by every machine; undefined where there is none. */
  sharedCounter(opts: CounterOptions): Promise<RateLimiterAbstract> | undefined;
  /** An instant as a statement's parameter, compared with stored `created`/`saved` values. */
  time(instant: Date): unknown;
  /** A list cursor's time (as encodeCursor wrote it) as a statement's parameter. */
  cursorTime(text: string): unknown;
  /** `snippets s` as the reads of snippets name it: with what keeps the engine reading it by an index. */
  readonly snippetsTable: string;
  /** `snippets s` and each one's owner, `users u`, read in that order, each by an index. */
  readonly snippetsWithOwners: string;
  /** An INSERT of `columns` that updates the other columns when a row with the same `key` is there. */
  upsert(table: string, key: string, columns: readonly string[]): string;
  /** The conditions on `snippets s` that a snippet list's search terms put (docs/api.md, "Finding snippets"). */
  search(terms: SearchTerms): Promise<SearchSql>;
  /**
   * What indexSnippet writes for a snippet's title and code, worked out before its transaction, where the engine's
   * search index is not kept by the database itself (MySQL/MariaDB's row of trigram words, docs/search.md; SQLite's
   * FTS5 has triggers).
   */
  searchEntry?(title: string, code: string): Promise<string>;
  /** Writes the search index's `entry` (searchEntry's) of snippet `id` in the transaction that saves its text. */
  indexSnippet?(tx: Tx, id: number, entry: string): Promise<void>;
  /** Rebuilds the search index of the next `limit` snippets after id `afterId`, in one transaction (`snippets reindex`). */
  reindexBatch?(afterId: number, limit: number): Promise<{ count: number; lastId?: number }>;
  /** Closes every connection the engine opened. */
  close(): Promise<void>;
}
