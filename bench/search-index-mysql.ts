// `npm run bench:search-index:mysql`: MySQL/MariaDB's search index (src/store/mysql/search-index.ts) on the snippets of
// `npm run bench:search` (BENCH_DATABASE_URL, a database whose name holds `bench`: its tables are dropped first), in the
// database alone: its build, its size against the code, the rare term's page, and creates and code-changing updates
// without the index, with it (the words of rare trigrams only, kept), and with every trigram's word (the design of
// h-search-maria before), in interleaved rounds so that the ratios come from the same minutes of a busy machine.
import { loadavg } from 'node:os';
import mysql from 'mysql2/promise';
import type { Highlighter } from '../src/highlight';
import { closeStore, openStore } from '../src/store/database';
import { migrate } from '../src/store/migrate';
import { withoutStatementDeadline } from '../src/store/mysql-deadline';
import { LOWERED } from '../src/store/mysql/search-index';
import { trigramWords } from '../src/store/mysql/trigram-words';
import { RARE_TERM, seedMysql, writeCode } from './search-seed';
import { markdownTable } from './table';
import { parseSearch } from '../src/snippets/query';

const COUNT = Number(process.env.BENCH_SEARCH_SNIPPETS ?? 100000);
/** Transactions per write measure and round, on 4 connections. */
const DB_WRITES = Number(process.env.BENCH_DB_WRITES ?? 200);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

const log = (line: string) => process.stderr.write(`bench: ${line}\n`);
const load = () => loadavg()[0]!.toFixed(1);
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * `plain`: the rare trigrams' row written by the same statements into a table without the FULLTEXT index (what the
 * statements cost, apart from InnoDB's FULLTEXT work at commit).
 */
type Design = 'none' | 'rare' | 'all' | 'plain';

/** One save in the database alone, as the service's transaction makes it (src/store/snippets/writes.ts), with `design`'s row. */
async function save(
  conn: mysql.Connection,
  design: Design,
  kind: 'create' | 'update',
  id: number,
  code: string,
  owner: number,
) {
  // The text lowered by the server before the transaction, then one statement in it (MysqlEngine.searchEntry).
  let words = '';
  if (design !== 'none') {
    const [[row]] = await conn.execute<mysql.RowDataPacket[]>(LOWERED, ['bench', code]);
    words = trigramWords([row!.title as string, row!.code as string], 3, design === 'all').join(' ');
  }
  await conn.query('START TRANSACTION');
  if (kind === 'create') {
    const [res] = await conn.execute<mysql.ResultSetHeader>(
      "INSERT INTO snippets (created, title, code, linenos, language, style, highlighted, owner_id) VALUES (NOW(6), 'bench', ?, 0, 'python', 'friendly', '<!DOCTYPE html>', ?)",
      [code, owner],
    );
    id = res.insertId;
  } else await conn.execute('UPDATE snippets SET code = ?, revision = revision + 1 WHERE id = ?', [code, id]);
  if (design !== 'none')
    await conn.execute(
      `INSERT INTO ${design === 'plain' ? 'plain_trigram_words' : 'snippet_trigram_words'} (snippet_id, words) VALUES (?, ?) ON DUPLICATE KEY UPDATE words = VALUES(words)`,
      [id, words],
    );
  await conn.query('COMMIT');
}

async function rate(
  conns: mysql.Connection[],
  design: Design,
  kind: 'create' | 'update',
  owner: number,
  ids: number[],
  seed: number,
) {
  let next = 0;
  const started = Date.now();
  await Promise.all(
    conns.map(async (conn) => {
      while (next < DB_WRITES) {
        const n = next++;
        await save(conn, design, kind, ids[n % ids.length]!, writeCode(seed + n), owner);
      }
    }),
  );
  return (DB_WRITES * 1000) / (Date.now() - started);
}

