// `npm run bench:search-index:mysql`: MySQL/MariaDB's search index (src/store/mysql/search-index.ts) on the snippets of
// `npm run bench:search` (BENCH_DATABASE_URL, a database whose name holds `bench`: its tables are dropped first), in the
// database alone: its build, its size against the code, the rare term's page, and creates and code-changing updates
// without the index, with it (the words of rare trigrams only, kept), with every trigram's word (the design of
// h-search-maria before), and with Phabricator's Ferret design (a side table of (trigram, snippet) rows, the trigrams
// in 15% or more of the snippets left out, a term's two rarest trigrams' lists intersected), in interleaved rounds so
// that the ratios come from the same minutes of a busy machine. BENCH_OTHER_DATABASE_URL, the same database through
// another node of a Galera cluster (`scripts/cluster.sh --nodes-only`): the write connections alternate between the
// two nodes, and the deadlocks counted are then also the certification conflicts between them.
import { loadavg } from 'node:os';
import mysql from 'mysql2/promise';
import type { Highlighter } from '../src/highlight';
import { closeStore, openStore } from '../src/store/database';
import { migrate } from '../src/store/migrate';
import { withoutStatementDeadline } from '../src/store/mysql-deadline';
import { LOWERED } from '../src/store/mysql/search-index';
import { termKeys, trigramKeys, trigramWords } from '../src/store/mysql/trigram-words';
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
type Design = 'none' | 'rare' | 'all' | 'plain' | 'ferret';

/** Ferret's side table: a row per (trigram hash, snippet), the snippet's rows found by the second key. */
const FERRET = `CREATE TABLE ferret_trigrams (
  trigram INT UNSIGNED NOT NULL,
  snippet_id INTEGER NOT NULL,
  PRIMARY KEY (trigram, snippet_id),
  KEY ferret_trigrams_snippet (snippet_id),
  CONSTRAINT ferret_trigrams_snippet FOREIGN KEY (snippet_id) REFERENCES snippets (id) ON DELETE CASCADE
) ENGINE=InnoDB`;

/** Ferret: the trigrams in this share of the snippets or more are neither stored nor asked. */
const FERRET_COMMON = 0.15;
/** The trigram hashes found in FERRET_COMMON of the seeded snippets or more (measured by main before the writes). */
const ferretCommon = new Set<number>();
/** Each rare trigram's hash in how many seeded snippets (to pick a term's two rarest). */
const ferretCounts = new Map<number, number>();

const ferretKeys = (title: string, code: string) => trigramKeys([title, code]).filter((k) => !ferretCommon.has(k));

/** A multi-row INSERT of (trigram, snippet) rows, in statements of at most 5,000 rows. */
async function insertFerret(conn: mysql.Connection, rows: [number, number][]): Promise<void> {
  for (let i = 0; i < rows.length; i += 5000) {
    const part = rows.slice(i, i + 5000);
    await conn.query(
      `INSERT IGNORE INTO ferret_trigrams (trigram, snippet_id) VALUES ${part.map(() => '(?, ?)').join(', ')}`,
      part.flat(),
    );
  }
}

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
  let keys: number[] = [];
  if (design !== 'none') {
    const [[row]] = await conn.execute<mysql.RowDataPacket[]>(LOWERED, ['bench', code]);
    if (design === 'ferret') keys = ferretKeys(row!.title as string, row!.code as string);
    else words = trigramWords([row!.title as string, row!.code as string], 3, design === 'all').join(' ');
  }
  await conn.query('START TRANSACTION');
  if (kind === 'create') {
    const [res] = await conn.execute<mysql.ResultSetHeader>(
      "INSERT INTO snippets (created, title, code, linenos, language, style, highlighted, owner_id) VALUES (NOW(6), 'bench', ?, 0, 'python', 'friendly', '<!DOCTYPE html>', ?)",
      [code, owner],
    );
    id = res.insertId;
  } else await conn.execute('UPDATE snippets SET code = ?, revision = revision + 1 WHERE id = ?', [code, id]);
  if (design === 'ferret') {
    // The snippet's rows replaced: the bench's updates change the whole code.
    if (kind === 'update') await conn.execute('DELETE FROM ferret_trigrams WHERE snippet_id = ?', [id]);
    await insertFerret(
      conn,
      keys.map((k) => [k, id]),
    );
  } else if (design !== 'none')
    await conn.execute(
      `INSERT INTO ${design === 'plain' ? 'plain_trigram_words' : 'snippet_trigram_words'} (snippet_id, words) VALUES (?, ?) ON DUPLICATE KEY UPDATE words = VALUES(words)`,
      [id, words],
    );
  await conn.query('COMMIT');
}

