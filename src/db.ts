// The database: one Sequelize instance from config, models bound to it, schema by migrations.
import { Sequelize, type Options } from 'sequelize';
import { SequelizeStorage, Umzug } from 'umzug';
import type { Config } from './config';
import { withMigrationLock } from './migration-lock';
import { migrations } from './migrations';
import { initModels } from './models';

let current: Sequelize | undefined;

/** Each SQLite connection's settings, applied by migrate() (every process migrates before it serves). */
const sqlitePragmas = new WeakMap<Sequelize, string[]>();

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

/** Builds the Sequelize instance for DATABASE_URL and binds the models to it. */
export function openDatabase(
  config: Pick<Config, 'DATABASE_URL'> & Partial<Pick<Config, 'DATABASE_REPLICA_URLS' | 'DATABASE_POOL_MAX' | 'SQLITE_SYNCHRONOUS'>>,
): Sequelize {
  if (current) return current;
  const common: Options = {
    logging: false,
    define: { underscored: true, timestamps: false },
  };
  const url = config.DATABASE_URL;
  let sequelize: Sequelize;
  if (url.startsWith('sqlite:')) {
    const storage = url.slice('sqlite:'.length) || ':memory:';
    sequelize = new Sequelize({ ...common, dialect: 'sqlite', storage, pool: { max: 1 } });
    sqlitePragmas.set(sequelize, [
      // WAL lets readers proceed while a write is in progress; the busy timeout makes writers wait instead of failing.
      'journal_mode = WAL',
      'busy_timeout = 5000',
      `synchronous = ${config.SQLITE_SYNCHRONOUS ?? 'NORMAL'}`,
      'foreign_keys = ON',
    ]);
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
  current = sequelize;
  return sequelize;
}

/** The SQLite database file, or undefined for an in-memory database or MySQL/MariaDB. */
export function sqliteFile(sequelize: Sequelize): string | undefined {
  if (sequelize.getDialect() !== 'sqlite') return undefined;
  const storage = (sequelize as unknown as { options: { storage?: string } }).options.storage;
  return storage && storage !== ':memory:' ? storage : undefined;
}

export function database(): Sequelize {
  if (!current) throw new Error('openDatabase() has not been called');
  return current;
}

const closeHooks: ((sequelize: Sequelize) => Promise<void>)[] = [];

/** Work to do before the connections close (finalizing prepared statements). */
export function beforeClose(hook: (sequelize: Sequelize) => Promise<void>): void {
  closeHooks.push(hook);
}

export async function closeDatabase(): Promise<void> {
  const s = current;
  current = undefined;
  if (!s) return;
  for (const hook of closeHooks) await hook(s);
  await s.close();
}

/** Applies every pending migration, under a lock across processes; returns the names applied. */
export async function migrate(sequelize: Sequelize = database()): Promise<string[]> {
  for (const pragma of sqlitePragmas.get(sequelize) ?? []) await sequelize.query(`PRAGMA ${pragma}`);
  const umzug = new Umzug({
    migrations: migrations.map((m) => ({ name: m.name, up: () => m.up(sequelize.getQueryInterface()), down: () => m.down(sequelize.getQueryInterface()) })),
    context: sequelize.getQueryInterface(),
    storage: new SequelizeStorage({ sequelize, tableName: 'schema_migrations' }),
    logger: undefined,
  });
  // Services started together (N machines, or tests) take turns; the second finds nothing left to apply.
  const applied = await withMigrationLock(sequelize, sqliteFile(sequelize), () => umzug.up());
  return applied.map((m) => m.name);
}
