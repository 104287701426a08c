// `npm run bench:search`: filters and search over 100,000 stored snippets of real code, on SQLite and (with
// BENCH_DATABASE_URL) MariaDB, beside the unfiltered list; creates and updates with and without SQLite's search index;
// the database's size with and without it.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import mysql from 'mysql2/promise';
import sqlite3 from 'sqlite3';
import { apiToken, sessionLogin } from './credentials';
import { mixedLoads, mixedScenario } from './mixed';
import type { Load } from './phase';
import { openEngine } from './engine';
import { runScenario, type Result, type Scenario } from './load';
import { RARE_TERM, seedMysql, seedSqlite, writeCode } from './search-seed';
import { cli, startService, stop, waitForHttp } from './service';
import { markdownTable } from './table';

const COUNT = Number(process.env.BENCH_SEARCH_SNIPPETS ?? 100000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
/** Latency alone: one connection, so p50 is the query's own time, not a queue's. */
const ALONE_SECONDS = Number(process.env.BENCH_ALONE_DURATION ?? 5);
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

interface ReadRow {
  name: string;
  matches: number;
  alone: Result;
  loaded: Result;
}

interface EngineRun {
  name: string;
  reads: ReadRow[];
  mixed: string;
  writes: { name: string; result: Result }[];
  sizes: string[];
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
    const alone = await runScenario({ name, url }, [pid], { connections: 1, duration: ALONE_SECONDS });
    const loaded = await runScenario({ name, url }, [pid], { connections: CONNECTIONS, duration: DURATION });
    rows.push({ name, matches: await matches(query), alone, loaded });
  }
  return rows;
}

/** POST and PUT with Token, each request's code different (an unchanged code is not written again, nor re-indexed). */
async function writes(
  pid: number,
  token: string,
  ownIds: number[],
  label: string,
): Promise<{ name: string; result: Result }[]> {
  const headers = { 'Content-Type': 'application/json', Authorization: `Token ${token}` };
  let n = Math.floor(Math.random() * 1e6);
  const body = () => JSON.stringify({ title: `bench ${n}`, code: writeCode(n++), language: 'python' });
  const scenarios: Scenario[] = [
    {
      name: `POST /snippets/ Token, ${label}`,
      url: `${BASE}/snippets/`,
      requests: [{ method: 'POST', path: '/snippets/', headers, setupRequest: (req) => ({ ...req, body: body() }) }],
    },
    {
      name: `PUT /snippets/<pk>/ Token, ${label}`,
      url: BASE,
      requests: [
        {
          method: 'PUT',
          headers,
          setupRequest: (req) => ({ ...req, path: `/snippets/${ownIds[n % ownIds.length]}/`, body: body() }),
        },
      ],
    },
  ];
  const out = [];
  for (const s of scenarios) {
    process.stderr.write(`bench: ${s.name}…\n`);
    out.push({ name: s.name, result: await runScenario(s, [pid], { connections: CONNECTIONS, duration: DURATION }) });
  }
  return out;
}

/**
 * The mixed scenario of `npm run bench` on these 100,000 snippets, a third of its 16 readers searching (each request the
 * next of the searches above), beside 16 Token writers.
 */
