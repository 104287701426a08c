// One database, open: the engine's store that owns its connections (src/store/sqlite/, src/store/mysql/), the models
// bound to it, and the settings every save reads.
import type { Config } from '../config';
import type { Highlighter } from '../highlight';
import { defineModels, type Models } from '../models';
import type { Engine } from './engine';
import { MysqlEngine } from './mysql/engine';
import { SqliteEngine } from './sqlite/engine';
import { WriteLine } from './write-line';

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
      | 'SNIPPET_WRITE_CONCURRENCY'
      | 'WEB_CONCURRENCY'
    >
  >;

/** What every read and write of the store is handed. */
export interface Store {
  /** The engine's store: its connections, statements, transactions and dialect. */
  engine: Engine;
  /** Sequelize on this database (the engine's): the models and the migrations. */
  sequelize: Engine['sequelize'];
  /** The models, bound to this database (each store has classes of its own). */
  models: Models;
  /** SNIPPET_REVISIONS_KEEP: the newest revisions kept per snippet, 0 for all (no thinning). */
  revisionsKeep: number;
  /** SNIPPET_REVISIONS_DAILY: older than those, the last of each day, at most this many. */
  revisionsDaily: number;
  /** USER_QUOTA_BYTES: bytes of revisions a user's snippets may keep, 0 for no quota. */
  quotaBytes: number;
  /**
   * The line the snippet writes of this process wait in beside reads (./write-line.ts): its share of
   * SNIPPET_WRITE_CONCURRENCY, which bounds the writes of the service's WEB_CONCURRENCY processes together, since they
   * share the machine's cores.
   */
  writeLine: WriteLine;
  /** When the last write found the disk full (ms since the epoch); undefined once a write succeeds again. */
  diskFullSince?: number;
}

/**
 * The store of DATABASE_URL's engine, its models' hook rendering `highlighted` with `highlighter`; `reading` tells its
 * snippet writes' line whether reads are in flight in this process (./write-line.ts). Nothing connects yet.
 */
export function openStore(config: StoreConfig, highlighter: Highlighter, reading: () => boolean): Store {
  const engine = config.DATABASE_URL.startsWith('sqlite:')
    ? new SqliteEngine(config.DATABASE_URL, config)
    : new MysqlEngine(config);
  return {
    engine,
    sequelize: engine.sequelize,
    models: defineModels(engine.sequelize, highlighter),
    revisionsKeep: config.SNIPPET_REVISIONS_KEEP ?? 0,
    revisionsDaily: config.SNIPPET_REVISIONS_DAILY ?? 0,
    quotaBytes: config.USER_QUOTA_BYTES ?? 0,
    writeLine: new WriteLine(
      Math.ceil((config.SNIPPET_WRITE_CONCURRENCY ?? 12) / (config.WEB_CONCURRENCY ?? 1)),
      config.DATABASE_TIMEOUT_MS ?? 5000,
      reading,
    ),
  };
}

/** Closes every connection the store opened; the store is not used again. */
export function closeStore(open: Store): Promise<void> {
  return open.engine.close();
}
