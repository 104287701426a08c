// The abuse bench's data, written straight into the database (as bench/search-seed.ts writes its snippets): the search
// bench's snippets, users with API tokens for the other clients and for each attacker, a snippet with many large
// revisions, two snippets to diff (50,000 lines with nothing in common; a one-line change) and the PUT attacker's own.
import { randomBytes } from 'node:crypto';
import mysql from 'mysql2/promise';
import sqlite3 from 'sqlite3';
import { sha256 } from '../src/auth/digest';
import { indexMysql } from './search-dataset';
import { seedMysql, seedSqlite } from './search-seed';

/** The few statements the abuse bench runs itself, on either engine (`?` placeholders, portable SQL). */
export interface Sql {
  run(sql: string, params?: unknown[]): Promise<void>;
  all<T>(sql: string, params?: unknown[]): Promise<T[]>;
  /** A DATETIME(6) value as the service's own rows hold it. */
  stamp(at: Date): unknown;
  close(): Promise<void>;
}

export function openSql(url: string): Promise<Sql> {
  return url.startsWith('sqlite:') ? openSqliteSql(url.slice('sqlite:'.length)) : openMysqlSql(url);
}

async function openSqliteSql(file: string): Promise<Sql> {
  const db = await new Promise<sqlite3.Database>((resolve, reject) => {
    const d = new sqlite3.Database(file, (err) => (err ? reject(err) : resolve(d)));
  });
  db.configure('busyTimeout', 10000);
  return {
    run: (sql, params = []) =>
      new Promise((resolve, reject) => db.run(sql, params, (err) => (err ? reject(err) : resolve()))),
    all: <T>(sql: string, params: unknown[] = []) =>
      new Promise<T[]>((resolve, reject) =>
        db.all(sql, params, (err, rows: T[]) => (err ? reject(err) : resolve(rows))),
      ),
    // Sequelize's SQLite format, as bench/search-seed.ts writes it.
    stamp: (at) => at.toISOString().replace('T', ' ').replace('Z', ' +00:00'),
    close: () => new Promise((resolve) => db.close(() => resolve())),
  };
}

async function openMysqlSql(url: string): Promise<Sql> {
  const conn = await mysql.createConnection({ uri: url, charset: 'utf8mb4', connectTimeout: 10000 });
  return {
    run: async (sql, params = []) => void (await conn.query(sql, params)),
    all: async <T>(sql: string, params: unknown[] = []) =>
      (await conn.query<mysql.RowDataPacket[]>(sql, params))[0] as T[],
    stamp: (at) => at,
    close: () => conn.end(),
  };
}

export interface SeedSizes {
  /** Snippets of bench/search-seed.ts (real code, its rare term among them). */
  snippets: number;
  /** Revisions of the history snippet, each `REVISION_CHARS` long. */
  revisions: number;
}

export const REVISION_CHARS = 100_000;
/** Lines of each side of the big diff: one character and a line break each, the most the 100,000-character limit holds. */
export const DIFF_LINES = 50_000;
/** The PUT attacker's loops, each on a snippet of its own. */
export const PUT_LOOPS = 8;
export const WRITERS = 16;

export interface Seeded {
  /** A seeded snippet the other clients' readers fetch. */
  detailId: number;
  /** The other clients' writers, one user each: THROTTLE_USER counts each alone. */
  writerTokens: string[];
  attackers: { batch: Attacker; put: Attacker; halfClosed: Attacker };
  historyId: number;
  /** Revisions 1 and 2 have no line in common. */
  bigDiffId: number;
  /** Revisions 1 and 2 differ in one line. */
  smallDiffId: number;
  /** The PUT attacker's snippets. */
  putIds: number[];
}

export interface Attacker {
  id: number;
  username: string;
  token: string;
}

const AT = new Date('2026-01-02T00:00:00Z');

async function insertUser(sql: Sql, username: string): Promise<number> {
  // No usable password: the clients come with tokens.
  await sql.run(
    "INSERT INTO users (username, password, email, is_superuser, date_joined, is_active) VALUES (?, '!', '', 0, ?, 1)",
    [username, sql.stamp(AT)],
  );
  return (await sql.all<{ id: number }>('SELECT id FROM users WHERE username = ?', [username]))[0]!.id;
}

