// The connections a process holds. SQLite: one writer (Sequelize's) and one reader (prepared SELECTs). MySQL/MariaDB: Sequelize's pool.
import { Sequelize, type Options } from 'sequelize';
import sqlite3 from 'sqlite3';
import type { Config } from '../config';
import { initModels } from '../models';

type StoreConfig = Pick<Config, 'DATABASE_URL'> &
  Partial<Pick<Config, 'DATABASE_REPLICA_URLS' | 'DATABASE_POOL_MAX' | 'SQLITE_SYNCHRONOUS' | 'SQLITE_BUSY_TIMEOUT_MS'>>;

interface Open {
  sequelize: Sequelize;
  /** SQLite: PRAGMAs of every connection to the file (each connection has its own). */
  pragmas: string[];
  /** SQLite file: the reader connection, opened on first use. */
  reader?: Promise<sqlite3.Database>;
}

let current: Open | undefined;

/** Connection settings of one mysql:// URL, in the shape Sequelize's replication option takes. */
function server(url: string) {
  const u = new URL(url);
  return {
    host: u.hostname,
    port: Number(u.port || 3306),
    username: decodeURIComponent(u.username),
    password: decodeURIComponent(u.password),
    database: decodeURIComponent(u.pathname.slice(1)),
  };
}

/**
 * Builds the Sequelize instance for DATABASE_URL and binds the models to it. On SQLite, Sequelize keeps one
 * connection for the process (it opens others only for transactions, which the store never starts): it is the
 * writer, so the process's writes run one after another on it and never contend with each other for the file.
 */
export function openDatabase(config: StoreConfig): Sequelize {
  if (current) return current.sequelize;
  const common: Options = {
    logging: false,
    define: { underscored: true, timestamps: false },
  };
  const url = config.DATABASE_URL;
  let sequelize: Sequelize;
  let pragmas: string[] = [];
  if (url.startsWith('sqlite:')) {
    const storage = url.slice('sqlite:'.length) || ':memory:';
    sequelize = new Sequelize({ ...common, dialect: 'sqlite', storage, pool: { max: 1 } });
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
    sequelize = new Sequelize(url.replace(/^mariadb:/, 'mysql:'), {
      ...common,
      dialect: 'mysql',
      dialectOptions: { charset: 'utf8mb4', supportBigNumbers: true },
      define: { ...common.define, charset: 'utf8mb4', collate: 'utf8mb4_bin' },
      pool: { max: config.DATABASE_POOL_MAX ?? 10, min: 0, idle: 10000 },
      // With replicas, Sequelize sends SELECTs (outside transactions) to them in turn and writes to DATABASE_URL.
      ...(replicas.length ? { replication: { read: replicas.map(server), write: server(url) } } : {}),
    });
  }
  initModels(sequelize);
  current = { sequelize, pragmas };
  return sequelize;
}

export function database(): Sequelize {
  if (!current) throw new Error('openDatabase() has not been called');
  return current.sequelize;
}

export function isSqlite(sequelize: Sequelize = database()): boolean {
  return sequelize.getDialect() === 'sqlite';
}

/** The SQLite database file, or undefined for an in-memory database or MySQL/MariaDB. */
export function sqliteFile(sequelize: Sequelize = database()): string | undefined {
  if (!isSqlite(sequelize)) return undefined;
  const storage = (sequelize as unknown as { options: { storage?: string } }).options.storage;
  return storage && storage !== ':memory:' ? storage : undefined;
}

/** Applies the PRAGMAs to the writer connection; migrate() calls it first (every process migrates before it serves). */
export async function configureWriter(): Promise<void> {
  for (const pragma of current?.pragmas ?? []) await database().query(`PRAGMA ${pragma}`);
}

/** Sequelize's own SQLite connection (the writer). */
export async function writerConnection(): Promise<sqlite3.Database> {
  return (await database().connectionManager.getConnection({ type: 'write' })) as unknown as sqlite3.Database;
}

function exec(db: sqlite3.Database, sql: string): Promise<void> {
  return new Promise((resolve, reject) => db.exec(sql, (err) => (err ? reject(err) : resolve())));
}

/**
 * The connection SELECTs run on. For a SQLite file, a connection of its own that may only read: a steady stream of
 * reads then never queues in front of a write on the writer. In memory, the one database is the writer's.
 */
export function readerConnection(): Promise<sqlite3.Database> {
  const open = current;
  if (!open) throw new Error('openDatabase() has not been called');
  const file = sqliteFile(open.sequelize);
  if (!file) return writerConnection();
  open.reader ??= new Promise<sqlite3.Database>((resolve, reject) => {
    const db = new sqlite3.Database(file, sqlite3.OPEN_READWRITE, (err) => (err ? reject(err) : resolve(db)));
  }).then(async (db) => {
    const pragmas = open.pragmas.filter((p) => p.startsWith('busy_timeout') || p.startsWith('foreign_keys'));
    await exec(db, [...pragmas, 'query_only = ON'].map((p) => `PRAGMA ${p};`).join(''));
    return db;
  });
  return open.reader;
}

const closeHooks: ((connection: sqlite3.Database) => Promise<void>)[] = [];

/** Work to do on a SQLite connection before it closes (finalizing prepared statements). */
export function beforeClose(hook: (connection: sqlite3.Database) => Promise<void>): void {
  closeHooks.push(hook);
}

export async function closeDatabase(): Promise<void> {
  const open = current;
  current = undefined;
  if (!open) return;
  if (isSqlite(open.sequelize)) {
    const writer = (await open.sequelize.connectionManager.getConnection({ type: 'write' })) as unknown as sqlite3.Database;
    const reader = open.reader ? await open.reader.catch(() => undefined) : undefined;
    for (const connection of [writer, reader]) for (const hook of connection ? closeHooks : []) await hook(connection!);
    if (reader) await new Promise<void>((resolve) => reader.close(() => resolve()));
  }
  await open.sequelize.close();
}

/** For /readyz: resolves when the database answers a query. */
export async function ping(): Promise<void> {
  await database().query('SELECT 1');
}
