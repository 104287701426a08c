// Two builds side by side on the same database: each build's service on a port of its own, the same search pages asked
// of each in turn (one request at a time, the builds and pages interleaved), p50 and p90 of each page, and its rate
// against the same build's plain page. One run's ratios compare the builds; the machine's load is printed beside them.
//
//   BENCH_AB_BUILDS=/work/wt-main,/work/wt-branch BENCH_DATABASE_URL=mysql://…/db npx tsx bench/search-ab.ts
//
// Each build's directory holds its `dist/` (npm run build); `dir=URL` serves that build on database URL instead (one
// build on two databases: the rare term at 100,000 and at 400,000 snippets). BENCH_AB_RUNS (60) requests a page and build;
// BENCH_AB_QUERIES (`|`-separated query strings) the pages, after the plain one; BENCH_AB_PORT (26100) the first port; BENCH_AB_LIMIT (100) the page's size.
import { spawn, type ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import path from 'node:path';
import { waitForHttp, withThrottles } from './service';
import { startFlags } from '../server/start-flags';
import { markdownTable } from './table';

const BUILDS = (process.env.BENCH_AB_BUILDS ?? '').split(',').filter(Boolean);
const URL_ = process.env.BENCH_DATABASE_URL;
const RUNS = Number(process.env.BENCH_AB_RUNS ?? 60);
const QUERIES = ['', ...(process.env.BENCH_AB_QUERIES ?? 'search=return+self|search=zq_rare_marker').split('|')];
const PORT = Number(process.env.BENCH_AB_PORT ?? 26100);
const LIMIT = Number(process.env.BENCH_AB_LIMIT ?? 100);

function serve(build: string, port: number): ChildProcess {
  const [dir, url] = build.split(/=(.*)/s);
  // As `npm start` runs each build (server/start-flags.ts), as bench:compare does.
  return spawn(process.execPath, [...startFlags(), path.join(dir!, 'dist/server/main.js')], {
    env: withThrottles({
      ...process.env,
      DATABASE_URL: url || URL_,
      SECRET_KEY: 'bench-secret-key-bench-secret-key-bench',
      PORT: String(port),
      LOG_LEVEL: 'error',
    }),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function timed(url: string): Promise<number> {
  const start = process.hrtime.bigint();
  const res = await fetch(url);
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.floor(q * (xs.length - 1))]!;

async function main(): Promise<void> {
  if (BUILDS.length < 2) throw new Error('BENCH_AB_BUILDS: two directories (and BENCH_DATABASE_URL), or dir=URL');
  const services = BUILDS.map((dir, i) => serve(dir, PORT + i));
  try {
    // One after the other: both would migrate the same database at once otherwise (the lock makes one wait).
    for (let i = 0; i < BUILDS.length; i++) await waitForHttp(`http://127.0.0.1:${PORT + i}/snippets/?limit=1`, 120000);
    const page = (i: number, q: string) => `http://127.0.0.1:${PORT + i}/snippets/?limit=${LIMIT}${q ? `&${q}` : ''}`;
    // Warm-up: each page once a build, unmeasured.
    for (const q of QUERIES) for (let i = 0; i < BUILDS.length; i++) await timed(page(i, q));
    const times = BUILDS.map(() => QUERIES.map(() => [] as number[]));
    const loadBefore = loadavg()[0]!.toFixed(1);
    for (let run = 0; run < RUNS; run++)
      for (let qi = 0; qi < QUERIES.length; qi++)
        for (let k = 0; k < BUILDS.length; k++) {
          const i = (k + run) % BUILDS.length; // who goes first alternates
          times[i]![qi]!.push(await timed(page(i, QUERIES[qi]!)));
        }
    const load = `${loadBefore}–${loadavg()[0]!.toFixed(1)}`;
    const rows = [
      [
        'page',
        ...BUILDS.flatMap((b) => [
          `${path.basename(b.split('=')[0]!)}${b.includes('=') ? ` ${path.basename(b.split('=')[1]!)}` : ''} p50 ms`,
          'p90 ms',
          'vs plain',
        ]),
      ],
    ];
    QUERIES.forEach((q, qi) =>
      rows.push([
        q || 'plain',
        ...BUILDS.flatMap((_, i) => {
          const p50 = quantile(times[i]![qi]!, 0.5);
          const plain = quantile(times[i]![0]!, 0.5);
          return [p50.toFixed(1), quantile(times[i]![qi]!, 0.9).toFixed(1), `${((100 * plain) / p50).toFixed(0)}%`];
        }),
      ]),
    );
    console.log(`\n${RUNS} runs a page and build, interleaved, load ${load}\n\n${markdownTable(rows)}\n`);
  } finally {
    for (const s of services) s.kill('SIGTERM');
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
