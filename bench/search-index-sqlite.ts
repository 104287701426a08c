// `npm run bench:search-index:sqlite`: what SQLite's search index costs, without HTTP (whose rates swing too much on a loaded
// machine to compare writes): BENCH_SEARCH_SNIPPETS (20,000) snippets of bench/fixtures code seeded once through the
// migrated schema, then for each index (positions kept, `detail=full`, as before migration 0016; without positions,
// `detail=none` + `columnsize=0`, migration 0016; contentless, a row removed by its rowid, migration 0018; trigram words
// written by the application as MariaDB's, a proposal; no index) a copy of that file: the index's pages (dbstat) against the
// bytes of title and code it indexes, then BENCH_WRITES creates and as many code updates, each its own transaction
// (BENCH_WRITE_GROUP: that many a transaction, as the service's writer thread groups them),
// the process's CPU time per write (SQLite's work included); and the rare term's and `return self`'s index query.
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sqlite3 from 'sqlite3';
import { RARE_TERM, seedSqlite, writeCode } from './search-seed';
import { cli } from './service';
import { markdownTable } from './table';
import { queryWords, trigramWords } from '../src/store/mysql/trigram-words';
import { termCheck, trigramQuery } from '../src/store/sqlite/long-terms';
import {
  EXTERNAL_CONTENT,
  NO_POSITIONS,
  TRIGGERS as EXTERNAL_TRIGGERS,
} from '../src/migrations/0016-search-detail-none';
import {
  CONTENTLESS,
  CONTENTLESS_OPTIONS,
  CONTENTLESS_TRIGGERS as contentlessTriggers,
} from '../src/migrations/0018-search-contentless';

const COUNT = Number(process.env.BENCH_SEARCH_SNIPPETS ?? 20000);
const WRITES = Number(process.env.BENCH_WRITES ?? 400);
/** Writes a transaction (1: each its own; the service's writer thread groups up to 16). */
const GROUP = Math.max(1, Number(process.env.BENCH_WRITE_GROUP ?? 1));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);

const run = (db: sqlite3.Database, sql: string, params: unknown[] = []) =>
  new Promise<void>((resolve, reject) => db.run(sql, params, (err) => (err ? reject(err) : resolve())));
const all = <T>(db: sqlite3.Database, sql: string, params: unknown[] = []) =>
  new Promise<T[]>((resolve, reject) => db.all(sql, params, (err, rows: T[]) => (err ? reject(err) : resolve(rows))));

// The triggers and definitions of the migrations that made each index, so that the bench measures what they ship.
const TRIGGERS = EXTERNAL_TRIGGERS('snippet_search');
const CONTENTLESS_TRIGGERS = contentlessTriggers('snippet_search');
const DROP = [
  'DROP TRIGGER snippet_search_insert',
  'DROP TRIGGER snippet_search_update',
  'DROP TRIGGER snippet_search_delete',
  'DROP TABLE snippet_search',
];

interface Variant {
  name: string;
  options?: string; // FTS5 options; undefined: no index
  /** The index keeps no copy of the text, nor reads the row's (`content=''`): a row leaves it by its rowid. */
  contentless?: boolean;
  /**
   * The index of each snippet's trigram words (src/store/mysql/trigram-words.ts, none of common characters only), worked
   * out in JavaScript and written by the application, one statement a transaction for all its writes (FTS5's `ascii`
   * tokenizer over the words), instead of FTS5's trigram tokenizer over the text in triggers.
   */
  words?: boolean;
}
const VARIANTS: Variant[] = [
  { name: 'positions (`detail=full`, before 0016)', options: '' },
  { name: 'no positions (`detail=none, columnsize=0`, 0016)', options: NO_POSITIONS },
  {
    name: "contentless, no positions (`content='', contentless_delete=1, detail=none`)",
    options: CONTENTLESS_OPTIONS,
    contentless: true,
  },
  {
    name: 'trigram words written by the application, one statement a transaction (a proposal)',
    options: CONTENTLESS_OPTIONS,
    contentless: true,
    words: true,
  },
  { name: 'no index', options: undefined },
];

