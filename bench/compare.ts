// `npm run bench:compare -- DIR`: this build against another checkout's build (DIR/dist), in one run: each on a fresh
// SQLite database seeded alike, throttling on (at rates never reached, so its counters work on every request), a read
// of one snippet, the list and a Token create taken in turns (A B A B …), so that a machine busy with something else
// slows both alike; WEB_CONCURRENCY passes through. Prints each build's median req/s and the ratio.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runScenario, type Scenario } from './load';
import { ROOT, stop, waitForHttp, withThrottles } from './service';
import { markdownTable } from './table';

const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const SNIPPETS = 100;

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

async function start(build: Build, dir: string): Promise<void> {
  build.env = withThrottles({
    ...process.env,
    DATABASE_URL: `sqlite:${path.join(dir, `${build.name}.sqlite3`)}`,
    SECRET_KEY: 'bench-secret-key-bench-secret-key-bench',
    PORT: String(build.port),
    LOG_LEVEL: 'warn',
  });
  cliOf(build, 'migrate');
  cliOf(build, 'createuser', 'bench', '--password', 'benchpass');
  build.service = spawn(process.execPath, [path.join(build.root, 'dist/server/main.js')], {
    env: build.env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const base = `http://127.0.0.1:${build.port}`;
  await waitForHttp(`${base}/snippets/`);
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
  const dir = mkdtempSync(path.join(tmpdir(), 'snippets-compare-'));
  const builds: Build[] = [
    { name: 'other', root: path.resolve(other), port: 18710, env: {} },
    { name: 'this', root: ROOT, port: 18711, env: {} },
  ];
  try {
    for (const build of builds) await start(build, dir);
    const scenarios = (b: Build): Scenario[] => [
      { name: 'GET /snippets/<pk>/', url: `http://127.0.0.1:${b.port}/snippets/50/` },
      { name: `GET /snippets/?limit=${SNIPPETS}`, url: `http://127.0.0.1:${b.port}/snippets/?limit=${SNIPPETS}` },
      {
        name: 'POST /snippets/ Token',
        url: `http://127.0.0.1:${b.port}/snippets/`,
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Token ${b.token}` },
        body: CREATE,
      },
    ];
    const rps = new Map<string, number[]>();
    for (let round = 0; round < ROUNDS; round++) {
      for (let s = 0; s < scenarios(builds[0]!).length; s++) {
        // Alternate which build goes first, so neither always runs on a machine just warmed (or just tired) by the other.
        for (const build of round % 2 ? [...builds].reverse() : builds) {
          const scenario = scenarios(build)[s]!;
          process.stderr.write(
            `bench:compare round ${round + 1}/${ROUNDS}: ${build.name} ${scenario.name} (${DURATION} s)…\n`,
          );
          const result = await runScenario(scenario, [build.service!.pid!], {
            connections: CONNECTIONS,
            duration: DURATION,
          });
          const key = `${scenario.name}\0${build.name}`;
          rps.set(key, [...(rps.get(key) ?? []), result.rps]);
        }
      }
    }
    const rows = [['scenario', `other req/s (median of ${ROUNDS})`, 'this req/s', 'this / other']];
    for (const scenario of scenarios(builds[0]!)) {
      const [a, b] = builds.map((build) => median(rps.get(`${scenario.name}\0${build.name}`)!));
      rows.push([scenario.name, a!.toFixed(0), b!.toFixed(0), `${((b! / a!) * 100).toFixed(1)}%`]);
    }
    const processes = Number(process.env.WEB_CONCURRENCY || 1);
    console.log(
      `\nthis: ${ROOT}\nother: ${path.resolve(other)}\n${CONNECTIONS} connections, ${DURATION} s each, ${ROUNDS} rounds, taken in turns, SQLite, ` +
        `throttling on (THROTTLE_ANON/THROTTLE_USER 1000000/second), ${processes} process${processes > 1 ? 'es' : ''} each, node ${process.version}\n`,
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