async function userWithToken(sql: Sql, username: string): Promise<Attacker> {
  const id = await insertUser(sql, username);
  const token = randomBytes(20).toString('hex');
  await sql.run('INSERT INTO tokens (user_id, `key`, key_digest, created) VALUES (?, ?, ?, ?)', [
    id,
    token,
    sha256(token),
    sql.stamp(AT),
  ]);
  return { id, username, token };
}

/** A snippet whose revisions 1…n hold `codes`, its current fields those of the last. */
async function snippetWithRevisions(
  sql: Sql,
  owner: number,
  title: string,
  codes: (n: number) => string,
  count: number,
): Promise<number> {
  const last = codes(count);
  await sql.run(
    "INSERT INTO snippets (created, title, code, linenos, language, style, highlighted, owner_id, revision) VALUES (?, ?, ?, 0, 'plaintext', 'friendly', '<!DOCTYPE html>', ?, ?)",
    [sql.stamp(AT), title, last, owner, count],
  );
  const id = (await sql.all<{ id: number }>('SELECT MAX(id) AS id FROM snippets'))[0]!.id;
  for (let n = 1; n <= count; n++) {
    await sql.run(
      "INSERT INTO snippet_revisions (snippet_id, n, saved, title, code, linenos, language, style) VALUES (?, ?, ?, ?, ?, 0, 'plaintext', 'friendly')",
      [id, n, sql.stamp(new Date(AT.getTime() + n * 1000)), title, n === count ? last : codes(n)],
    );
  }
  return Number(id);
}

/** `lines` lines cycling through `letters`: two such texts on disjoint letters have no line in common. */
const lettered = (letters: string, lines: number) =>
  Array.from({ length: lines }, (_, i) => letters[i % letters.length]).join('\n') + '\n';

/** Seeds a migrated, empty database. */
export async function seedAbuse(url: string, sizes: SeedSizes): Promise<Seeded> {
  const sql = await openSql(url);
  let bench: number;
  try {
    bench = await insertUser(sql, 'bench');
  } finally {
    await sql.close();
  }
  // search-seed opens the database itself (SQLite: WAL mode, one transaction).
  if (url.startsWith('sqlite:')) await seedSqlite(url.slice('sqlite:'.length), sizes.snippets, bench);
  else {
    await seedMysql(url, sizes.snippets, bench);
    await indexMysql(url); // the search index, as the service keeps it: the attacks' terms are looked up in it
  }
  const db = await openSql(url);
  try {
    const writerTokens: string[] = [];
    for (let w = 0; w < WRITERS; w++) writerTokens.push((await userWithToken(db, `writer${w}`)).token);
    const attackers = {
      batch: await userWithToken(db, 'abuse_batch'),
      put: await userWithToken(db, 'abuse_put'),
      halfClosed: await userWithToken(db, 'abuse_halfclosed'),
    };
    const detailId = (await db.all<{ id: number }>('SELECT MIN(id) AS id FROM snippets'))[0]!.id;
    const big = (n: number) => `# revision ${n}\n${'x'.repeat(REVISION_CHARS - 20)}\n`.slice(0, REVISION_CHARS);
    const historyId = await snippetWithRevisions(db, bench, 'many large revisions', big, sizes.revisions);
    const bigDiffId = await snippetWithRevisions(
      db,
      bench,
      'diff: nothing in common',
      (n) => lettered(n === 1 ? 'abcdefghijklm' : 'nopqrstuvwxyz', DIFF_LINES),
      2,
    );
    const smallDiffId = await snippetWithRevisions(
      db,
      bench,
      'diff: one line',
      (n) => `def f(x):\n    return x * ${n}\n`,
      2,
    );
    const putIds: number[] = [];
    for (let i = 0; i < PUT_LOOPS; i++)
      putIds.push(await snippetWithRevisions(db, attackers.put.id, `put loop ${i}`, () => `print(${i})\n`, 1));
    return { detailId: Number(detailId), writerTokens, attackers, historyId, bigDiffId, smallDiffId, putIds };
  } finally {
    await db.close();
  }
}
