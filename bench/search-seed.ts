// The search bench's data: 100,000 snippets of real code (windows of bench/fixtures), 100 owners, 13 languages,
// written straight into the database as an operator's existing data would be (rendering them is not what is measured).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import mysql from 'mysql2/promise';
import sqlite3 from 'sqlite3';
import { rngFor } from './prng';

export const OWNERS = 100;
/** In one snippet of RARE_EVERY: the selective search (50 matches in 100,000). */
export const RARE_TERM = 'zq_rare_marker';
const RARE_EVERY = 2000;

const FIXTURES = readdirSync(path.join(__dirname, 'fixtures'))
  .filter((f) => f.endsWith('.txt'))
  .map((f) => ({
    language: f.replace(/\.txt$/, ''),
    lines: readFileSync(path.join(__dirname, 'fixtures', f), 'utf8').split('\n'),
  }));

/** Snippet i: a window of 5 to 80 lines of one fixture, titled, owned by user i % OWNERS (user 0 is the bench's own). */
export function snippetRow(i: number): { title: string; code: string; language: string; owner: number } {
  const rng = rngFor(20, i);
  const fixture = FIXTURES[i % FIXTURES.length]!;
  const length = rng.int(5, 80);
  const start = rng.int(0, Math.max(0, fixture.lines.length - length));
  const lines = fixture.lines.slice(start, start + length);
  lines.splice(
    rng.int(0, lines.length),
    0,
    `# snippet ${i} ${((i * 2654435761) >>> 0).toString(36)}${i % RARE_EVERY === 7 ? ` ${RARE_TERM}` : ''}`,
  );
  return {
    title: `${fixture.language} snippet ${i}`,
    code: lines.join('\n'),
    language: fixture.language,
    owner: i % OWNERS,
  };
}

/** A code body for the write scenarios: a fixture window of about 2 KB, different each time. */
export function writeCode(n: number): string {
  return snippetRow(n + 1_000_000).code;
}

/** When snippet i was created: a second apart from 2026-01-01, in the order of i. */
export const createdAt = (i: number) => new Date(Date.parse('2026-01-01T00:00:00Z') + i * 1000);

function sqliteRun(db: sqlite3.Database, sql: string, params: unknown[] = []): Promise<void> {
  return new Promise((resolve, reject) => db.run(sql, params, (err) => (err ? reject(err) : resolve())));
}
function sqliteAll<T>(db: sqlite3.Database, sql: string, params: unknown[] = []): Promise<T[]> {
  return new Promise((resolve, reject) => db.all(sql, params, (err, rows: T[]) => (err ? reject(err) : resolve(rows))));
}

/** Rows a multi-row INSERT carries: SQLite's 32,766 parameters and MariaDB's packet are far above it. */
const BATCH = 500;

/**
 * Snippets `from` to `count - 1` (their owners, users 1 to 99, made first when `from` is 0), into a migrated file whose
 * user `benchUserId` exists. In bulk: the search index's insert trigger (when the file has it) is lifted while the rows go
 * in and FTS5 builds the index in one pass after (its `rebuild`), instead of one index write per row.
 */
export async function seedSqlite(file: string, count: number, benchUserId: number, from = 0): Promise<void> {
  const db = new sqlite3.Database(file);
  try {
    await sqliteRun(db, 'PRAGMA journal_mode = WAL');
    await sqliteRun(db, 'BEGIN');
    if (from === 0)
      for (let u = 1; u < OWNERS; u++)
        await sqliteRun(
          db,
          "INSERT INTO users (username, password, email, is_superuser, date_joined, is_active) VALUES (?, '!', '', 0, ?, 1)",
          [`user${u}`, '2026-01-01 00:00:00.000 +00:00'],
        );
    const users = await sqliteAll<{ id: number; username: string }>(
      db,
      "SELECT id, username FROM users WHERE username LIKE 'user%'",
    );
    const ids = [benchUserId];
    for (const u of users) ids[Number(u.username.slice(4))] = u.id;
    const [trigger] = await sqliteAll<{ sql: string }>(
      db,
      "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'snippet_search_insert'",
    );
    if (trigger) await sqliteRun(db, 'DROP TRIGGER snippet_search_insert');
    const [{ last }] = (await sqliteAll<{ last: number }>(db, 'SELECT COALESCE(MAX(id), 0) AS last FROM snippets')) as [
      { last: number },
    ];
    for (let start = from; start < count; start += BATCH) {
      const params: unknown[] = [];
      for (let i = start; i < Math.min(count, start + BATCH); i++) {
        const row = snippetRow(i);
        const at = createdAt(i).toISOString().replace('T', ' ').replace('Z', ' +00:00');
        params.push(at, row.title, row.code, row.language, ids[row.owner]);
      }
      await sqliteRun(
        db,
        `INSERT INTO snippets (created, title, code, linenos, language, style, highlighted, owner_id) VALUES ${Array(
          params.length / 5,
        )
          .fill("(?, ?, ?, 0, ?, 'friendly', '<!DOCTYPE html>', ?)")
          .join(', ')}`,
        params,
      );
      if (start % 50000 === 0) process.stderr.write(`bench: seeding SQLite… ${start}/${count}\n`);
    }
    if (trigger) {
      // The seeded rows, as the insert trigger would have added them (a contentless index has no 'rebuild': 0018).
      process.stderr.write('bench: adding the seeded snippets to the SQLite search index…\n');
      await sqliteRun(
        db,
        'INSERT INTO snippet_search(rowid, title, code) SELECT id, title, code FROM snippets WHERE id > ?',
        [last],
      );
      await sqliteRun(db, trigger.sql);
    }
    await sqliteRun(db, 'COMMIT');
    if (trigger) await sqliteRun(db, "INSERT INTO snippet_search(snippet_search) VALUES ('optimize')");
    await sqliteRun(db, 'PRAGMA wal_checkpoint(TRUNCATE)');
  } finally {
    await new Promise((r) => db.close(r));
  }
}

/** Snippets `from` to `count - 1` into a migrated database (their owners made first when `from` is 0), unindexed. */
export async function seedMysql(url: string, count: number, benchUserId: number, from = 0): Promise<void> {
  const conn = await mysql.createConnection({ uri: url, charset: 'utf8mb4' });
  try {
    if (from === 0)
      for (let u = 1; u < OWNERS; u++)
        await conn.query(
          "INSERT INTO users (username, password, email, is_superuser, date_joined, is_active) VALUES (?, '!', '', 0, NOW(6), 1)",
          [`user${u}`],
        );
    const [users] = await conn.query<mysql.RowDataPacket[]>(
      "SELECT id, username FROM users WHERE username LIKE 'user%'",
    );
    const ids = [benchUserId];
    for (const u of users) ids[Number(String(u.username).slice(4))] = Number(u.id);
    for (let start = from; start < count; start += BATCH) {
      const values = [];
      for (let i = start; i < Math.min(count, start + BATCH); i++) {
        const row = snippetRow(i);
        values.push([
          createdAt(i),
          row.title,
          row.code,
          0,
          row.language,
          'friendly',
          '<!DOCTYPE html>',
          ids[row.owner],
        ]);
      }
      await conn.query(
        'INSERT INTO snippets (created, title, code, linenos, language, style, highlighted, owner_id) VALUES ?',
        [values],
      );
      if (start % 50000 === 0) process.stderr.write(`bench: seeding MariaDB… ${start}/${count}\n`);
    }
  } finally {
    await conn.end();
  }
}