async function main(): Promise<void> {
  const url = process.env.BENCH_DATABASE_URL;
  if (!url?.startsWith('mysql://') || !/bench/.test(new URL(url).pathname))
    throw new Error('BENCH_DATABASE_URL=mysql://…/<a database whose name holds bench>');
  const conn = await mysql.createConnection({ uri: url, charset: 'utf8mb4', multipleStatements: true });
  const [tables] = await conn.query<mysql.RowDataPacket[]>('SHOW TABLES');
  await conn.query('SET FOREIGN_KEY_CHECKS = 0');
  for (const t of tables) await conn.query(`DROP TABLE \`${String(Object.values(t)[0])}\``);
  await conn.query('SET FOREIGN_KEY_CHECKS = 1');
  const store = openStore({ DATABASE_URL: url, DATABASE_TIMEOUT_MS: 600_000 }, {} as Highlighter);
  await migrate(store);
  const [user] = await conn.query<mysql.ResultSetHeader>(
    "INSERT INTO users (username, password, email, is_superuser, date_joined, is_active) VALUES ('bench', '!', '', 0, NOW(6), 1)",
  );
  const owner = user.insertId;
  log(`seeding ${COUNT} snippets (load ${load()})…`);
  await seedMysql(url, COUNT, owner);

  // Words per snippet, every trigram's against the rare trigrams' only.
  let allWords = 0;
  let rareWords = 0;
  for (let after = 0; ;) {
    const [rows] = await conn.query<mysql.RowDataPacket[]>(
      'SELECT id, LOWER(title) AS t, LOWER(code) AS c FROM snippets WHERE id > ? ORDER BY id LIMIT 2000',
      [after],
    );
    if (!rows.length) break;
    for (const r of rows) {
      allWords += trigramWords([r.t as string, r.c as string], 3, true).length;
      rareWords += trigramWords([r.t as string, r.c as string], 3).length;
    }
    after = Number(rows.at(-1)!.id);
  }

  log(`building the index (snippets reindex's batches of 500, load ${load()})…`);
  const buildLoad = load();
  let t = Date.now();
  for (let afterId = 0; ;) {
    const batch = await store.engine.reindexBatch!(afterId, 500);
    if (!batch.count) break;
    afterId = batch.lastId!;
  }
  const buildSeconds = (Date.now() - t) / 1000;
  await conn.query('ANALYZE TABLE snippets, snippet_trigram_words');
  const [[code]] = await conn.query<mysql.RowDataPacket[]>(
    'SELECT SUM(LENGTH(title) + LENGTH(code)) AS b FROM snippets',
  );
  const codeBytes = Number(code!.b);
  const size = async () => {
    const [[row]] = await conn.query<mysql.RowDataPacket[]>(
      "SELECT data_length + index_length AS b FROM information_schema.TABLES WHERE table_schema = DATABASE() AND table_name = 'snippet_trigram_words'",
    );
    let fulltext = NaN;
    try {
      const [fts] = await conn.query<mysql.RowDataPacket[]>(
        "SELECT SUM(ALLOCATED_SIZE) AS b FROM information_schema.INNODB_SYS_TABLESPACES WHERE NAME LIKE CONCAT(DATABASE(), '/FTS\\_%')",
      );
      fulltext = Number(fts[0]?.b ?? NaN);
    } catch {
      // Without the PROCESS privilege: not readable.
    }
    return { row: Number(row!.b), fulltext };
  };
  const built = await size();

  // The rare term's page, as the service reads it (MysqlEngine.search: the index's candidates, verified).
  const search = await store.engine.search(parseSearch(RARE_TERM));
  const page = `SELECT s.id FROM snippets s STRAIGHT_JOIN users u ON u.id = s.owner_id WHERE ${[...search.where, ...search.check].join(' AND ')} ORDER BY s.created, s.id LIMIT 101`;
  const params = [...search.params, ...search.checkParams];
  const rareLoad = load();
  const ms: number[] = [];
  let matches = 0;
  for (let i = 0; i < 21; i++) {
    t = Date.now();
    const [rows] = await conn.execute<mysql.RowDataPacket[]>(page, params as never);
    ms.push(Date.now() - t);
    matches = rows.length;
  }

  const [idRows] = await conn.query<mysql.RowDataPacket[]>('SELECT id FROM snippets ORDER BY id LIMIT 1000');
  const ids = idRows.map((r) => Number(r.id));
  await conn.query(
    'CREATE TABLE plain_trigram_words (snippet_id INTEGER NOT NULL PRIMARY KEY, words MEDIUMTEXT CHARACTER SET ascii COLLATE ascii_bin NOT NULL) ENGINE=InnoDB',
  );
  const conns = await Promise.all([0, 1, 2, 3].map(() => mysql.createConnection({ uri: url, charset: 'utf8mb4' })));
  const rates: Record<Design, { create: number[]; update: number[] }> = {
    none: { create: [], update: [] },
    rare: { create: [], update: [] },
    all: { create: [], update: [] },
    plain: { create: [], update: [] },
  };
  const writeLoads: string[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    writeLoads.push(load());
    for (const design of ['none', 'plain', 'rare', 'all'] as const)
      for (const kind of ['create', 'update'] as const) {
        const r = await rate(conns, design, kind, owner, ids, 5_000_000 + round * 10 * DB_WRITES);
        rates[design][kind].push(r);
        log(`round ${round + 1}: ${design} ${kind} ${r.toFixed(0)}/s (load ${load()})`);
      }
  }
  await Promise.all(conns.map((c) => c.end()));
  await conn.end();
  await withoutStatementDeadline(() => closeStore(store));

  const fmt = (xs: number[]) => `${median(xs).toFixed(0)}/s (${xs.map((x) => x.toFixed(0)).join(', ')})`;
  const pct = (d: Design, k: 'create' | 'update') =>
    `${((median(rates[d][k]) / median(rates.none[k])) * 100).toFixed(0)}%`;
  console.log(`\nSearch index bench (MySQL/MariaDB alone): ${COUNT} snippets, node ${process.version}\n`);
  console.log(
    markdownTable([
      ['measure', 'figure', 'load average'],
      ['title and code', mb(codeBytes), ''],
      ['words per snippet, every trigram (before)', (allWords / COUNT).toFixed(0), ''],
      ['words per snippet, rare trigrams only (kept)', (rareWords / COUNT).toFixed(0), ''],
      ['build (batches of 500)', `${buildSeconds.toFixed(0)} s`, buildLoad],
      ['row of words (table + its keys)', `${mb(built.row)} (${(built.row / codeBytes).toFixed(2)}× the code)`, ''],
      [
        'FULLTEXT tables',
        Number.isNaN(built.fulltext) ? 'not readable (PROCESS privilege)' : `${mb(built.fulltext)}`,
        '',
      ],
      [`rare term (${RARE_TERM}), p50 of 21`, `${median(ms)} ms, ${matches} rows`, rareLoad],
    ]),
  );
  console.log(
    `\nWrites in the database alone, 4 connections, ${DB_WRITES} per measure, median of ${ROUNDS} rounds (load at each round: ${writeLoads.join(', ')})\n`,
  );
  console.log(
    markdownTable([
      ['design', 'creates', 'against none', 'code-changing updates', 'against none'],
      ['no index', fmt(rates.none.create), '', fmt(rates.none.update), ''],
      [
        'rare trigrams only (kept)',
        fmt(rates.rare.create),
        pct('rare', 'create'),
        fmt(rates.rare.update),
        pct('rare', 'update'),
      ],
      [
        'every trigram (before)',
        fmt(rates.all.create),
        pct('all', 'create'),
        fmt(rates.all.update),
        pct('all', 'update'),
      ],
      [
        'rare trigrams, no FULLTEXT (the statements alone)',
        fmt(rates.plain.create),
        pct('plain', 'create'),
        fmt(rates.plain.update),
        pct('plain', 'update'),
      ],
    ]),
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
