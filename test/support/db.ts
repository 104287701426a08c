// Test data: an empty database before each test, and users made with a cheap hash iteration count.
import { createUser, type AuthUser } from '../../src/auth/users';
import type { Redis } from '../../src/store/redis';
import { testRuntime } from './runtime';

/** The suite runtime's Redis client (REDIS_URL), connected: while it is not, a command fails at once (src/store/redis.ts). */
export async function testRedis(): Promise<Redis> {
  const redis = testRuntime().redis();
  if (!redis) throw new Error('REDIS_URL is not set');
  await redis.ready();
  return redis.client;
}

/**
 * Empties every table except the migration log, and with REDIS_URL its Redis database (sessions, throttle counters).
 * Before each test of most files, so it is made cheap (issue 32): one statement finds the tables holding a row, and
 * only those are emptied; on MariaDB in one transaction on one connection (the session's FOREIGN_KEY_CHECKS holds for
 * its statements, and InnoDB flushes its log once, not once per table).
 */
export async function resetDatabase(): Promise<void> {
  if (process.env.REDIS_URL) await (await testRedis()).flushDb();
  const { sequelize } = testRuntime().store;
  const qi = sequelize.getQueryInterface();
  const tables = ((await qi.showAllTables()) as unknown[]).map((t) =>
    typeof t === 'string' ? t : (t as { tableName: string }).tableName,
  );
  // The search index (SQLite's snippet_search and its shadow tables) follows the snippets through its triggers: emptied
  // by hand it would no longer match them.
  const emptiable = tables.filter((t) => t !== 'schema_migrations' && !t.startsWith('snippet_search'));
  if (!emptiable.length) return;
  const [[held]] = (await sequelize.query(
    `SELECT ${emptiable.map((t, i) => `EXISTS (SELECT 1 FROM ${qi.quoteIdentifier(t)}) AS t${i}`).join(', ')}`,
  )) as [Record<string, unknown>[], unknown];
  const emptied = emptiable.filter((_t, i) => Number(held?.[`t${i}`]) === 1);
  if (!emptied.length) return;
  const deletes = emptied.map((t) => `DELETE FROM ${qi.quoteIdentifier(t)}`);
  if (sequelize.getDialect() === 'sqlite') {
    // SQLite ignores this pragma inside a transaction; in memory it has no log to flush.
    await sequelize.query('PRAGMA foreign_keys = OFF');
    for (const sql of deletes) await sequelize.query(sql);
    await sequelize.query('PRAGMA foreign_keys = ON');
    return;
  }
  await sequelize.transaction(async (transaction) => {
    await sequelize.query('SET FOREIGN_KEY_CHECKS = 0', { transaction });
    for (const sql of deletes) await sequelize.query(sql, { transaction });
    await sequelize.query('SET FOREIGN_KEY_CHECKS = 1', { transaction });
  });
}

export const PASSWORDS: Record<string, string> = { alice: 'alicepass', bob: 'bobpass' };

export async function makeUser(
  username: string,
  password = PASSWORDS[username] ?? `${username}pass`,
): Promise<AuthUser> {
  return createUser(testRuntime().store, username, password, { iterations: 1000 });
}
