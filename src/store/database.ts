// The connections a runtime holds. SQLite: one writer (Sequelize's), two readers and a search reader. MySQL/MariaDB:
// Sequelize's pool, a read pool and a search pool.
import { Sequelize, type Options } from 'sequelize';
import { createPool, type ConnectionOptions, type Pool, type PoolConnection } from 'mysql2';
import sqlite3 from 'sqlite3';
import type { Config } from '../config';
import { defineModels, type Models } from '../models';
import type { Highlighter } from '../highlight';
import { stoppable } from './cancellation';
import { Gate } from './gate';
import { writerLine } from './write-turn-gate';
import { mysql2WithDeadline, withDeadline } from './mysql-deadline';
import { Killer } from './mysql-kill';

type StoreConfig = Pick<Config, 'DATABASE_URL'> &
  Partial<
    Pick<
      Config,
      | 'DATABASE_REPLICA_URLS'
      | 'DATABASE_POOL_MAX'
      | 'SQLITE_SYNCHRONOUS'
      | 'SQLITE_BUSY_TIMEOUT_MS'
      | 'SQLITE_WRITE_TURN_TIMEOUT_MS'
      | 'DATABASE_TIMEOUT_MS'
      | 'SEARCH_POOL_MAX'
      | 'SEARCH_TIMEOUT_MS'
      | 'SNIPPET_REVISIONS_KEEP'
      | 'SNIPPET_REVISIONS_DAILY'
      | 'USER_QUOTA_BYTES'
    >
  >;

/**
 * Connections that SELECTs run on, and their deadline: the store's own (every read), and its search lane (the
 * statements of a list with `search` terms), so that searches never take the connections, nor wait in the line, of
 * detail reads, lists and the lookups of who sent a request (docs/configuration.md, "Diffs and searches").
 */
export interface Lane {
  /** SQLite file: the reader connections, opened on first use, those free to take a statement, and the line for them. */
  readers?: Promise<sqlite3.Database[]>;
  idleReaders: sqlite3.Database[];
  readerGate: Gate;
  /** SQLite file: how many readers the lane opens. */
  width: number;
  /** MySQL/MariaDB: pools for SELECTs, one per replica (or DATABASE_URL's), taken in turn. */
  mysqlReaders: Pool[];
  nextMysqlReader: number;
  /**
   * The deadline of a read, its wait for a connection included (src/store/select.ts). The store's: DATABASE_TIMEOUT_MS
   * (MySQL/MariaDB: also of a connect, a wait for a pooled connection, a statement); the search lane's: SEARCH_TIMEOUT_MS.
   */
  timeoutMs: number;
}