async function prepare(file: string, v: Variant): Promise<void> {
  const db = new sqlite3.Database(file);
  for (const sql of DROP) await run(db, sql);
  if (v.words) {
    await run(
      db,
      `CREATE VIRTUAL TABLE snippet_search USING fts5(words, ${CONTENTLESS}, tokenize='ascii'${v.options})`,
    );
    await run(db, "INSERT INTO snippet_search(snippet_search, rank) VALUES ('automerge', 16)");
    await run(db, CONTENTLESS_TRIGGERS[1]!); // the delete's: a row leaves by its rowid
    const rows = await all<{ id: number; title: string; code: string }>(db, 'SELECT id, title, code FROM snippets');
    for (let at = 0; at < rows.length; at += 500)
      await run(db, WORDS_INSERT, [
        JSON.stringify(rows.slice(at, at + 500).map((r) => [r.id, wordsOf(r.title, r.code)])),
      ]);
    await run(db, "INSERT INTO snippet_search(snippet_search) VALUES ('optimize')");
  } else if (v.options !== undefined) {
    const content = v.contentless ? CONTENTLESS : EXTERNAL_CONTENT;
    await run(
      db,
      `CREATE VIRTUAL TABLE snippet_search USING fts5(title, code, ${content}, tokenize='trigram'${v.options})`,
    );
    await run(db, "INSERT INTO snippet_search(snippet_search, rank) VALUES ('automerge', 16)");
    for (const sql of v.contentless ? CONTENTLESS_TRIGGERS : TRIGGERS) await run(db, sql);
    if (v.contentless)
      await run(db, 'INSERT INTO snippet_search(rowid, title, code) SELECT id, title, code FROM snippets ORDER BY id');
    else await run(db, "INSERT INTO snippet_search(snippet_search) VALUES ('rebuild')");
    await run(db, "INSERT INTO snippet_search(snippet_search) VALUES ('optimize')");
  }
  await run(db, 'VACUUM');
  await new Promise((r) => db.close(r));
}

async function indexBytes(db: sqlite3.Database): Promise<number> {
  const [row] = await all<{ b: number }>(
    db,
    "SELECT SUM(pgsize) AS b FROM dbstat WHERE name LIKE 'snippet_search%' OR name LIKE 'sqlite_autoindex_snippet_search%'",
  );
  return row?.b ?? 0;
}

/** CPU ms per write (user + system, the whole process: SQLite runs on node's thread pool). */
async function cpuPerWrite(work: () => Promise<void>): Promise<number> {
  const start = process.cpuUsage();
  await work();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000 / WRITES;
}

/** Write `i` of the round, in a transaction of GROUP writes (BENCH_WRITE_GROUP) when GROUP is more than 1. */
async function grouped(db: sqlite3.Database, i: number, write: () => Promise<unknown>): Promise<void> {
  if (GROUP > 1 && i % GROUP === 0) await run(db, 'BEGIN IMMEDIATE');
  await write();
  if (GROUP > 1 && ((i + 1) % GROUP === 0 || i === WRITES - 1)) await run(db, 'COMMIT');
}

/** The words of a title and code (ASCII, lowered as the search's checks ignore case). */
const wordsOf = (title: string, code: string) =>
  trigramWords([title.toLowerCase(), code.toLowerCase()], WORDS_WIDTH).join(' ');
const WORDS_WIDTH = 3;
/** The words of every write of a transaction, `[[id, words], …]` as one JSON parameter: one statement for them all. */
const WORDS_INSERT =
  'INSERT OR REPLACE INTO snippet_search(rowid, words) SELECT value->>0, value->>1 FROM json_each(?)';

/** The words of the writes of the transaction now open, written by flush() before its COMMIT. */
const pending: [number, string][] = [];
async function flush(db: sqlite3.Database): Promise<void> {
  if (pending.length) await run(db, WORDS_INSERT, [JSON.stringify(pending.splice(0))]);
}

async function writes(db: sqlite3.Database, salt: number, words = false): Promise<{ create: number; update: number }> {
  const flushed = (i: number) => words && (GROUP === 1 || (i + 1) % GROUP === 0 || i === WRITES - 1);
  const [{ owner }] = (await all<{ owner: number }>(db, 'SELECT MIN(id) AS owner FROM users')) as [{ owner: number }];
  const ids: number[] = [];
  const create = await cpuPerWrite(async () => {
    for (let i = 0; i < WRITES; i++) {
      await grouped(db, i, async () => {
        await run(
          db,
          "INSERT INTO snippets (created, title, code, linenos, language, style, highlighted, owner_id) VALUES (datetime('now'), ?, ?, 0, 'python', 'friendly', '', ?)",
          [`bench ${salt + i}`, writeCode(salt + i), owner],
        );
        const id = (await all<{ id: number }>(db, 'SELECT last_insert_rowid() AS id'))[0]!.id;
        ids.push(id);
        if (words) pending.push([id, wordsOf(`bench ${salt + i}`, writeCode(salt + i))]);
        if (flushed(i)) await flush(db);
      });
    }
  });
  const updated = (i: number) => 1 + ((i * 37) % COUNT);
  // The service has each snippet's title before its transaction (it renders the whole snippet first).
  const titles = new Map(
    (
      await all<{ id: number; title: string }>(
        db,
        'SELECT id, title FROM snippets WHERE id IN (SELECT value FROM json_each(?))',
        [JSON.stringify(Array.from({ length: WRITES }, (_, i) => updated(i)))],
      )
    ).map((r) => [r.id, r.title]),
  );
  const update = await cpuPerWrite(async () => {
    for (let i = 0; i < WRITES; i++)
      await grouped(db, i, async () => {
        const [id, code] = [updated(i), writeCode(salt + 50_000 + i)];
        await run(db, 'UPDATE snippets SET code = ? WHERE id = ?', [code, id]);
        if (words) pending.push([id, wordsOf(titles.get(id)!, code)]);
        if (flushed(i)) await flush(db);
      });
  });
  return { create, update };
}

