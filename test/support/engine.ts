// What the database engine is still doing: statements running on MySQL/MariaDB, as its process list shows them.
import { QueryTypes, type Sequelize } from 'sequelize';
import type { Store } from '../../src/store/database';
import type { MysqlEngine } from '../../src/store/mysql/engine';
import type { SqliteEngine } from '../../src/store/sqlite/engine';

/**
 * MySQL/MariaDB: the statements running on the current database (`DATABASE()`), other than this one. A user without
 * the PROCESS privilege (the service's, CI's) sees its own connections only: those are the ones a service runs on.
 * `marker`: only statements whose text holds it. A connection being killed ('Killed') still counts.
 */
export async function statementsRunning(sequelize: Sequelize, marker?: string): Promise<number> {
  const [row] = await sequelize.query<{ n: number }>(
    `SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST
      WHERE DB = DATABASE() AND COMMAND NOT IN ('Sleep', 'Daemon') AND ID <> CONNECTION_ID()${marker ? ' AND INFO LIKE ?' : ''}`,
    { type: QueryTypes.SELECT, replacements: marker ? [`%${marker}%`] : [] },
  );
  return Number(row!.n);
}

/**
 * Resolves once `check` holds, polled every 50 ms; rejects after `ms` (a hang detector, not a measure: 90 s, inside
 * mocha's 120 s; 20 s left a machine busy with two suites little room, issue 32).
 */
export async function eventually(check: () => Promise<boolean>, ms = 90_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`not so within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Whether the test's store is SQLite's (tests may ask; the service never does: src/store/engine.ts). */
export const isSqlite = (store: Store) => store.engine.name === 'sqlite';

/** The SQLite engine's lanes (its readers), for tests that watch them. */
export const sqliteLanes = (store: Store) => {
  const engine = store.engine as SqliteEngine;
  return { read: engine.read, search: engine.searchLane };
};

/** The MySQL/MariaDB engine's pools: the read lane's first, and the search lane's. */
export const mysqlPools = (store: Store) => {
  const engine = store.engine as MysqlEngine;
  return { read: engine.read.pools[0]!, search: engine.searchLane.pools };
};

/** Runs `work` with each read of the store's engine told to `note` (its SQL, whether it is a lookup); work's answer. */
export async function readsDuring<T>(
  store: Store,
  note: (sql: string, urgent: boolean) => void,
  work: () => Promise<T>,
): Promise<T> {
  const engine = store.engine;
  const select = engine.select.bind(engine);
  engine.select = (sql, params, kind, urgent) => {
    note(sql, urgent);
    return select(sql, params, kind, urgent);
  };
  try {
    return await work();
  } finally {
    engine.select = select;
  }
}
