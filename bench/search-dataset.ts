// The search bench's seeded databases, kept between runs: a SQLite file under the system's temporary folder named by
// the count and the migrations (a run works on a copy of it), and a MariaDB/MySQL database marked with what it holds
// (a run deletes the snippets it wrote when it ends). BENCH_RESEED=1 seeds them again.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import mysql from 'mysql2/promise';
import { openMysql } from './engine';
import { seedMysql, seedSqlite } from './search-seed';
import { ROOT } from './service';

const RESEED = process.env.BENCH_RESEED === '1';
const SECRET = 'bench-secret-key-bench-secret-key-bench';

/** A seed made before a migration was added, or by other seeding code, is not reused: both name the copy. */
function seedVersion(): string {
  const hash = createHash('sha256');
  hash.update(readdirSync(path.join(ROOT, 'src/migrations')).sort().join('\n'));
  hash.update(readFileSync(path.join(__dirname, 'search-seed.ts')));
  return hash.digest('hex').slice(0, 10);
}

/** `snippets …` of the built service, its progress on this process's stderr; no time limit (a reindex of 400,000). */
export function snippetsCommand(databaseUrl: string, ...args: string[]): void {
  const res = spawnSync(process.execPath, [path.join(ROOT, 'dist/server/cli.js'), ...args], {
    env: { ...process.env, DATABASE_URL: databaseUrl, SECRET_KEY: SECRET, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (res.status !== 0) throw new Error(`snippets ${args.join(' ')} failed (${res.status ?? res.signal})`);
}

/** The SQLite file of `count` seeded snippets (made on first use), with the user `bench` (password `benchpass`). */
export async function sqliteSeed(count: number): Promise<string> {
  const file = path.join(tmpdir(), `snippets-search-bench-${count}-${seedVersion()}.sqlite3`);
  if (existsSync(file) && !RESEED) {
    process.stderr.write(`bench: SQLite, ${count} snippets seeded before (${file})\n`);
    return file;
  }
  const building = `${file}.building`;
  rmSync(building, { force: true });
  const started = Date.now();
  snippetsCommand(`sqlite:${building}`, 'migrate');
  snippetsCommand(`sqlite:${building}`, 'createuser', 'bench', '--password', 'benchpass');
  await seedSqlite(building, count, 1);
  renameSync(building, file);
  process.stderr.write(
    `bench: SQLite seeded with ${count} snippets in ${((Date.now() - started) / 1000).toFixed(0)} s\n`,
  );
  return file;
}

/** A copy of the seeded file for one run, which may write to it and drop its index. */
export function sqliteCopy(seed: string, dir: string): string {
  const file = path.join(dir, 'search.sqlite3');
  copyFileSync(seed, file);
  return file;
}

/**
 * MariaDB/MySQL's search index for snippets written straight into the tables: the rows of words written by `snippets
 * reindex` into the table without its FULLTEXT key, then the key built in one pass (InnoDB sorts the words, where row
 * by row it would flush its cache at every commit). Stopwords off for the key, as migration 0015 makes it.
 */
export async function indexMysql(url: string): Promise<void> {
  const conn = await mysql.createConnection({ uri: url });
  try {
    await conn.query('ALTER TABLE snippet_trigram_words DROP INDEX snippet_trigram_words_words');
    process.stderr.write('bench: snippets reindex (the rows of words)…\n');
    snippetsCommand(url, 'reindex', '--batch-size', '2000');
    process.stderr.write('bench: building the FULLTEXT key…\n');
    await conn.query('SET SESSION innodb_ft_enable_stopword = OFF');
    await conn.query('ALTER TABLE snippet_trigram_words ADD FULLTEXT KEY snippet_trigram_words_words (words)');
  } finally {
    await conn.end();
  }
}

export interface MysqlSeed {
  url: string;
  /** The last seeded snippet's id: a run deletes those above it, its own writes. */
  lastId: number;
}

/**
 * The database of `url` holding `count` seeded snippets and their index: kept from an earlier run when its mark says
 * so (the snippets a run cut short wrote are deleted, the index table put back), else emptied and seeded (only a
 * database whose name says bench or test is emptied).
 */
export async function mysqlSeed(url: string, count: number): Promise<MysqlSeed> {
  const version = seedVersion();
  await createDatabase(url);
  const conn = await mysql.createConnection({ uri: url });
  try {
    const [marks] = await conn
      .query<mysql.RowDataPacket[]>('SELECT seeded, version, last_id FROM bench_search_seed')
      .catch(() => [[] as mysql.RowDataPacket[]]);
    const mark = marks[0];
    if (mark && Number(mark.seeded) === count && mark.version === version && !RESEED) {
      process.stderr.write(`bench: MariaDB, ${count} snippets seeded before\n`);
      await forgetRun(conn, Number(mark.last_id));
      return { url, lastId: Number(mark.last_id) };
    }
  } finally {
    await conn.end();
  }
  const started = Date.now();
  await (await openMysql(url)).close(); // empties it
  snippetsCommand(url, 'migrate');
  snippetsCommand(url, 'createuser', 'bench', '--password', 'benchpass');
  const c = await mysql.createConnection({ uri: url });
  try {
    const [[bench]] = await c.query<mysql.RowDataPacket[]>("SELECT id FROM users WHERE username = 'bench'");
    await seedMysql(url, count, Number(bench!.id));
    await indexMysql(url);
    await c.query('ANALYZE TABLE snippets, snippet_trigram_words');
    const [[last]] = await c.query<mysql.RowDataPacket[]>('SELECT MAX(id) AS id FROM snippets');
    await c.query('CREATE TABLE bench_search_seed (seeded INTEGER, version VARCHAR(20), last_id INTEGER)');
    await c.query('INSERT INTO bench_search_seed VALUES (?, ?, ?)', [count, version, last!.id]);
    process.stderr.write(
      `bench: MariaDB seeded with ${count} snippets and indexed in ${((Date.now() - started) / 1000).toFixed(0)} s\n`,
    );
    return { url, lastId: Number(last!.id) };
  } finally {
    await c.end();
  }
}

/** The database of `url` made when missing (the growth's), as the service's are: utf8mb4, binary collation. */
async function createDatabase(url: string): Promise<void> {
  const server = new URL(url);
  const name = decodeURIComponent(server.pathname.slice(1));
  server.pathname = '/';
  const conn = await mysql.createConnection({ uri: server.href });
  try {
    await conn.query(
      `CREATE DATABASE IF NOT EXISTS \`${name.replace(/`/g, '``')}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`,
    );
  } catch (err) {
    process.stderr.write(`bench: database ${name} not made (${(err as Error).message}): made by hand?\n`);
  } finally {
    await conn.end();
  }
}

const KEPT = 'snippet_trigram_words_kept';

/**
 * Writes without the index: its table set aside and one of the same columns on the BLACKHOLE engine in its place, so
 * the service's save runs its statement and InnoDB keeps nothing (without BLACKHOLE, an InnoDB table without the
 * FULLTEXT key). Answers which.
 */
export async function setIndexTableAside(url: string): Promise<string> {
  const conn = await mysql.createConnection({ uri: url });
  try {
    await conn.query(`RENAME TABLE snippet_trigram_words TO ${KEPT}`);
    const columns =
      'snippet_id INTEGER NOT NULL PRIMARY KEY, words MEDIUMTEXT CHARACTER SET ascii COLLATE ascii_bin NOT NULL';
    try {
      await conn.query(`CREATE TABLE snippet_trigram_words (${columns}) ENGINE=BLACKHOLE`);
      const [[engine]] = await conn.query<mysql.RowDataPacket[]>(
        "SELECT engine FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = 'snippet_trigram_words'",
      );
      if (String(engine!.engine).toUpperCase() === 'BLACKHOLE') return 'the index table on BLACKHOLE (nothing kept)';
      await conn.query('DROP TABLE snippet_trigram_words');
    } catch {
      // no BLACKHOLE engine on this server
    }
    await conn.query(`CREATE TABLE snippet_trigram_words (${columns}) ENGINE=InnoDB`);
    return 'the index table without its FULLTEXT key (no BLACKHOLE engine)';
  } finally {
    await conn.end();
  }
}

/** The index table back in place after setIndexTableAside (nothing to do when it is in place). */
export async function putIndexTableBack(url: string): Promise<void> {
  const conn = await mysql.createConnection({ uri: url });
  try {
    await restoreIndexTable(conn);
  } finally {
    await conn.end();
  }
}

async function restoreIndexTable(conn: mysql.Connection): Promise<void> {
  const [kept] = await conn.query<mysql.RowDataPacket[]>(
    'SELECT 1 FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = ?',
    [KEPT],
  );
  if (!kept.length) return;
  await conn.query('DROP TABLE IF EXISTS snippet_trigram_words');
  await conn.query(`RENAME TABLE ${KEPT} TO snippet_trigram_words`);
}

/** The index table back, the snippets above `lastId` deleted, the owners' stored bytes (their quota) counted again. */
async function forgetRun(conn: mysql.Connection, lastId: number): Promise<void> {
  await restoreIndexTable(conn);
  await conn.query('DELETE FROM snippets WHERE id > ?', [lastId]);
  await conn.query(
    "UPDATE user_storage SET stored_bytes = (SELECT COALESCE(SUM(r.bytes), 0) FROM snippet_revisions r JOIN snippets s ON s.id = r.snippet_id WHERE s.owner_id = user_storage.user_id) WHERE user_id = (SELECT id FROM users WHERE username = 'bench')",
  );
}

/** The index table back in place, and the snippets the run wrote (above `lastId`) deleted: the seed as it was. */
export async function restoreMysqlSeed(seed: MysqlSeed): Promise<void> {
  const conn = await mysql.createConnection({ uri: seed.url });
  try {
    await forgetRun(conn, seed.lastId);
  } finally {
    await conn.end();
  }
}
