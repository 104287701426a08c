// `npm run bench:search`: filters and search over 100,000 stored snippets of real code, on SQLite and (with
// BENCH_DATABASE_URL) MariaDB, beside the unfiltered list; the mixed load with searching readers; creates and updates
// with and without the search index; the index's size against the code; the rare term at 4 times the snippets; and
// issue 28's targets from those figures. The seeded data is kept between runs (bench/search-dataset.ts).
// BENCH_SEARCH_ONLY=mariadb leaves SQLite's half out; =growth runs the growth row alone (growthOnly).
import { copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import mysql from 'mysql2/promise';
import sqlite3 from 'sqlite3';
import { apiToken, sessionLogin } from './credentials';
import { mixedLoads, mixedScenario } from './mixed';
import type { Load, Tally } from './phase';
import { runScenario, type Result, type Scenario } from './load';
import {
  mysqlSeed,
  putIndexTableBack,
  restoreMysqlSeed,
  setIndexTableAside,
  sqliteCopy,
  sqliteSeed,
} from './search-dataset';
import { createdAt, RARE_TERM, writeCode } from './search-seed';
import { startService, stop, waitForHttp } from './service';
import { markdownTable } from './table';

const COUNT = Number(process.env.BENCH_SEARCH_SNIPPETS ?? 100000);
/** The growth row's count is this many times COUNT (0: no growth row). */
const GROWTH = Number(process.env.BENCH_SEARCH_GROWTH ?? 4);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
/** Latency alone: one connection, so p50 is the query's own time, not a queue's. */
const ALONE_SECONDS = Number(process.env.BENCH_ALONE_DURATION ?? 5);
/** Rounds of the writes with and without the index (writesCompared), at least 1. */
const WRITE_ROUNDS = Math.max(1, Number(process.env.BENCH_WRITE_ROUNDS ?? 2));
const PORT = 18710;
const BASE = `http://127.0.0.1:${PORT}`;

const READS: [string, string][] = [
  ['unfiltered', ''],
  [`search rare (${RARE_TERM})`, `search=${RARE_TERM}`],
  ['search common (return)', 'search=return'],
  ['search two terms (return self)', 'search=return+self'],
  ['search 2 characters (::)', 'search=%3A%3A'],
  ['owner (user7)', 'owner=user7'],
  ['language (go)', 'language=go'],
];

/** The 1-minute load average now, and over a measure ("a–b"): the machine is shared, every figure carries it. */
const loadNow = () => loadavg()[0]!.toFixed(1);
async function withLoad<T>(work: () => Promise<T>): Promise<{ value: T; load: string }> {
  const before = loadNow();
  const value = await work();
  return { value, load: `${before}–${loadNow()}` };
}

interface ReadRow {
  name: string;
  matches: number;
  alone: Result;
  loaded: Result;
  load: string;
}

interface WriteRow {
  name: string;
  result: Result;
  load: string;
  kind: 'create' | 'update';
  indexed: boolean;
}

interface EngineRun {
  name: string;
  reads: ReadRow[];
  mixed: { text: string; search: Tally[]; errors: number; fiveHundreds: number; load: string };
  writes: WriteRow[];
  sizes: string[];
  /** The index's bytes against those of the titles and code it indexes. */
  indexRatio?: number;
  growth?: { count: number; matches: number; p50: number; load: string };
}

function sqliteDb(file: string): sqlite3.Database {
  return new sqlite3.Database(file);
}
const sqliteAll = <T>(db: sqlite3.Database, sql: string, params: unknown[] = []) =>
  new Promise<T[]>((resolve, reject) => db.all(sql, params, (err, rows: T[]) => (err ? reject(err) : resolve(rows))));

/** How many snippets each read selects in all (the page shows at most 100 of them), counted through the API's own paging. */
async function matches(query: string): Promise<number> {
  let n = 0;
  let next: string | undefined = `${BASE}/snippets/?limit=1000${query ? `&${query}` : ''}`;
  while (next) {
    const res: Response = await fetch(next);
    if (res.status !== 200) return NaN; // a page refused (503 past the statement deadline): not counted
    const body = (await res.json()) as unknown[];
    n += body.length;
    next = /<([^>]+)>;\s*rel="next"/.exec(res.headers.get('link') ?? '')?.[1];
  }
  return n;
}

async function reads(pid: number): Promise<ReadRow[]> {
  const rows: ReadRow[] = [];
  for (const [name, query] of READS) {
    const url = `${BASE}/snippets/?limit=100${query ? `&${query}` : ''}`;
    process.stderr.write(`bench: ${name}…\n`);
    const { value, load } = await withLoad(async () => ({
      alone: await runScenario({ name, url }, [pid], { connections: 1, duration: ALONE_SECONDS }),
      loaded: await runScenario({ name, url }, [pid], { connections: CONNECTIONS, duration: DURATION }),
    }));
    rows.push({ name, matches: await matches(query), ...value, load });
  }
  return rows;
}

/**
 * POST with Token, then PUT of the snippets those POSTs made (the seeded ones stay as seeded), each request's code
 * different (an unchanged code is not written again, nor re-indexed).
 */
async function writes(pid: number, token: string, label: string, indexed: boolean): Promise<WriteRow[]> {
  const headers = { 'Content-Type': 'application/json', Authorization: `Token ${token}` };
  let n = Math.floor(Math.random() * 1e6);
  const body = () => JSON.stringify({ title: `bench ${n}`, code: writeCode(n++), language: 'python' });
  const create: Scenario = {
    name: `POST /snippets/ Token, ${label}`,
    url: `${BASE}/snippets/`,
    requests: [{ method: 'POST', path: '/snippets/', headers, setupRequest: (req) => ({ ...req, body: body() }) }],
  };
  // Unmeasured: a service just started (the run without the index) would otherwise pay its warm-up in the figure.
  process.stderr.write(`bench: ${create.name}, warm-up…\n`);
  await runScenario(create, [pid], { connections: CONNECTIONS, duration: Math.min(3, DURATION) });
  process.stderr.write(`bench: ${create.name}…\n`);
  const created = await withLoad(() => runScenario(create, [pid], { connections: CONNECTIONS, duration: DURATION }));
  const ids = await ownSnippetIds();
  const update: Scenario = {
    name: `PUT /snippets/<pk>/ Token, ${label}`,
    url: BASE,
    requests: [
      {
        method: 'PUT',
        headers,
        setupRequest: (req) => ({ ...req, path: `/snippets/${ids[n % ids.length]}/`, body: body() }),
      },
    ],
  };
  process.stderr.write(`bench: ${update.name}…\n`);
  const updated = await withLoad(() => runScenario(update, [pid], { connections: CONNECTIONS, duration: DURATION }));
  return [
    { name: create.name, result: created.value, load: created.load, kind: 'create', indexed },
    { name: update.name, result: updated.value, load: updated.load, kind: 'update', indexed },
  ];
}

/** One side of the writes compared: its label, and what makes the database so before its service starts. */
interface WriteSide {
  label: string;
  indexed: boolean;
  env: NodeJS.ProcessEnv;
  before?: () => Promise<void>;
}

/**
 * Writes with and without the index, each round in a service started for it (on SQLite each side its own file, both
 * compacted), in the order with, without, without, with: a drift of the machine over the run weighs on both sides.
 * Until 2026-11-26 the side with the index ran last in the service that had served the reads and the mixed load, the
 * side without in a fresh one on a file just compacted: the ratio measured the service's state as well as the index.
 */
async function writesCompared(token: string, sides: [WriteSide, WriteSide]): Promise<WriteRow[]> {
  const rows: WriteRow[] = [];
  for (let round = 1; round <= WRITE_ROUNDS; round++)
    for (const side of round % 2 ? sides : [...sides].reverse()) {
      await side.before?.();
      const label = `${side.label}, round ${round}`;
      rows.push(...(await withService(side.env, (pid) => writes(pid, token, label, side.indexed))));
    }
  return rows;
}

/**
 * The mixed scenario of `npm run bench` on these 100,000 snippets, a third of its 16 readers searching (each request the
 * next of the searches above), beside 16 Token writers.
 */
async function mixed(token: string, ownId: number): Promise<EngineRun['mixed']> {
  const readers = 16;
  const searchers = Math.round(readers / 3);
  const target = {
    base: BASE,
    detailId: ownId,
    token,
    session: { cookie: await sessionLogin(BASE, 'bench', 'benchpass') },
  };
  const searches = READS.filter(([name]) => name.startsWith('search')).map(
    ([, query]) => `/snippets/?limit=100&${query}`,
  );
  let next = 0;
  const search: Load = {
    name: 'GET /snippets/?limit=100&search=… (4 kinds in turn)',
    side: 'readers',
    connections: searchers,
    request: {
      method: 'GET',
      path: searches[0]!,
      setupRequest: (req) => ({ ...req, path: searches[next++ % searches.length]! }),
    },
  };
  const others = mixedLoads(target, { readers: readers - searchers, writers: 16 });
  // Readers first: the scenario pairs each load's phases in that order.
  const loads = [...others.filter((l) => l.side === 'readers'), search, ...others.filter((l) => l.side === 'writers')];
  const { value, load } = await withLoad(() =>
    mixedScenario(target, { readers, writers: 16, seconds: DURATION }, undefined, loads),
  );
  const { table, checks, tallies } = value;
  const all = [...tallies.alone, ...tallies.mixed];
  const i = loads.indexOf(search);
  return {
    text: `Mixed, ${DURATION} s per phase, ${readers} readers (${searchers} searching) + 16 Token writers, throttling off, load ${load}:\n\n${table}\n\n${checks.join('\n')}`,
    search: [tallies.alone[i]!, tallies.mixed[i]!],
    errors: all.reduce((n, t) => n + t.errors + t.timeouts, 0),
    fiveHundreds: all.reduce(
      (n, t) => n + Object.entries(t.statuses).reduce((m, [code, k]) => m + (code.startsWith('5') ? k : 0), 0),
      0,
    ),
    load,
  };
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;

/** The bench user's newest 1,000 snippets: those the run's POSTs made. */
async function ownSnippetIds(): Promise<number[]> {
  const res = await fetch(`${BASE}/snippets/?owner=bench&ordering=-created&limit=1000`);
  return ((await res.json()) as { id: number }[]).map((s) => s.id);
}

async function withService<T>(env: NodeJS.ProcessEnv, work: (pid: number) => Promise<T>): Promise<T> {
  const service = startService(env);
  try {
    await waitForHttp(`${BASE}/users/`, 120000);
    return await work(service.pid!);
  } finally {
    await stop(service);
  }
}

const sqliteBytes = async (db: sqlite3.Database) =>
  Number(
    (
      await sqliteAll<{ n: number }>(
        db,
        'SELECT SUM(LENGTH(CAST(title AS BLOB)) + LENGTH(CAST(code AS BLOB))) AS n FROM snippets',
      )
    )[0]!.n,
  );

/** The rare term alone at `count` snippets (seeded and kept as the others), on the service of `env`. */
async function rareAlone(
  env: NodeJS.ProcessEnv,
  count: number,
  query = `search=${RARE_TERM}`,
): Promise<NonNullable<EngineRun['growth']>> {
  const url = `${BASE}/snippets/?limit=100&${query}`;
  return withService(env, async (pid) => {
    process.stderr.write(`bench: ${query} alone at ${count}…\n`);
    const { value, load } = await withLoad(() =>
      runScenario({ name: 'rare alone', url }, [pid], { connections: 1, duration: ALONE_SECONDS }),
    );
    return { count, matches: await matches(query), p50: value.p50, load };
  });
}

const growth = (env: NodeJS.ProcessEnv) => rareAlone(env, GROWTH * COUNT);

/** The MariaDB/MySQL database of the growth's seed: BENCH_GROWTH_DATABASE_URL, or BENCH_DATABASE_URL's name + `_4x`. */
function grownMysqlUrl(url: string): string {
  const grown = new URL(process.env.BENCH_GROWTH_DATABASE_URL ?? url);
  if (!process.env.BENCH_GROWTH_DATABASE_URL) grown.pathname = `${grown.pathname}_${GROWTH}x`;
  return grown.href;
}

/**
 * BENCH_SEARCH_ONLY=growth: the growth rows alone, the rare term at COUNT and at GROWTH × COUNT on each engine, each
 * database measured twice in turns (COUNT, GROWTH × COUNT, COUNT, GROWTH × COUNT). Two queries: the term itself, whose
 * matches grow with the data (one snippet in 2,000: the page holds more of them), and the term among the first COUNT
 * snippets (`created_before` the seed's snippet COUNT: the same matches, the same page, in both), which asks how the
 * index's lookup grows. Where the full run's GROWTH × COUNT seed is more than the machine can make in the time, a
 * smaller COUNT.
 */
async function growthOnly(): Promise<void> {
  const rows = [
    ['engine', 'query', 'snippets', 'matches', 'p50 ms', 'load', 'snippets', 'matches', 'p50 ms', 'load', 'growth'],
  ];
  const queries: [string, string][] = [
    ['the term', `search=${RARE_TERM}`],
    [
      `the term, the first ${COUNT}`,
      `search=${RARE_TERM}&created_before=${encodeURIComponent(createdAt(COUNT).toISOString())}`,
    ],
  ];
  const measure = async (name: string, small: NodeJS.ProcessEnv, grown: NodeJS.ProcessEnv) => {
    for (let round = 1; round <= 2; round++)
      for (const [label, query] of queries) {
        const a = await rareAlone(small, COUNT, query);
        const b = await rareAlone(grown, GROWTH * COUNT, query);
        rows.push([
          name,
          `${label} (${round})`,
          String(a.count),
          String(a.matches),
          String(a.p50),
          a.load,
          String(b.count),
          String(b.matches),
          String(b.p50),
          b.load,
          `${(b.p50 / Math.max(1, a.p50)).toFixed(1)}×`,
        ]);
      }
  };
  await measure(
    'SQLite',
    serviceEnv(`sqlite:${await sqliteSeed(COUNT)}`),
    serviceEnv(`sqlite:${await sqliteSeed(GROWTH * COUNT)}`),
  );
  const url = process.env.BENCH_DATABASE_URL;
  if (url) {
    await mysqlSeed(url, COUNT);
    await mysqlSeed(grownMysqlUrl(url), GROWTH * COUNT);
    await measure('MariaDB/MySQL', serviceEnv(url), serviceEnv(grownMysqlUrl(url)));
  }
  console.log(`\n### Growth: \`${RARE_TERM}\` alone, 1 connection ${ALONE_SECONDS} s\n\n${markdownTable(rows)}\n`);
}

async function sqliteRun(): Promise<EngineRun> {
  const seed = await sqliteSeed(COUNT);
  const dir = mkdtempSync(path.join(tmpdir(), 'snippets-search-bench-'));
  try {
    const file = sqliteCopy(seed, dir);
    const env = serviceEnv(`sqlite:${file}`);
    const run = await withService(env, async (pid) => {
      const token = await apiToken(BASE, 'bench', 'benchpass');
      const [own] = await ownSnippetIds();
      return { token, reads: await reads(pid), mixed: await mixed(token, own!) };
    });
    // The file compacted with the index; a copy of it without: its triggers and table dropped, compacted too.
    const db = sqliteDb(file);
    await sqliteAll(db, 'VACUUM');
    const withIndex = statSync(file).size;
    const stored = (await sqliteAll<{ n: number }>(db, 'SELECT COUNT(*) AS n FROM snippets'))[0]?.n;
    const code = await sqliteBytes(db);
    await new Promise((r) => db.close(r));
    const bare = path.join(dir, 'without-index.sqlite3');
    copyFileSync(file, bare);
    const bareDb = sqliteDb(bare);
    for (const sql of [
      'DROP TRIGGER snippet_search_insert',
      'DROP TRIGGER snippet_search_update',
      'DROP TRIGGER snippet_search_delete',
      'DROP TABLE snippet_search',
      'VACUUM',
    ])
      await sqliteAll(bareDb, sql);
    await new Promise((r) => bareDb.close(r));
    const withoutIndex = statSync(bare).size;
    const written = await writesCompared(run.token, [
      { label: 'with the index', indexed: true, env },
      { label: 'without the index', indexed: false, env: serviceEnv(`sqlite:${bare}`) },
    ]);
    rmSync(dir, { recursive: true, force: true }); // the copy: the growth's seed may need the room
    const grown = GROWTH ? await growth(serviceEnv(`sqlite:${await sqliteSeed(GROWTH * COUNT)}`)) : undefined;
    return {
      name: 'SQLite',
      reads: run.reads,
      mixed: run.mixed,
      writes: written,
      sizes: [
        `${stored} snippets before the writes (titles and code ${mb(code)}), file (VACUUM) with the index ${mb(withIndex)}, without it ${mb(withoutIndex)}: the index takes ${mb(withIndex - withoutIndex)}, ${((withIndex - withoutIndex) / code).toFixed(2)}× the code it indexes (the file ${(withIndex / withoutIndex).toFixed(2)}× the file without)`,
      ],
      indexRatio: (withIndex - withoutIndex) / code,
      growth: grown,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The search index's bytes on MariaDB/MySQL: its table's (the rows of words and their keys) and InnoDB's FULLTEXT
 * tables' (FTS_*), read from information_schema with the PROCESS privilege, else from the server's data directory when
 * this machine can read it.
 */
async function mysqlIndexBytes(conn: mysql.Connection): Promise<{ table: number; fulltext?: number }> {
  const [[t]] = await conn.query<mysql.RowDataPacket[]>(
    "SELECT data_length + index_length AS n, DATABASE() AS db FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = 'snippet_trigram_words'",
  );
  const table = Number(t!.n);
  try {
    const [[f]] = await conn.query<mysql.RowDataPacket[]>(
      "SELECT SUM(allocated_size) AS n FROM information_schema.innodb_sys_tablespaces WHERE name LIKE CONCAT(DATABASE(), '/FTS\\_%')",
    );
    if (f?.n) return { table, fulltext: Number(f.n) };
  } catch {
    // no PROCESS privilege
  }
  const [[d]] = await conn.query<mysql.RowDataPacket[]>('SELECT @@datadir AS dir');
  const dir = path.join(String(d!.dir), String(t!.db));
  if (!existsSync(dir)) return { table };
  try {
    const files = readdirSync(dir).filter((f) => f.startsWith('FTS_') && f.endsWith('.ibd'));
    return { table, fulltext: files.reduce((n, f) => n + statSync(path.join(dir, f)).size, 0) };
  } catch {
    return { table };
  }
}

async function mariadbRun(): Promise<EngineRun | undefined> {
  const url = process.env.BENCH_DATABASE_URL;
  if (!url) return undefined;
  const seed = await mysqlSeed(url, COUNT);
  const env = serviceEnv(url);
  const name = `MariaDB/MySQL (${decodeURIComponent(new URL(url).pathname.slice(1))})`;
  try {
    const conn = await mysql.createConnection({ uri: url });
    const [[code]] = await conn.query<mysql.RowDataPacket[]>(
      'SELECT SUM(LENGTH(title) + LENGTH(code)) AS n, COUNT(*) AS c FROM snippets',
    );
    const index = await mysqlIndexBytes(conn);
    await conn.end();
    const run = await withService(env, async (pid) => {
      const token = await apiToken(BASE, 'bench', 'benchpass');
      const [own] = await ownSnippetIds();
      return { token, reads: await reads(pid), mixed: await mixed(token, own!) };
    });
    // What the side without the index has in its place (BLACKHOLE, or a table without its FULLTEXT key), learnt once.
    const aside = await setIndexTableAside(url);
    await putIndexTableBack(url);
    // Each side starts from the index table in place (putIndexTableBack does nothing then), no flag to keep.
    const asideAgain = async () => {
      await putIndexTableBack(url);
      await setIndexTableAside(url);
    };
    const written = await writesCompared(run.token, [
      { label: 'with the index', indexed: true, env, before: () => putIndexTableBack(url) },
      { label: `without the index (${aside})`, indexed: false, env, before: asideAgain },
    ]);
    await restoreMysqlSeed(seed);
    const codeBytes = Number(code!.n);
    const indexBytes = index.table + (index.fulltext ?? 0);
    let grown: EngineRun['growth'];
    if (GROWTH) {
      // Reported without it when its database cannot be had (BENCH_GROWTH_DATABASE_URL names one).
      try {
        await mysqlSeed(grownMysqlUrl(url), GROWTH * COUNT);
        grown = await growth(serviceEnv(grownMysqlUrl(url)));
      } catch (err) {
        process.stderr.write(`bench: no growth row on MariaDB/MySQL: ${(err as Error).message}\n`);
      }
    }
    return {
      name,
      reads: run.reads,
      mixed: run.mixed,
      writes: written,
      sizes: [
        `${Number(code!.c)} snippets seeded (titles and code ${mb(codeBytes)}); the index: its table (rows of words, keys) ${mb(index.table)}, InnoDB's FULLTEXT tables ${index.fulltext === undefined ? 'not readable here (no PROCESS privilege, no data directory)' : mb(index.fulltext)}: ${(indexBytes / codeBytes).toFixed(2)}× the code it indexes`,
      ],
      indexRatio: index.fulltext === undefined ? undefined : indexBytes / codeBytes,
      growth: grown,
    };
  } finally {
    await restoreMysqlSeed(seed);
  }
}

/** Throttling off; its connections all search from one address, so the expensive requests' limit is above them. */
function serviceEnv(url: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATABASE_URL: url,
    SECRET_KEY: 'bench-secret-key-bench-secret-key-bench',
    PORT: String(PORT),
    LOG_LEVEL: 'warn',
    THROTTLE_ANON: '',
    THROTTLE_USER: '',
    EXPENSIVE_CONCURRENCY: '1000',
  };
}

function report(run: EngineRun): string {
  const unfiltered = run.reads[0]!.loaded.rps;
  const readRows = [
    [
      '`GET /snippets/?limit=100&…`',
      'matches',
      'alone p50 ms',
      'alone p99 ms',
      `req/s (${CONNECTIONS} conns)`,
      'p50 ms',
      'p99 ms',
      'errors',
      'vs unfiltered',
      'load',
    ],
  ];
  for (const r of run.reads) {
    readRows.push([
      r.name,
      String(r.matches),
      String(r.alone.p50),
      String(r.alone.p99),
      r.loaded.rps.toFixed(0),
      String(r.loaded.p50),
      String(r.loaded.p99),
      String(r.alone.errors + r.loaded.errors),
      `${((r.loaded.rps / unfiltered) * 100).toFixed(0)}%`,
      r.load,
    ]);
  }
  const writeRows = [['write', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'load']];
  for (const w of run.writes)
    writeRows.push([
      w.name,
      w.result.rps.toFixed(0),
      String(w.result.p50),
      String(w.result.p99),
      String(w.result.errors),
      w.load,
    ]);
  const growth = run.growth
    ? `\n\nGrowth: \`${RARE_TERM}\` alone at ${run.growth.count} snippets (${run.growth.matches} matches), p50 ${run.growth.p50} ms, load ${run.growth.load}`
    : '';
  return `\n### ${run.name}\n\n${run.sizes.join('\n\n')}\n\n${markdownTable(readRows)}\n\n${markdownTable(writeRows)}\n\n${run.mixed.text}${growth}\n`;
}

const pct = (a: number, b: number) => `${((a / b) * 100).toFixed(0)}%`;

/** Issue 28's targets table, a column for each engine, from the figures above. */
function targets(runs: EngineRun[]): string {
  /** A side's rate: the mean of its rounds, with their loads. */
  const side = (r: EngineRun, kind: WriteRow['kind'], indexed: boolean) => {
    const rounds = r.writes.filter((w) => w.kind === kind && w.indexed === indexed);
    return {
      rps: rounds.reduce((n, w) => n + w.result.rps, 0) / rounds.length,
      load: rounds.map((w) => w.load).join(', '),
    };
  };
  const writeShare = (r: EngineRun, kind: WriteRow['kind']) => {
    const [w, wo] = [side(r, kind, true), side(r, kind, false)];
    return `${pct(w.rps, wo.rps)} (${w.rps.toFixed(0)} against ${wo.rps.toFixed(0)}/s, the mean of ${WRITE_ROUNDS} rounds each; load ${w.load}; ${wo.load})`;
  };
  const rows: [string, string, (r: EngineRun) => string][] = [
    [
      `rare term (\`${RARE_TERM}\`) p50 alone, ${COUNT} snippets`,
      '< 20 ms',
      (r) => `${r.reads[1]!.alone.p50} ms (load ${r.reads[1]!.load})`,
    ],
    [
      'any search under the mixed load (16 readers, a third searching, + 16 Token writers)',
      '0 errors, 0 × 503',
      (r) => {
        const [alone, mixed] = r.mixed.search;
        const statuses = (t: Tally) =>
          Object.entries(t.statuses)
            .filter(([c]) => !c.startsWith('2'))
            .map(([c, k]) => `${c} ×${k}`)
            .join(', ') || 'none';
        return `searches: ${alone!.errors + alone!.timeouts + mixed!.errors + mixed!.timeouts} errors (not 2xx: alone ${statuses(alone!)}, mixed ${statuses(mixed!)}); all loads ${r.mixed.errors} errors, ${r.mixed.fiveHundreds} × 5xx (load ${r.mixed.load})`;
      },
    ],
    [
      '`return self` rate against the plain page',
      '≥ 50%',
      (r) => `${pct(r.reads[3]!.loaded.rps, r.reads[0]!.loaded.rps)} (load ${r.reads[3]!.load})`,
    ],
    ['code-changing updates with the index against without', '≥ 75%', (r) => writeShare(r, 'update')],
    ['creates with the index against without', '≥ 85%', (r) => writeShare(r, 'create')],
    [
      'index size against the code it indexes',
      '≤ 3×',
      (r) => (r.indexRatio === undefined ? 'not measured (see above)' : `${r.indexRatio.toFixed(2)}×`),
    ],
    [
      `growth: the rare term's p50 at ${COUNT} and at ${(GROWTH || 4) * COUNT} snippets`,
      'grows less than 2×',
      (r) =>
        r.growth
          ? `${r.reads[1]!.alone.p50} → ${r.growth.p50} ms, ${(r.growth.p50 / Math.max(1, r.reads[1]!.alone.p50)).toFixed(1)}× (load ${r.growth.load})`
          : 'not measured (BENCH_SEARCH_GROWTH=0)',
    ],
  ];
  return `\n### Issue 28's targets\n\n${markdownTable([
    ['measure', ...runs.map((r) => r.name), 'target'],
    ...rows.map(([name, target, cell]) => [name, ...runs.map(cell), target]),
  ])}\n`;
}

async function main(): Promise<void> {
  console.log(
    `\nSearch bench: ${COUNT} snippets, ${CONNECTIONS} connections ${DURATION} s and 1 connection ${ALONE_SECONDS} s per read, node ${process.version}, ${new Date().toISOString()}, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  const only = process.env.BENCH_SEARCH_ONLY;
  if (only === 'growth') return growthOnly();
  const runs: EngineRun[] = [];
  if (only !== 'mariadb') {
    runs.push(await sqliteRun());
    console.log(report(runs[0]!));
  }
  const maria = await mariadbRun();
  if (maria) {
    runs.push(maria);
    console.log(report(maria));
  }
  console.log(targets(runs));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