async function mixed(token: string, ownId: number): Promise<string> {
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
  const { table, checks } = await mixedScenario(target, { readers, writers: 16, seconds: DURATION }, undefined, loads);
  return `Mixed, ${DURATION} s per phase, ${readers} readers (${searchers} searching) + 16 Token writers, throttling off:\n\n${table}\n\n${checks.join('\n')}`;
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;

async function ownSnippetIds(): Promise<number[]> {
  const res = await fetch(`${BASE}/snippets/?owner=bench&limit=1000`);
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

async function sqliteRun(): Promise<EngineRun> {
  const dir = mkdtempSync(path.join(tmpdir(), 'snippets-search-bench-'));
  const file = path.join(dir, 'search.sqlite3');
  const env = serviceEnv(`sqlite:${file}`);
  try {
    cli(env, 'migrate');
    cli(env, 'createuser', 'bench', '--password', 'benchpass');
    const started = Date.now();
    await seedSqlite(file, COUNT, 1);
    const seedSeconds = (Date.now() - started) / 1000;
    const run = await withService(env, async (pid) => {
      const token = await apiToken(BASE, 'bench', 'benchpass');
      const ids = await ownSnippetIds();
      return {
        token,
        ids,
        reads: await reads(pid),
        mixed: await mixed(token, ids[0]!),
        writes: await writes(pid, token, ids, 'with the index'),
      };
    });
    // The file compacted with the index, then the same rows without it: its triggers and table dropped.
    const db = sqliteDb(file);
    await sqliteAll(db, 'VACUUM');
    const withIndex = statSync(file).size;
    const stored = (await sqliteAll<{ n: number }>(db, 'SELECT COUNT(*) AS n FROM snippets'))[0]?.n;
    for (const sql of [
      'DROP TRIGGER snippet_search_insert',
      'DROP TRIGGER snippet_search_update',
      'DROP TRIGGER snippet_search_delete',
      'DROP TABLE snippet_search',
      'VACUUM',
    ])
      await sqliteAll(db, sql);
    await new Promise((r) => db.close(r));
    const withoutIndex = statSync(file).size;
    const without = await withService(env, (pid) => writes(pid, run.token, run.ids, 'without the index'));
    return {
      name: 'SQLite',
      reads: run.reads,
      mixed: run.mixed,
      writes: [...run.writes, ...without],
      sizes: [
        `seeded ${COUNT} snippets (with the index's triggers) in ${seedSeconds.toFixed(0)} s`,
        `${stored} snippets after the writes, file (VACUUM) with the index ${mb(withIndex)}, without it ${mb(withoutIndex)}: the index takes ${mb(withIndex - withoutIndex)}`,
      ],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function mariadbRun(): Promise<EngineRun | undefined> {
  if (!process.env.BENCH_DATABASE_URL) return undefined;
  const engine = await openEngine(); // a database named for benches is emptied first
  const env = serviceEnv(engine.url);
  try {
    cli(env, 'migrate');
    cli(env, 'createuser', 'bench', '--password', 'benchpass');
    const conn = await mysql.createConnection({ uri: engine.url });
    const [[bench]] = await conn.query<mysql.RowDataPacket[]>("SELECT id FROM users WHERE username = 'bench'");
    const started = Date.now();
    await seedMysql(engine.url, COUNT, Number(bench!.id));
    const seedSeconds = (Date.now() - started) / 1000;
    await conn.query('ANALYZE TABLE snippets');
    const [[size]] = await conn.query<mysql.RowDataPacket[]>(
      "SELECT data_length AS d, index_length AS i FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = 'snippets'",
    );
    await conn.end();
    const run = await withService(env, async (pid) => {
      const token = await apiToken(BASE, 'bench', 'benchpass');
      const ids = await ownSnippetIds();
      return {
        reads: await reads(pid),
        mixed: await mixed(token, ids[0]!),
        writes: await writes(pid, token, ids, 'no index (none on MariaDB)'),
      };
    });
    return {
      name: engine.name,
      ...run,
      sizes: [
        `seeded ${COUNT} snippets in ${seedSeconds.toFixed(0)} s`,
        `snippets table: data ${mb(Number(size!.d))}, indexes ${mb(Number(size!.i))} (no search index)`,
      ],
    };
  } finally {
    await engine.close();
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
    ]);
  }
  const writeRows = [['write', 'req/s', 'p50 ms', 'p99 ms', 'errors']];
  for (const w of run.writes)
    writeRows.push([
      w.name,
      w.result.rps.toFixed(0),
      String(w.result.p50),
      String(w.result.p99),
      String(w.result.errors),
    ]);
  return `\n### ${run.name}\n\n${run.sizes.join('\n\n')}\n\n${markdownTable(readRows)}\n\n${markdownTable(writeRows)}\n\n${run.mixed}\n`;
}

async function main(): Promise<void> {
  console.log(
    `\nSearch bench: ${COUNT} snippets, ${CONNECTIONS} connections ${DURATION} s and 1 connection ${ALONE_SECONDS} s per read, node ${process.version}`,
  );
  console.log(report(await sqliteRun()));
  const maria = await mariadbRun();
  if (maria) console.log(report(maria));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