/** The deadlocks met and retried, by design. */
const deadlocks: Record<Design, number> = { none: 0, rare: 0, all: 0, plain: 0, ferret: 0 };

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
        // A deadlock (Ferret's concurrent row replacements meet in the side table's gaps) is retried, as the service
        // retries one (src/store/retry.ts), and counted.
        for (;;) {
          try {
            await save(conn, design, kind, ids[n % ids.length]!, writeCode(seed + n), owner);
            break;
          } catch (err) {
            if ((err as { errno?: number }).errno !== 1213) throw err;
            await conn.query('ROLLBACK');
            deadlocks[design] += 1;
          }
        }
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
  const store = openStore({ DATABASE_URL: url, DATABASE_TIMEOUT_MS: 600_000 }, {} as Highlighter, () => false);
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
      for (const k of trigramKeys([r.t as string, r.c as string])) ferretCounts.set(k, (ferretCounts.get(k) ?? 0) + 1);
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
  for (const [k, n] of ferretCounts) if (n >= FERRET_COMMON * COUNT) ferretCommon.add(k);
  let ferretRows = 0;
  await conn.query(FERRET);
  log(`building Ferret's side table (batches of 500, load ${load()})…`);
  const ferretLoad = load();
  t = Date.now();
  for (let after = 0; ;) {
    const [rows] = await conn.query<mysql.RowDataPacket[]>(
      'SELECT id, LOWER(title) AS t, LOWER(code) AS c FROM snippets WHERE id > ? ORDER BY id LIMIT 500',
      [after],
    );
    if (!rows.length) break;
    const pairs = rows.flatMap((r) =>
      ferretKeys(r.t as string, r.c as string).map((k): [number, number] => [k, Number(r.id)]),
    );
    ferretRows += pairs.length;
    await conn.query('START TRANSACTION');
    await insertFerret(conn, pairs);
    await conn.query('COMMIT');
    after = Number(rows.at(-1)!.id);
  }
  const ferretSeconds = (Date.now() - t) / 1000;
  await conn.query('ANALYZE TABLE snippets, snippet_trigram_words, ferret_trigrams');
  const [[code]] = await conn.query<mysql.RowDataPacket[]>(
    'SELECT SUM(LENGTH(title) + LENGTH(code)) AS b FROM snippets',
  );
  const codeBytes = Number(code!.b);
  const size = async (table = 'snippet_trigram_words') => {
    const [[row]] = await conn.query<mysql.RowDataPacket[]>(
      'SELECT data_length + index_length AS b FROM information_schema.TABLES WHERE table_schema = DATABASE() AND table_name = ?',
      [table],
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
  const ferretBuilt = await size('ferret_trigrams');

  // A term's page, as the service reads it (MysqlEngine.search: the index's candidates, verified), and as Ferret's
  // design would: the candidates of the term's two rarest trigrams' lists, verified alike.
  const timed = async (page: string, params: unknown[]) => {
    const ms: number[] = [];
    let matches = 0;
    for (let i = 0; i < 21; i++) {
      const started = Date.now();
      const [rows] = await conn.query<mysql.RowDataPacket[]>(page, params);
      ms.push(Date.now() - started);
      matches = rows.length;
    }
    return `${median(ms)} ms, ${matches} rows`;
  };
  const pageOf = (where: string[]) =>
    `SELECT s.id FROM snippets s STRAIGHT_JOIN users u ON u.id = s.owner_id WHERE ${where.join(' AND ')} ORDER BY s.created, s.id LIMIT 101`;
  const queries: { term: string; words: string; ferret: string; load: string }[] = [];
  for (const term of [RARE_TERM, 'ValueError', 'return self']) {
    const search = await store.engine.search(parseSearch(term));
    const queryLoad = load();
    const words = await timed(pageOf([...search.where, ...search.check]), [...search.params, ...search.checkParams]);
    // Ferret: per term, its two rarest trigrams not left out (none: the term is looked for without the index).
    const where: string[] = [];
    const params: unknown[] = [];
    for (const t of parseSearch(term).long) {
      const rarest = termKeys(t.toLowerCase())
        .filter((k) => !ferretCommon.has(k) && trigramKeys([t.toLowerCase()]).includes(k))
        .sort((a, b) => (ferretCounts.get(a) ?? 0) - (ferretCounts.get(b) ?? 0))
        .slice(0, 2);
      if (rarest.length === 2) {
        where.push(
          's.id IN (SELECT a.snippet_id FROM ferret_trigrams a JOIN ferret_trigrams b ON b.trigram = ? AND b.snippet_id = a.snippet_id WHERE a.trigram = ?)',
        );
        params.push(rarest[1], rarest[0]);
      } else if (rarest.length === 1) {
        where.push('s.id IN (SELECT a.snippet_id FROM ferret_trigrams a WHERE a.trigram = ?)');
        params.push(rarest[0]);
      }
    }
    const ferret = await timed(pageOf([...where, ...search.check]), [...params, ...search.checkParams]);
    queries.push({ term, words, ferret, load: queryLoad });
  }

  const [idRows] = await conn.query<mysql.RowDataPacket[]>('SELECT id FROM snippets ORDER BY id LIMIT 1000');
  const ids = idRows.map((r) => Number(r.id));
  await conn.query(
    'CREATE TABLE plain_trigram_words (snippet_id INTEGER NOT NULL PRIMARY KEY, words MEDIUMTEXT CHARACTER SET ascii COLLATE ascii_bin NOT NULL) ENGINE=InnoDB',
  );
  const other = process.env.BENCH_OTHER_DATABASE_URL;
  const nodes = other ? [url, other] : [url];
  const conns = await Promise.all(
    [0, 1, 2, 3].map((i) => mysql.createConnection({ uri: nodes[i % nodes.length], charset: 'utf8mb4' })),
  );
  const rates: Record<Design, { create: number[]; update: number[] }> = {
    none: { create: [], update: [] },
    rare: { create: [], update: [] },
    all: { create: [], update: [] },
    plain: { create: [], update: [] },
    ferret: { create: [], update: [] },
  };
  const writeLoads: string[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    writeLoads.push(load());
    for (const design of ['none', 'plain', 'rare', 'all', 'ferret'] as const)
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
      ['Ferret: rows (trigram, snippet) per snippet', (ferretRows / COUNT).toFixed(0), ''],
      [`Ferret: trigrams left out (in ${FERRET_COMMON * 100}% of snippets or more)`, String(ferretCommon.size), ''],
      ['Ferret: build (batches of 500)', `${ferretSeconds.toFixed(0)} s`, ferretLoad],
      [
        'Ferret: side table and its keys',
        `${mb(ferretBuilt.row)} (${(ferretBuilt.row / codeBytes).toFixed(2)}× the code)`,
        '',
      ],
      ['row of words (table + its keys)', `${mb(built.row)} (${(built.row / codeBytes).toFixed(2)}× the code)`, ''],
      [
        'FULLTEXT tables',
        Number.isNaN(built.fulltext) ? 'not readable (PROCESS privilege)' : `${mb(built.fulltext)}`,
        '',
      ],
      ...queries.flatMap((q) => [
        [`\`${q.term}\`'s first page, p50 of 21: words (kept)`, q.words, q.load],
        [`\`${q.term}\`'s first page, p50 of 21: Ferret`, q.ferret, ''],
      ]),
    ]),
  );
  console.log(
    `\nWrites in the database alone, 4 connections${other ? ' alternating between two nodes' : ''}, ${DB_WRITES} per measure, median of ${ROUNDS} rounds (load at each round: ${writeLoads.join(', ')}); deadlocks retried: ${Object.entries(
      deadlocks,
    )
      .map(([d, n]) => `${d} ${n}`)
      .join(', ')}\n`,
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
        'Ferret: (trigram, snippet) rows, 15% left out',
        fmt(rates.ferret.create),
        pct('ferret', 'create'),
        fmt(rates.ferret.update),
        pct('ferret', 'update'),
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
