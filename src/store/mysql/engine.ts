// The MySQL/MariaDB store: a writer thread with a pool of its own for the snippet writes' transactions
// (writer-worker.ts), Sequelize's pool for the other writes, a read pool and a search pool (one per replica) for
// SELECTs, each statement under its deadline and killed on the server past it; its transactions, migration lock,
// readiness probe, shared counters and dialect.
import path from 'node:path';
import { createPool, type ConnectionOptions, type Pool, type PoolConnection } from 'mysql2';
import { RateLimiterMySQL, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { Sequelize } from 'sequelize';
import type { Config } from '../../config';
import { stoppable } from '../cancellation';
import type { CounterOptions, Engine, PortableWork, ReadKind, Readiness, Tx } from '../engine';
import { mysql2WithDeadline, withDeadline, withoutStatementDeadline } from '../mysql-deadline';
import { Killer } from '../mysql-kill';
import { isAscii, rarerFirst, type SearchSql, type SearchTerms } from '../search';
import { MIGRATION_WAIT_SECONDS, withMysqlLock } from './migration-lock';
import { mysqlReadiness } from './readiness';
import { addIndexHooks, entryOf, indexSnippets, searchIndexCondition, UPSERT_ONE, widthOf } from './search-index';
import { killerOptions, poolOptions, server } from './server';
import { termCheck } from './term-check';
import { mysqlTransaction, storedTime } from './transaction';
import { WriterThread } from '../writer-thread';
import type { MysqlWriterData } from './writer-worker';

type MysqlConfig = Pick<Config, 'DATABASE_URL'> &
  Partial<
    Pick<
      Config,
      'DATABASE_REPLICA_URLS' | 'DATABASE_POOL_MAX' | 'DATABASE_TIMEOUT_MS' | 'SEARCH_POOL_MAX' | 'SEARCH_TIMEOUT_MS'
    >
  >;

/**
 * Connections that SELECTs run on, and their deadline: the store's own (every read), and its search lane (the
 * statements of a list with `search` terms), so that searches never take the connections of detail reads, lists and
 * the lookups of who sent a request (docs/configuration.md, "Diffs and searches").
 */
export interface Lane {
  /** Pools for SELECTs, one per replica (or DATABASE_URL's), taken in turn. */
  pools: Pool[];
  next: number;
  /** The deadline of a read: of a connect, a wait for a pooled connection, a statement. */
  timeoutMs: number;
}

/** A MySQL/MariaDB server's key among the killers: its host and port. */
function address(c: Pick<ConnectionOptions, 'host' | 'port'>): string {
  return `${c.host ?? 'localhost'}:${Number(c.port ?? 3306)}`;
}

export class MysqlEngine implements Engine {
  readonly name = 'mysql';
  readonly sequelize: Sequelize;
  readonly read: Lane;
  readonly searchLane: Lane;
  /** What ends a stopped statement's connection on its server, one per server (its host:port). */
  private readonly killers = new Map<string, Killer>();
  /**
   * The table by one of its indexes, never read whole: with statistics behind the table (InnoDB recounts it after a
   * tenth of its rows change, in the background) MariaDB read every row and sorted them for each page of the list,
   * where the (created, id) index reads a page's rows (16 writers beside the list: a table read and a sort for every
   * page, 1,962 to 6,964 rows read a page as the table grew; docs/benchmarks.md, "The list beside writers on
   * MariaDB"; test/src/store/keyset-seek.test.ts). Every index is named, so the planner still chooses among them: those
   * of migrations 0001 and 0008, which a migration that adds or renames one must keep here (MariaDB refuses a name it
   * does not know).
   */
  readonly snippetsTable = 'snippets s FORCE INDEX (PRIMARY, snippets_created, snippets_owner_created)';
  /**
   * Snippets first, then each one's owner by its key: the list is read in the order of the (created, id) index. With
   * few users and many snippets MariaDB's planner read users first and sorted every snippet in a temporary table for
   * each page (44 pages of 100 a second, 7,000 snippets, the server's CPU at 140%); STRAIGHT_JOIN keeps to the written
   * order. Beside writers it then read the users whole into a join buffer, which keeps no order, and sorted every
   * snippet again, whatever index `snippets` was given: the owner is read by its key.
   */
  readonly snippetsWithOwners = `${this.snippetsTable} STRAIGHT_JOIN users u FORCE INDEX (PRIMARY) ON u.id = s.owner_id`;
  private readonly url: string;
  /** The snippet writes' transactions, on a thread of their own (writer-worker.ts). */
  private readonly writer: WriterThread;

  constructor(config: MysqlConfig) {
    const url = (this.url = config.DATABASE_URL);
    const timeoutMs = config.DATABASE_TIMEOUT_MS ?? 5000;
    const searchTimeoutMs = config.SEARCH_TIMEOUT_MS ?? 5000;
    const replicas = config.DATABASE_REPLICA_URLS ?? [];
    for (const u of [url, ...replicas]) this.killers.set(address(server(u)), new Killer(killerOptions(u), timeoutMs));
    const killerAt = (c: ConnectionOptions) => this.killers.get(address(c));
    // SELECTs run on plain mysql2 pools: on Sequelize's connections, its typeCast hook made mysql2 build an object for
    // every field of every row (a quarter of the CPU of a page of 100 snippets). Dates are read in UTC, as Sequelize's.
    const readPools = (size: number, ms: number) =>
      (replicas.length ? replicas : [url]).map((u) => {
        const pool = createPool(poolOptions(u, size, timeoutMs));
        pool.on('connection', (connection) => {
          withDeadline(connection, ms, killerAt(connection.config));
          // MariaDB stops a statement past max_statement_time (in seconds) by itself: the bound holds even when the
          // KILL cannot be sent (no connection left on the server). The pools run only SELECTs; MySQL has no such
          // variable (its max_execution_time is in milliseconds) and refuses the SET, which changes nothing.
          connection.query(`SET SESSION max_statement_time = ${ms / 1000}`, () => {});
        });
        return pool;
      });
    this.read = { pools: readPools(config.DATABASE_POOL_MAX ?? 10, timeoutMs), next: 0, timeoutMs };
    this.searchLane = {
      pools: readPools(config.SEARCH_POOL_MAX ?? 2, searchTimeoutMs),
      next: 0,
      timeoutMs: searchTimeoutMs,
    };
    this.sequelize = new Sequelize(url.replace(/^mariadb:/, 'mysql:'), {
      logging: false,
      dialect: 'mysql',
      // Every statement under the deadline; the connect under connectTimeout, the wait for a connection under acquire.
      dialectModule: mysql2WithDeadline(timeoutMs, killerAt),
      dialectOptions: { charset: 'utf8mb4', supportBigNumbers: true, connectTimeout: timeoutMs },
      define: { underscored: true, timestamps: false, charset: 'utf8mb4', collate: 'utf8mb4_bin' },
      pool: { max: config.DATABASE_POOL_MAX ?? 10, min: 0, idle: 10000, acquire: timeoutMs },
      // With replicas, Sequelize sends SELECTs (outside transactions) to them in turn and writes to DATABASE_URL.
      ...(replicas.length ? { replication: { read: replicas.map(server), write: server(url) } } : {}),
    });
    addIndexHooks(this.sequelize);
    // A thread that ends fails the transactions it had as a lost connection (a 503): the server rolls back what they
    // had not committed.
    const writerData: MysqlWriterData = { url, poolMax: config.DATABASE_POOL_MAX ?? 10, timeoutMs };
    this.writer = new WriterThread(path.join(__dirname, 'writer-worker'), writerData, 'PROTOCOL_CONNECTION_LOST');
  }

  /** The killer of the server `connection` is on (src/store/mysql-kill.ts). */
  private killerOf(connection: Pick<PoolConnection, 'config'>): Killer | undefined {
    return this.killers.get(address(connection.config));
  }

  async configure(): Promise<void> {}

  /**
   * mysql2's execute() on a pooled connection (a replica's, with DATABASE_REPLICA_URLS): a server-side prepared
   * statement, cached per connection. Every read has a stop: its lane's deadline from the call, and its query's client
   * going away (src/store/cancellation.ts). A connection that comes after the stop is handed straight back, unused;
   * stopped while it runs, the server ends its connection (KILL, mysql-kill.ts). The lookup of who sent a request has
   * no line to skip here: the pool hands out connections as they come free.
   */
  select<T extends object>(sql: string, params: readonly unknown[], kind: ReadKind): Promise<T[]> {
    const on = kind === 'search' ? this.searchLane : this.read;
    const pool = on.pools[on.next++ % on.pools.length]!;
    return stoppable(on.timeoutMs, {
      take: () =>
        new Promise<PoolConnection>((resolve, reject) =>
          pool.getConnection((err, connection) => (err ? reject(err) : resolve(connection))),
        ),
      run: (connection) =>
        new Promise<T[]>((resolve, reject) =>
          connection.execute(sql, params as never, (err, rows) => (err ? reject(err) : resolve(rows as T[]))),
        ),
      // The server ends the connection and its statement; here it is closed, so the pool never hands it out again
      // (its release() is then a no-op).
      halt: (connection) => {
        this.killerOf(connection)?.kill(connection.threadId);
        connection.destroy();
      },
      give: (connection) => connection.release(),
    });
  }

  /** Row by row: mysql2 reads a result's rows in JavaScript, by a parser it compiles for the result's columns. */
  selectMany<T extends object>(sql: string, params: readonly unknown[], kind: ReadKind): Promise<T[]> {
    return this.select<T>(sql, params, kind);
  }

  /** A portable work on the writer thread; any other on one of Sequelize's connections, in this thread. */
  async transaction<T>(work: (tx: Tx) => Promise<T>, portable?: PortableWork): Promise<T> {
    if (!portable) return mysqlTransaction(this.sequelize, work);
    const [outcome] = await this.writer.commit([portable]);
    if (!outcome!.ok) throw outcome!.err;
    return outcome!.value as T;
  }

  withMigrationLock<T>(work: () => Promise<T>, waitSeconds = MIGRATION_WAIT_SECONDS): Promise<T> {
    return withMysqlLock(this.sequelize, work, waitSeconds);
  }

  readiness(timeoutMs: number): Readiness {
    return mysqlReadiness(this.url, timeoutMs);
  }

  /** The server says so when a write finds its disk full (src/store/errors.ts isDiskFull). */
  async diskShortBecause(): Promise<undefined> {
    return undefined;
  }

  /**
   * Password guesses in rows of a table every machine shares: a guesser must not get a fresh allowance per machine,
   * and a failed check is rare enough to pay a database write. Keys are counterKey()s: ASCII of fixed length, so the
   * library's VARCHAR(255) utf8 column holds any of them.
   */
  sharedCounter(opts: CounterOptions): Promise<RateLimiterAbstract> {
    const { sequelize } = this;
    return new Promise((resolve, reject) => {
      const store: RateLimiterAbstract = new RateLimiterMySQL(
        {
          ...opts,
          tableName: 'throttle_counters',
          storeClient: sequelize,
          storeType: 'sequelize',
          dbName: sequelize.getDatabaseName(),
        },
        (err?: unknown) => (err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve(store)),
      );
    });
  }

  /** A DATETIME's text in UTC, as the pools write and read it. */
  time(instant: Date): string {
    return storedTime(instant);
  }

  /** The cursor holds ISO 8601 (mysql2 reads a Date); DATETIME compares with the Date. */
  cursorTime(text: string): Date {
    return new Date(text);
  }

  upsert(table: string, key: string, columns: readonly string[]): string {
    const others = columns.filter((c) => c !== key);
    return `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')}) ON DUPLICATE KEY UPDATE ${others.map((c) => `${c} = VALUES(${c})`).join(', ')}`;
  }

  /**
   * Every term looked for in the lowered title and code, among the candidates of the trigram index when a term names
   * its words (three code points or more, not of common characters only: docs/search.md).
   */
  async search(terms: SearchTerms): Promise<SearchSql> {
    const check: string[] = [];
    const checkParams: unknown[] = [];
    for (const term of rarerFirst(terms.all)) {
      const { where, params } = termCheck(term);
      check.push(where);
      checkParams.push(...params);
    }
    const lower = async (text: string) =>
      isAscii(text)
        ? text.toLowerCase()
        : (await this.select<{ lowered: string }>('SELECT LOWER(?) AS lowered', [text], 'search'))[0]!.lowered;
    const index = await searchIndexCondition(this.sequelize, lower, terms.long, (sql, params) =>
      this.select(sql, params, 'search'),
    );
    return { where: index ? [index.where] : [], params: index ? index.params : [], check, checkParams };
  }

  /**
   * The words of a title and code as the server lowers them (as the search's match lowers the stored text), read on
   * the read pool before the save's transaction: the transaction then adds one statement, not two. ASCII text is
   * lowered here, with no statement.
   */
  searchEntry(title: string, code: string): Promise<string> {
    return entryOf(title, code, (sql, params) => this.select(sql, params, 'read'), widthOf(this.sequelize));
  }

  async indexSnippet(tx: Tx, id: number, entry: string): Promise<void> {
    await tx.insert(UPSERT_ONE, [id, entry]);
  }

  reindexBatch(afterId: number, limit: number): Promise<{ count: number; lastId?: number }> {
    // A batch's commit hands InnoDB its FULLTEXT work: no request's statement deadline (DATABASE_TIMEOUT_MS) for it.
    return withoutStatementDeadline(() =>
      this.sequelize.transaction((transaction) => indexSnippets(this.sequelize, { afterId, limit }, transaction)),
    );
  }

  async close(): Promise<void> {
    await this.writer.close();
    for (const killer of this.killers.values()) killer.close();
    await Promise.all([...this.read.pools, ...this.searchLane.pools].map((pool) => pool.promise().end()));
    await this.sequelize.close();
  }
}
