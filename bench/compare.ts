// `npm run bench:compare -- DIR`: this build against another checkout's build (DIR/dist), in one run: each on a fresh
// SQLite database seeded alike, throttling on (at rates never reached, so its counters work on every request), a read
// of one snippet, the list, a Token create and a Token update taken in turns (A B A B …), so that a machine busy with
// something else slows both alike; WEB_CONCURRENCY passes through. Prints each build's median req/s, the ratio, the
// median p99, and the service's CPU per request (its processes' /proc utime + stime over the requests answered: on a
// busy machine the rates and p99s are the run queue's, the CPU per request is still the build's), and that of its main
// threads alone, where the JavaScript runs (a busy service's reads are bound by it). With BENCH_DATABASE_URL (mysql://, a database whose tables may be dropped: its name says bench or
// test, or BENCH_EMPTY_DATABASE=yes), on it instead: one build after the other, its tables dropped before each; with
// BENCH_OTHER_DATABASE_URL too (another such database, for the other build), both at once, taken in turns.
// BENCH_SCENARIOS (`detail,list,post,put`, all by default) measures those alone: the reads without the writes between
// their rounds, which otherwise leave each round's reads a table the writes have grown and changed. BENCH_PROFILE_DIR:
// each build's processes run with node's --cpu-prof, their profiles under DIR/this and DIR/other.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import mysql from 'mysql2/promise';
import { cpuSeconds, mainThreadCpuSeconds, runScenario, type Scenario } from './load';
import { ROOT, stop, waitForHttp, withThrottles } from './service';
import { startFlags } from '../server/start-flags';
import { markdownTable } from './table';

const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const SNIPPETS = 100;
/** The two builds' ports (this one and the next), so that runs of several checkouts on one machine do not collide. */
const PORT = Number(process.env.BENCH_PORT ?? 18710);

interface Build {
  name: string;
  root: string;
  port: number;
  env: NodeJS.ProcessEnv;
  service?: ChildProcess;
  token?: string;
}

function cliOf(build: Build, ...args: string[]): void {
  const res = spawnSync(process.execPath, [path.join(build.root, 'dist/server/cli.js'), ...args], {
    env: build.env,
    encoding: 'utf8',
    timeout: 120000,
  });
  if (res.status !== 0) throw new Error(`${build.name}: snippets ${args[0]} failed: ${res.stderr}`);
}

/** MariaDB/MySQL: drops every table of the database, after checking that it may (see the header). */
async function emptyDatabase(url: string): Promise<void> {
  const database = decodeURIComponent(new URL(url).pathname.slice(1));
  if (!/bench|test/i.test(database) && process.env.BENCH_EMPTY_DATABASE !== 'yes')
    throw new Error(`${database}: its tables would be dropped; set BENCH_EMPTY_DATABASE=yes if they may`);
  const conn = await mysql.createConnection({ uri: url, connectTimeout: 10000 });
  try {
    const [tables] = await conn.query<mysql.RowDataPacket[]>(
      'SELECT table_name AS t FROM information_schema.tables WHERE table_schema = DATABASE()',
    );
    await conn.query('SET FOREIGN_KEY_CHECKS = 0');
    for (const { t } of tables) await conn.query(`DROP TABLE IF EXISTS \`${String(t).replace(/`/g, '``')}\``);
  } finally {
    await conn.end();
  }
}

