// The soak (BENCH_SOAK seconds): the mixed load at length, with logins going on, watching the service's memory and its tables.
import type { Engine } from './engine';
import { rssMb } from './load';
import { sessionLogin } from './credentials';
import { mixedLoads, type MixedOptions, type MixedTarget } from './mixed';
import { combine, p99, rate, runPhase, type Tally } from './phase';
import { markdownTable } from './table';

export interface SoakContext {
  pid: number;
  engine: Engine;
  username: string;
  password: string;
}

/** The session reader logs in again this often, so that sessions are made all along. */
const RELOGIN_MS = 5000;
/** And an anonymous visitor opens the login page this often (which must store no session). */
const LOGIN_PAGE_MS = 1000;
const TABLES = ['sessions', 'throttle_counters'];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Calls `task` every `ms` until stopped, one call at a time; counts what it answered. */
function every(ms: number, task: () => Promise<string>): { stop: () => Promise<Record<string, number>> } {
  const counts: Record<string, number> = {};
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const outcome = await task().catch(
        (err: unknown) => `error: ${err instanceof Error ? err.message : String(err)}`,
      );
      counts[outcome] = (counts[outcome] ?? 0) + 1;
      await sleep(ms);
    }
  })();
  return { stop: async () => ((stopped = true), await loop, counts) };
}

async function rowCounts(engine: Engine): Promise<string[]> {
  return Promise.all(
    TABLES.map(
      async (t) => `${t} ${(await engine.countRows(t).catch((err: unknown) => `error (${String(err)})`)) ?? 'none'}`,
    ),
  );
}

const fmt = (counts: Record<string, number>) =>
  Object.entries(counts)
    .map(([k, n]) => `${k} ×${n}`)
    .join(', ') || 'none';

export async function soak(
  t: MixedTarget,
  opts: Omit<MixedOptions, 'seconds'>,
  seconds: number,
  ctx: SoakContext,
): Promise<{ report: string; failed: boolean }> {
  const rowsBefore = await rowCounts(ctx.engine);
  const rssStart = rssMb(ctx.pid);
  const warmAt = Math.min(60, seconds / 10) * 1000;
  const started = Date.now();
  let rssWarm: number | undefined;
  let peak = rssStart;
  const sampler = setInterval(() => {
    const now = rssMb(ctx.pid);
    peak = Math.max(peak, now);
    if (rssWarm === undefined && Date.now() - started >= warmAt) rssWarm = now;
  }, 1000);
  const relogin = every(RELOGIN_MS, async () => {
    t.session.cookie = await sessionLogin(t.base, ctx.username, ctx.password);
    return 'logged in';
  });
  const loginPage = every(LOGIN_PAGE_MS, async () => {
    const res = await fetch(`${t.base}/api-auth/login/`, { signal: AbortSignal.timeout(10000) });
    await res.arrayBuffer();
    return String(res.status);
  });
  process.stderr.write(`bench: soak, mixed load for ${seconds} s…\n`);
  let tallies: Tally[];
  try {
    tallies = await runPhase(t.base, mixedLoads(t, opts), seconds);
  } finally {
    clearInterval(sampler);
  }
  const [logins, pages] = [await relogin.stop(), await loginPage.stop()];
  const rssEnd = rssMb(ctx.pid);
  const rowsAfter = await rowCounts(ctx.engine);

  const rows = [['load', 'conns', 'req/s', 'p99 ms', 'errors', 'timeouts']];
  const all = [
    ...tallies,
    combine(
      '**readers**',
      tallies.filter((x) => x.side === 'readers'),
    ),
    combine(
      '**writers**',
      tallies.filter((x) => x.side === 'writers'),
    ),
  ];
  for (const x of all)
    rows.push([
      x.name,
      String(x.connections),
      rate(x).toFixed(0),
      p99(x).toFixed(0),
      String(x.errors),
      String(x.timeouts),
    ]);
  const errors = tallies.reduce((n, x) => n + x.errors, 0);
  const timeouts = tallies.reduce((n, x) => n + x.timeouts, 0);
  const badSide = Object.keys(logins).some((k) => k !== 'logged in') || Object.keys(pages).some((k) => k !== '200');
  const report = [
    markdownTable(rows),
    '',
    `errors ${errors}, timeouts ${timeouts}`,
    `session logins (every ${RELOGIN_MS / 1000} s): ${fmt(logins)}; anonymous login page GETs (every ${LOGIN_PAGE_MS / 1000} s): ${fmt(pages)}`,
    `RSS of the service: ${rssStart.toFixed(0)} MB before the load, ${rssWarm?.toFixed(0) ?? '-'} MB after ${(warmAt / 1000).toFixed(0)} s, ` +
      `${rssEnd.toFixed(0)} MB at the end (peak ${peak.toFixed(0)} MB): ${rssWarm === undefined ? '-' : `${rssEnd - rssWarm >= 0 ? '+' : ''}${(rssEnd - rssWarm).toFixed(0)} MB`} since then`,
    `rows at the start: ${rowsBefore.join(', ')}; at the end: ${rowsAfter.join(', ')}`,
  ].join('\n');
  return { report, failed: errors + timeouts > 0 || badSide };
}