/** One database, open: what every read and write of the store is handed. The store is its own ordinary read lane. */
export interface Store extends Lane {
  sequelize: Sequelize;
  /** The models, bound to this database (each store has classes of its own). */
  models: Models;
  /** SQLite: PRAGMAs of every connection to the file (each connection has its own). */
  pragmas: string[];
  /** The searches' own connections: one SQLite reader, or SEARCH_POOL_MAX connections to each MySQL/MariaDB server read. */
  search: Lane;
  /** MySQL/MariaDB: what ends a stopped statement's connection on its server, one per server (its host:port). */
  killers: Map<string, Killer>;
  /** SQLite: the line for the writer connection, one statement at a time (or one transaction, holdWriter). */
  writerGate?: Gate;
  /** SNIPPET_REVISIONS_KEEP: the newest revisions kept per snippet, 0 for all (no thinning). */
  revisionsKeep: number;
  /** SNIPPET_REVISIONS_DAILY: older than those, the last of each day, at most this many. */
  revisionsDaily: number;
  /** USER_QUOTA_BYTES: bytes of revisions a user's snippets may keep, 0 for no quota. */
  quotaBytes: number;
  /** When the last write found the disk full (ms since the epoch); undefined once a write succeeds again. */
  diskFullSince?: number;
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

/** A MySQL/MariaDB server's key among the killers: its host and port. */
function address(c: Pick<ConnectionOptions, 'host' | 'port'>): string {
  return `${c.host ?? 'localhost'}:${Number(c.port ?? 3306)}`;
}

/** MySQL/MariaDB: the killer of the server `connection` is on (src/store/mysql-kill.ts). */
export function killerOf(open: Store, connection: Pick<PoolConnection, 'config'>): Killer | undefined {
  return open.killers.get(address(connection.config));
}

/** SQLite: how often a stopped read is interrupted again until it ends (withReader). */
const INTERRUPT_AGAIN_MS = 10;

/** Connection settings of one mysql:// URL, in the shape Sequelize's replication option takes. */
export function server(url: string) {
  const u = new URL(url.replace(/^mariadb:/, 'mysql:'));
  return {
    host: u.hostname,
    port: Number(u.port || 3306),
    username: decodeURIComponent(u.username),
    password: decodeURIComponent(u.password),
    database: decodeURIComponent(u.pathname.slice(1)),
  };
}

/**
 * Builds the Sequelize instance for DATABASE_URL and binds models of its own to it (their hook renders `highlighted`
 * with `highlighter`). Nothing connects yet. On SQLite, Sequelize keeps one connection for the store (it opens others
 * only for its own transactions, which the store never starts; see holdWriter): it is the writer, so the store's writes
 * run one after another on it and never contend with each other for the file.
 */
export function openStore(config: StoreConfig, highlighter: Highlighter): Store {
  const common: Options = {
    logging: false,
    define: { underscored: true, timestamps: false },
  };
  const url = config.DATABASE_URL;
  let sequelize: Sequelize;
  let pragmas: string[] = [];
  let mysqlReaders: Pool[] = [];
  const killers = new Map<string, Killer>();
  let writerGate: Gate | undefined;
  const timeoutMs = config.DATABASE_TIMEOUT_MS ?? 5000;
  const searchTimeoutMs = config.SEARCH_TIMEOUT_MS ?? 5000;
  let searchPools: Pool[] = [];
  if (url.startsWith('sqlite:')) {
    const storage = url.slice('sqlite:'.length) || ':memory:';
    // No retries: Sequelize would try a busy write five times, each waiting the busy timeout, where one wait is the bound.
    sequelize = new Sequelize({ ...common, dialect: 'sqlite', storage, pool: { max: 1 }, retry: { max: 1 } });
    // The writer takes one statement at a time too (see SQLITE_READERS), in the order they come; in a cluster worker
    // its line also takes the write turn (src/store/write-turn-gate.ts), which can be refused: Sequelize runs
    // afterQuery even then, and only a query that got through leaves.
    const gate = (writerGate = writerLine(storage !== ':memory:', config.SQLITE_WRITE_TURN_TIMEOUT_MS ?? 5000));
    const through = new WeakSet<object>();
    sequelize.addHook('beforeQuery', async (_options, query) => {
      await gate.enter();
      through.add(query);
    });
    sequelize.addHook('afterQuery', (_options, query) => {
      if (through.delete(query)) gate.leave();
    });
    pragmas = [
      // WAL: readers never block the writer, nor the writer them.
      'journal_mode = WAL',
      // Another process's write lock is waited for this long, then the write fails as busy (a 503, never a 500).
      `busy_timeout = ${config.SQLITE_BUSY_TIMEOUT_MS ?? 5000}`,
      `synchronous = ${config.SQLITE_SYNCHRONOUS ?? 'NORMAL'}`,
      'foreign_keys = ON',
    ];
  } else {
    const replicas = config.DATABASE_REPLICA_URLS ?? [];
    for (const u of [url, ...replicas]) {
      const s = server(u);
      killers.set(
        address(s),
        new Killer(
          { host: s.host, port: s.port, user: s.username, password: s.password, database: s.database },
          timeoutMs,
        ),
      );
    }
    const killerAt = (c: ConnectionOptions) => killers.get(address(c));
    // SELECTs run on plain mysql2 pools: on Sequelize's connections, its typeCast hook made mysql2 build an object for
    // every field of every row (a quarter of the CPU of a page of 100 snippets). Dates are read in UTC, as Sequelize's.
    const readPools = (size: number, ms: number) =>
      (replicas.length ? replicas : [url]).map((u) => {
        const s = server(u);
        const pool = createPool({
          host: s.host,
          port: s.port,
          user: s.username,
          password: s.password,
          database: s.database,
          charset: 'utf8mb4',
          timezone: 'Z',
          supportBigNumbers: true,
          connectionLimit: size,
          maxIdle: 0,
          idleTimeout: 10000,
          connectTimeout: timeoutMs,
        });
        pool.on('connection', (connection) => {
          withDeadline(connection, ms, killerAt(connection.config));
          // MariaDB stops a statement past max_statement_time (in seconds) by itself: the bound holds even when the
          // KILL cannot be sent (no connection left on the server). The pools run only SELECTs; MySQL has no such
          // variable (its max_execution_time is in milliseconds) and refuses the SET, which changes nothing.
          connection.query(`SET SESSION max_statement_time = ${ms / 1000}`, () => {});
        });
        return pool;
      });
    mysqlReaders = readPools(config.DATABASE_POOL_MAX ?? 10, timeoutMs);
    searchPools = readPools(config.SEARCH_POOL_MAX ?? 2, searchTimeoutMs);
    sequelize = new Sequelize(url.replace(/^mariadb:/, 'mysql:'), {
      ...common,
      dialect: 'mysql',
      // Every statement under the deadline; the connect under connectTimeout, the wait for a connection under acquire.
      dialectModule: mysql2WithDeadline(timeoutMs, killerAt),
      dialectOptions: { charset: 'utf8mb4', supportBigNumbers: true, connectTimeout: timeoutMs },
      define: { ...common.define, charset: 'utf8mb4', collate: 'utf8mb4_bin' },
      pool: { max: config.DATABASE_POOL_MAX ?? 10, min: 0, idle: 10000, acquire: timeoutMs },
      // With replicas, Sequelize sends SELECTs (outside transactions) to them in turn and writes to DATABASE_URL.
      ...(replicas.length ? { replication: { read: replicas.map(server), write: server(url) } } : {}),
    });
  }
  const models = defineModels(sequelize, highlighter);
  return {
    sequelize,
    models,
    pragmas,
    idleReaders: [],
    readerGate: new Gate(SQLITE_READERS),
    width: SQLITE_READERS,
    mysqlReaders,
    nextMysqlReader: 0,
    timeoutMs,
    search: {
      idleReaders: [],
      readerGate: new Gate(SQLITE_SEARCH_READERS),
      width: SQLITE_SEARCH_READERS,
      mysqlReaders: searchPools,
      nextMysqlReader: 0,
      timeoutMs: searchTimeoutMs,
    },
    killers,
    writerGate,
    revisionsKeep: config.SNIPPET_REVISIONS_KEEP ?? 0,
    revisionsDaily: config.SNIPPET_REVISIONS_DAILY ?? 0,
    quotaBytes: config.USER_QUOTA_BYTES ?? 0,
  };
}

export function isSqlite(store: Pick<Store, 'sequelize'>): boolean {
  return store.sequelize.getDialect() === 'sqlite';
}

/**
 * SQLite: runs `work` on the writer connection, holding its line from the first statement to the last, so that a
 * transaction's statements (BEGIN ... COMMIT) are the only ones on it meanwhile; `work` runs them on the connection
 * itself, not through Sequelize (whose queries wait in that line). Sequelize's own transactions would not do: on a
 * file it opens a connection per transaction, a second writer contending with the first for the file's lock.
 */
export async function holdWriter<T>(store: Store, work: (writer: sqlite3.Database) => Promise<T>): Promise<T> {
  const gate = store.writerGate;
  if (!gate) throw new Error('holdWriter(): not a SQLite database');
  const writer = await writerConnection(store.sequelize);
  await gate.enter();
  try {
    return await work(writer);
  } finally {
    gate.leave();
  }
}

/** The SQLite database file, or undefined for an in-memory database or MySQL/MariaDB. */
export function sqliteFile(store: Pick<Store, 'sequelize'>): string | undefined {
  if (!isSqlite(store)) return undefined;
  const storage = (store.sequelize as unknown as { options: { storage?: string } }).options.storage;
  return storage && storage !== ':memory:' ? storage : undefined;
}

/** Applies the PRAGMAs to the writer connection; migrate() calls it first (every process migrates before it serves). */
export async function configureWriter(store: Store): Promise<void> {
  for (const pragma of store.pragmas) await store.sequelize.query(`PRAGMA ${pragma}`);
}

/** Sequelize's own SQLite connection (the writer). */
async function writerConnection(sequelize: Sequelize): Promise<sqlite3.Database> {
  return (await sequelize.connectionManager.getConnection({ type: 'write' })) as unknown as sqlite3.Database;
}

function exec(db: sqlite3.Database, sql: string): Promise<void> {
  return new Promise((resolve, reject) => db.exec(sql, (err) => (err ? reject(err) : resolve())));
}

function openReader(file: string, pragmas: string[]): Promise<sqlite3.Database> {
  return new Promise<sqlite3.Database>((resolve, reject) => {
    const db = new sqlite3.Database(file, sqlite3.OPEN_READWRITE, (err) => (err ? reject(err) : resolve(db)));
  }).then(async (db) => {
    const settings = pragmas.filter((p) => p.startsWith('busy_timeout') || p.startsWith('foreign_keys'));
    await exec(db, [...settings, 'query_only = ON'].map((p) => `PRAGMA ${p};`).join(''));
    return db;
  });
}

/**
 * Runs `work` (one statement) on a connection of `lane` (the store's own, or its search lane), under `stop`
 * (src/store/cancellation.ts). For a SQLite file, a free reader of the lane: connections of their own that may only
 * read, so a steady stream of reads never queues in front of a write on the writer. A `lookup` (one row by key: the token, the session, the user a request acts as) goes ahead
 * of the reads in line, so that no request, a write least of all, waits behind other clients' lists just to learn who
 * sent it. Stopped in line, it leaves the line; stopped while it runs, it is interrupted (sqlite3_interrupt: the
 * reader runs only this statement, and is free again as soon as SQLite gives up). In memory, the one database is the
 * writer's, shared with the writes an interrupt would stop too: a stopped read is answered at once but runs to its end;
 * it has no readers, so no lanes either (a search runs there too, under the lane's deadline).
 */
export async function withReader<T>(
  store: Store,
  lane: Lane,
  work: (db: sqlite3.Database) => Promise<T>,
  lookup: boolean,
  stop: AbortSignal,
): Promise<T> {
  const file = sqliteFile(store);
  if (!file) {
    const writer = await writerConnection(store.sequelize);
    return stoppable(stop, { take: () => Promise.resolve(writer), run: work, halt: () => {}, give: () => {} });
  }
  if (!lane.readers) {
    lane.readers = Promise.all(Array.from({ length: lane.width }, () => openReader(file, store.pragmas)));
    lane.idleReaders.push(...(await lane.readers));
  } else await lane.readers;
  let interrupting: NodeJS.Timeout | undefined;
  return stoppable(stop, {
    async take() {
      await lane.readerGate.enter(lookup, stop);
      return lane.idleReaders.pop()!;
    },
    run: work,
    halt(db) {
      // An interrupt finds nothing to stop while the statement is still on its way to SQLite's thread (it then starts
      // as if never interrupted): again until it ends, which frees the reader.
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
      lane.idleReaders.push(db);
      lane.readerGate.leave();
    },
  });
}

const closeHooks: ((connection: sqlite3.Database) => Promise<void>)[] = [];

/** Work to do on a SQLite connection before it closes (finalizing prepared statements). */
export function beforeClose(hook: (connection: sqlite3.Database) => Promise<void>): void {
  closeHooks.push(hook);
}

/** Closes every connection the store opened; the store is not used again. */
export async function closeStore(open: Store): Promise<void> {
  if (isSqlite(open)) {
    const writer = await writerConnection(open.sequelize);
    const opened = async (lane: Lane) => (lane.readers ? await lane.readers.catch(() => []) : []);
    const readers = [...(await opened(open)), ...(await opened(open.search))];
    for (const connection of [writer, ...readers]) for (const hook of closeHooks) await hook(connection);
    await Promise.all(readers.map((db) => new Promise<void>((resolve) => db.close(() => resolve()))));
  }
  for (const killer of open.killers.values()) killer.close();
  await Promise.all([...open.mysqlReaders, ...open.search.mysqlReaders].map((pool) => pool.promise().end()));
  await open.sequelize.close();
}

/** MySQL/MariaDB: the pool of `open` (a lane) the next SELECT runs on. */
export function mysqlReader(open: Lane): Pool {
  return open.mysqlReaders[open.nextMysqlReader++ % open.mysqlReaders.length]!;
}

/**
 * Settles as `work` does, or rejects with ETIMEDOUT (a 503 with Retry-After, src/store/errors.ts) after `ms`; `work`
 * goes on, under its own deadlines, and whatever it settles to is dropped.
 */
export async function deadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(Object.assign(new Error(`no answer from the database within ${ms} ms`), { code: 'ETIMEDOUT' })),
      ms,
    );
  });
  work.catch(() => {});
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
