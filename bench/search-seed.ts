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

const created = (i: number) => new Date(Date.parse('2026-01-01T00:00:00Z') + i * 1000);

function sqliteRun(db: sqlite3.Database, sql: string, params: unknown[] = []): Promise<void> {
  return new Promise((resolve, reject) => db.run(sql, params, (err) => (err ? reject(err) : resolve())));
}

/** The bench owner `ownerIds[0]` exists already (made by the CLI); the others are inserted here, without a usable password. */
export async function seedSqlite(file: string, count: number, benchUserId: number): Promise<void> {
  const db = new sqlite3.Database(file);
  try {
    await sqliteRun(db, 'PRAGMA journal_mode = WAL');
    await sqliteRun(db, 'BEGIN');
    const ids = [benchUserId];
    for (let u = 1; u < OWNERS; u++) {
      await sqliteRun(
        db,
        "INSERT INTO users (username, password, email, is_superuser, date_joined, is_active) VALUES (?, '!', '', 0, ?, 1)",
        [`user${u}`, '2026-01-01 00:00:00.000 +00:00'],
      );
      ids.push(
        await new Promise<number>((resolve, reject) =>
          db.get('SELECT last_insert_rowid() AS id', (err, row: { id: number }) =>
            err ? reject(err) : resolve(row.id),
          ),
        ),
      );
    }
    const stmt = db.prepare(
      "INSERT INTO snippets (created, title, code, linenos, language, style, highlighted, owner_id) VALUES (?, ?, ?, 0, ?, 'friendly', '<!DOCTYPE html>', ?)",
    );
    for (let i = 0; i < count; i++) {
      const row = snippetRow(i);
      const at = created(i).toISOString().replace('T', ' ').replace('Z', ' +00:00');
      await new Promise<void>((resolve, reject) =>
        stmt.run(at, row.title, row.code, row.language, ids[row.owner], (err: Error | null) =>
          err ? reject(err) : resolve(),
        ),
      );
      if (i % 20000 === 0) process.stderr.write(`bench: seeding SQLite… ${i}/${count}\n`);
    }
    await new Promise((r) => stmt.finalize(r));
    await sqliteRun(db, 'COMMIT');
    await sqliteRun(db, 'PRAGMA wal_checkpoint(TRUNCATE)');
  } finally {
    await new Promise((r) => db.close(r));
  }
}

export async function seedMysql(url: string, count: number, benchUserId: number): Promise<void> {
  const conn = await mysql.createConnection({ uri: url, charset: 'utf8mb4' });
  try {
    const ids = [benchUserId];
    for (let u = 1; u < OWNERS; u++) {
      const [res] = await conn.query<mysql.ResultSetHeader>(
        "INSERT INTO users (username, password, email, is_superuser, date_joined, is_active) VALUES (?, '!', '', 0, NOW(6), 1)",
        [`user${u}`],
      );
      ids.push(res.insertId);
    }
    const BATCH = 500;
    for (let from = 0; from < count; from += BATCH) {
      const values = [];
      for (let i = from; i < Math.min(count, from + BATCH); i++) {
        const row = snippetRow(i);
        values.push([created(i), row.title, row.code, 0, row.language, 'friendly', '<!DOCTYPE html>', ids[row.owner]]);
      }
      await conn.query(
        'INSERT INTO snippets (created, title, code, linenos, language, style, highlighted, owner_id) VALUES ?',
        [values],
      );
      if (from % 20000 === 0) process.stderr.write(`bench: seeding MariaDB… ${from}/${count}\n`);
    }
  } finally {
    await conn.end();
  }
}