async function start(build: Build, databaseUrl: string): Promise<void> {
  build.env = withThrottles({
    ...process.env,
    DATABASE_URL: databaseUrl,
    SECRET_KEY: 'bench-secret-key-bench-secret-key-bench',
    PORT: String(build.port),
    LOG_LEVEL: 'warn',
  });
  cliOf(build, 'migrate');
  cliOf(build, 'createuser', 'bench', '--password', 'benchpass');
  // Each build as `npm start` runs this one (server/start-flags.ts; harmless to a build without AsyncLocalStorage).
  const profile = process.env.BENCH_PROFILE_DIR
    ? ['--cpu-prof', `--cpu-prof-dir=${path.join(process.env.BENCH_PROFILE_DIR, build.name)}`]
    : [];
  build.service = spawn(process.execPath, [...startFlags(), ...profile, path.join(build.root, 'dist/server/main.js')], {
    env: build.env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const base = `http://127.0.0.1:${build.port}`;
  // A busy machine can take a while to start both workers of a build (0eeec5b took 20 s at a load of 25).
  await waitForHttp(`${base}/snippets/`, 120000);
  const headers = {
    'Content-Type': 'application/json',
    Authorization: `Basic ${Buffer.from('bench:benchpass').toString('base64')}`,
  };
  for (let i = 0; i < SNIPPETS; i++) {
    const res = await fetch(`${base}/snippets/`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ title: `snippet ${i}`, code: `def f${i}(x):\n    return x * ${i}\n` }),
    });
    if (res.status !== 201) throw new Error(`${build.name}: seeding failed: ${res.status}`);
  }
  const tokenRes = await fetch(`${base}/api-token-auth/`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: 'bench', password: 'benchpass' }),
  });
  build.token = ((await tokenRes.json()) as { token: string }).token;
}

