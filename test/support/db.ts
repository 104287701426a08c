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

/** Empties every table except the migration log, and with REDIS_URL its Redis database (sessions, throttle counters). */
export async function resetDatabase(): Promise<void> {
  if (process.env.REDIS_URL) await (await testRedis()).flushDb();
  const { sequelize } = testRuntime().store;
  const qi = sequelize.getQueryInterface();
  const tables = ((await qi.showAllTables()) as unknown[]).map((t) =>
    typeof t === 'string' ? t : (t as { tableName: string }).tableName,
  );
  const mysql = sequelize.getDialect() !== 'sqlite';
  await sequelize.query(mysql ? 'SET FOREIGN_KEY_CHECKS = 0' : 'PRAGMA foreign_keys = OFF');
  // The search index (SQLite's snippet_search and its shadow tables) follows the snippets through its triggers: emptied
  // by hand it would no longer match them.
  const emptied = tables.filter((t) => t !== 'schema_migrations' && !t.startsWith('snippet_search'));
  for (const table of emptied) await sequelize.query(`DELETE FROM ${qi.quoteIdentifier(table)}`);
  await sequelize.query(mysql ? 'SET FOREIGN_KEY_CHECKS = 1' : 'PRAGMA foreign_keys = ON');
}

export const PASSWORDS: Record<string, string> = { alice: 'alicepass', bob: 'bobpass' };

export async function makeUser(
  username: string,
  password = PASSWORDS[username] ?? `${username}pass`,
): Promise<AuthUser> {
  return createUser(testRuntime().store, username, password, { iterations: 1000 });
}