async function queryMs(db: sqlite3.Database, match: string, terms: string[]): Promise<number> {
  const checks = terms.map(termCheck);
  const times: number[] = [];
  for (let i = 0; i < 7; i++) {
    const t = process.hrtime.bigint();
    await all(
      db,
      `SELECT COUNT(*) FROM snippets s WHERE s.id IN (SELECT rowid FROM snippet_search WHERE snippet_search MATCH ?)${checks.map((c) => ` AND ${c.where}`).join('')}`,
      [match, ...checks.flatMap((c) => c.params)],
    );
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return times.sort((a, b) => a - b)[3]!;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'snippets-search-index-'));
  const base = path.join(dir, 'base.sqlite3');
  try {
    const env = {
      ...process.env,
      DATABASE_URL: `sqlite:${base}`,
      SECRET_KEY: 'bench-secret-key-bench-secret-key-bench',
      LOG_LEVEL: 'warn',
    };
    cli(env, 'migrate');
    cli(env, 'createuser', 'bench', '--password', 'benchpass');
    await seedSqlite(base, COUNT, 1);
    const results = new Map<string, { size?: string; create: number[]; update: number[]; queries?: string[] }>();
    for (let round = 0; round < ROUNDS; round++)
      for (const v of VARIANTS) {
        process.stderr.write(`bench: ${v.name}, round ${round + 1}…\n`);
        const file = path.join(dir, `v.sqlite3`);
        copyFileSync(base, file);
        rmSync(`${file}-wal`, { force: true });
        await prepare(file, v);
        const db = new sqlite3.Database(file);
        await run(db, 'PRAGMA journal_mode = WAL');
        await run(db, 'PRAGMA synchronous = NORMAL');
        const r = results.get(v.name) ?? { create: [], update: [] };
        if (v.options !== undefined && !r.size) {
          const [{ code }] = (await all<{ code: number }>(
            db,
            'SELECT SUM(length(CAST(title AS BLOB)) + length(CAST(code AS BLOB))) AS code FROM snippets',
          )) as [{ code: number }];
          const bytes = await indexBytes(db);
          r.size = `${(bytes / 1e6).toFixed(1)} MB, ${(bytes / code).toFixed(2)}× the ${(code / 1e6).toFixed(1)} MB indexed`;
          const full = v.options === '';
          // The words' index names no word of common characters only (`return`, `self`): such terms are read in list
          // order, within the page's bounded scan, as on MariaDB.
          const q = (term: string) =>
            v.words
              ? (queryWords(term.toLowerCase(), WORDS_WIDTH, 4) ?? []).map((w) => `"${w}"`).join(' AND ')
              : full
                ? `"${term}"`
                : trigramQuery(term);
          const both = [q('return'), q('self')].filter(Boolean).join(' AND ');
          r.queries = [
            `${(await queryMs(db, q(RARE_TERM), full ? [] : [RARE_TERM])).toFixed(1)}`,
            both ? `${(await queryMs(db, both, full ? [] : ['return', 'self'])).toFixed(1)}` : 'not indexed',
          ];
        }
        const w = await writes(db, round * 1_000_000, v.words);
        r.create.push(w.create);
        r.update.push(w.update);
        results.set(v.name, r);
        await new Promise((res) => db.close(res));
        rmSync(file, { force: true });
      }
    const none = results.get('no index')!;
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const rows = [
      [
        'index',
        'size (index pages / title+code bytes)',
        'CPU ms per create',
        'CPU ms per code update',
        'create rate vs no index',
        'update rate vs no index',
        'rare term ms',
        '`return self` (whole list) ms',
      ],
    ];
    for (const v of VARIANTS) {
      const r = results.get(v.name)!;
      rows.push([
        v.name,
        r.size ?? '—',
        r.create.map((x) => x.toFixed(2)).join(', '),
        r.update.map((x) => x.toFixed(2)).join(', '),
        `${((median(none.create) / median(r.create)) * 100).toFixed(0)}%`,
        `${((median(none.update) / median(r.update)) * 100).toFixed(0)}%`,
        r.queries?.[0] ?? '—',
        r.queries?.[1] ?? '—',
      ]);
    }
    console.log(
      `\nSearch index bench: ${COUNT} snippets, ${WRITES} creates and updates per round in transactions of ${GROUP}, ${ROUNDS} rounds\n`,
    );
    console.log(markdownTable(rows));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