const CREATE = JSON.stringify({ title: 'bench', code: 'print("hello")\n', language: 'python' });

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  const other = process.argv[2];
  if (!other) throw new Error('usage: npm run bench:compare -- DIR (another checkout, built with npm run build)');
  const mysqlUrl = process.env.BENCH_DATABASE_URL;
  if (mysqlUrl && !mysqlUrl.startsWith('mysql://')) throw new Error('BENCH_DATABASE_URL must be a mysql:// URL');
  const otherUrl = process.env.BENCH_OTHER_DATABASE_URL;
  if (otherUrl && (!mysqlUrl || !otherUrl.startsWith('mysql://') || otherUrl === mysqlUrl))
    throw new Error('BENCH_OTHER_DATABASE_URL must be a mysql:// URL beside BENCH_DATABASE_URL, another database');
  const dir = mkdtempSync(path.join(tmpdir(), 'snippets-compare-'));
  const builds: Build[] = [
    { name: 'other', root: path.resolve(other), port: PORT, env: {} },
    { name: 'this', root: ROOT, port: PORT + 1, env: {} },
  ];
  const every = (b: Build): (Scenario & { key: string })[] => [
    { key: 'detail', name: 'GET /snippets/<pk>/', url: `http://127.0.0.1:${b.port}/snippets/50/` },
    {
      key: 'list',
      name: `GET /snippets/?limit=${SNIPPETS}`,
      url: `http://127.0.0.1:${b.port}/snippets/?limit=${SNIPPETS}`,
    },
    {
      key: 'post',
      name: 'POST /snippets/ Token',
      url: `http://127.0.0.1:${b.port}/snippets/`,
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Token ${b.token}` },
      body: CREATE,
    },
    {
      key: 'put',
      name: 'PUT /snippets/<pk>/ Token',
      url: `http://127.0.0.1:${b.port}/snippets/51/`,
      method: 'PUT',
      headers: { 'Content-Type': 'application/json', Authorization: `Token ${b.token}` },
      body: CREATE,
    },
  ];
  const only = process.env.BENCH_SCENARIOS?.split(',').map((k) => k.trim());
  const unknown = only?.filter((k) => !every(builds[0]!).some((s) => s.key === k));
  if (unknown?.length) throw new Error(`BENCH_SCENARIOS: no scenario ${unknown.join(', ')} (detail, list, post, put)`);
  const scenarios = (b: Build) => every(b).filter((s) => !only || only.includes(s.key));
  const results = new Map<string, { rps: number; p99: number; errors: number; cpuMs: number; mainMs: number }[]>();
  const measure = async (build: Build, s: number, round: number) => {
    const scenario = scenarios(build)[s]!;
    process.stderr.write(
      `bench:compare round ${round + 1}/${ROUNDS}: ${build.name} ${scenario.name} (${DURATION} s)…\n`,
    );
    const pid = build.service!.pid!;
    const [cpuBefore, mainBefore] = [cpuSeconds(pid), mainThreadCpuSeconds(pid)];
    const result = await runScenario(scenario, [pid], { connections: CONNECTIONS, duration: DURATION });
    // The service's CPU per answered request: what a busy machine's run queue does not change, unlike the rates. The
    // main threads' alone: a read's rate is bound by it once the service is busy.
    const answered = Math.max(1, result.rps * DURATION);
    const cpuMs = ((cpuSeconds(pid) - cpuBefore) * 1000) / answered;
    const mainMs = ((mainThreadCpuSeconds(pid) - mainBefore) * 1000) / answered;
    const key = `${scenario.name}\0${build.name}`;
    results.set(key, [...(results.get(key) ?? []), { ...result, cpuMs, mainMs }]);
  };
  const count = scenarios(builds[0]!).length;
  try {
    if (mysqlUrl && otherUrl) {
      // A database each: both builds up at once, taken in turns as on SQLite.
      await emptyDatabase(otherUrl);
      await start(builds[0]!, otherUrl);
      await emptyDatabase(mysqlUrl);
      await start(builds[1]!, mysqlUrl);
      for (let round = 0; round < ROUNDS; round++)
        for (let s = 0; s < count; s++)
          for (const build of round % 2 ? [...builds].reverse() : builds) await measure(build, s, round);
    } else if (mysqlUrl) {
      // One database: the builds one after the other, each on it emptied.
      for (const build of builds) {
        await emptyDatabase(mysqlUrl);
        await start(build, mysqlUrl);
        for (let round = 0; round < ROUNDS; round++) for (let s = 0; s < count; s++) await measure(build, s, round);
        await stop(build.service!);
        build.service = undefined;
      }
    } else {
      for (const build of builds) await start(build, `sqlite:${path.join(dir, `${build.name}.sqlite3`)}`);
      for (let round = 0; round < ROUNDS; round++)
        for (let s = 0; s < count; s++)
          // Alternate which build goes first, so neither always runs on a machine just warmed (or just tired) by the other.
          for (const build of round % 2 ? [...builds].reverse() : builds) await measure(build, s, round);
    }
    const rows = [
      [
        'scenario',
        `other req/s (median of ${ROUNDS})`,
        'this req/s',
        'this / other',
        'p99 other → this (ms)',
        'non-2xx other / this',
        'service CPU ms/request other → this',
        'main threads CPU ms/request other → this',
      ],
    ];
    for (const scenario of scenarios(builds[0]!)) {
      const [a, b] = builds.map((build) => results.get(`${scenario.name}\0${build.name}`)!);
      const rps = [a!, b!].map((r) => median(r.map((x) => x.rps)));
      const p99 = [a!, b!].map((r) => median(r.map((x) => x.p99)));
      const errors = [a!, b!].map((r) => r.reduce((sum, x) => sum + x.errors, 0));
      const cpu = [a!, b!].map((r) => median(r.map((x) => x.cpuMs)));
      const mainCpu = [a!, b!].map((r) => median(r.map((x) => x.mainMs)));
      rows.push([
        scenario.name,
        rps[0]!.toFixed(0),
        rps[1]!.toFixed(0),
        `${((rps[1]! / rps[0]!) * 100).toFixed(1)}%`,
        `${p99[0]} → ${p99[1]}`,
        `${errors[0]} / ${errors[1]}`,
        `${cpu[0]!.toFixed(2)} → ${cpu[1]!.toFixed(2)}`,
        `${mainCpu[0]!.toFixed(2)} → ${mainCpu[1]!.toFixed(2)}`,
      ]);
    }
    const processes = Number(process.env.WEB_CONCURRENCY || 1);
    const engine = mysqlUrl
      ? otherUrl
        ? 'MariaDB/MySQL, a database each, taken in turns'
        : 'MariaDB/MySQL, one build after the other'
      : 'SQLite, taken in turns';
    console.log(
      `\nthis: ${ROOT}\nother: ${path.resolve(other)}\n${CONNECTIONS} connections, ${DURATION} s each, ${ROUNDS} rounds, ${engine}, ` +
        `throttling on (THROTTLE_ANON/THROTTLE_USER 1000000/second), ${processes} process${processes > 1 ? 'es' : ''} each, node ${process.version}, ` +
        `load average ${loadavg()
          .map((l) => l.toFixed(2))
          .join(' ')}\n`,
    );
    console.log(markdownTable(rows));
  } finally {
    for (const build of builds) if (build.service) await stop(build.service);
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
