// `npm run bench:drf`: the mixed scenario against our service (1 and 2 processes) and the DRF tutorial's original (bench/drf/), one after the other in one run, and the ratio of their rates.
import { loadavg } from 'node:os';
import { apiToken, seedSnippets, sessionLogin } from './credentials';
import { drfAvailable, startDrf, stopDrf } from './drf-service';
import { openEngine, uniqueUsername } from './engine';
import { exitWith } from './exit-with';
import { mixedScenario, type MixedResult, type MixedTarget } from './mixed';
import { combine, p99, rate, type Tally } from './phase';
import { cli, startService, stop, throttledServiceEnv, waitForHttp } from './service';
import { markdownTable } from './table';

const PORT = Number(process.env.BENCH_PORT ?? 18730);
const DRF_PORT = PORT + 1;
/** gunicorn's workers: the machine's 2 cores, sync workers, as a plain deployment of the tutorial would run. */
const DRF_WORKERS = 2;
const SNIPPETS = 100;
const SECONDS = Number(process.env.BENCH_DURATION ?? 10);
const READERS = Number(process.env.BENCH_MIXED_READERS ?? 16);
const WRITERS = Number(process.env.BENCH_MIXED_WRITERS ?? 16);
/** Issue 31's target: creates under the mixed load at least this many times DRF's, in the same run. */
const TARGET_CREATES = 5;
const PASSWORD = 'benchpass';

interface Run {
  label: string;
  result: MixedResult;
}

const log = (line: string) => process.stderr.write(`${line}\n`);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');

/** The same credentials and seed on either service: a Token, a `sessionid` through /api-auth/login/, 100 snippets. */
async function target(base: string, username: string): Promise<MixedTarget> {
  const token = await apiToken(base, username, PASSWORD);
  const ids = await seedSnippets(base, token, SNIPPETS);
  return {
    base,
    detailId: ids[SNIPPETS / 2]!,
    token,
    session: { cookie: await sessionLogin(base, username, PASSWORD) },
  };
}

async function ours(processes: number): Promise<Run> {
  const engine = await openEngine();
  const env = { ...throttledServiceEnv(engine.url, PORT, 'warn'), WEB_CONCURRENCY: String(processes) };
  const base = `http://127.0.0.1:${PORT}`;
  const username = uniqueUsername();
  let service: ReturnType<typeof startService> | undefined;
  try {
    cli(env, 'migrate');
    cli(env, 'createuser', username, '--password', PASSWORD);
    service = startService(env);
    await waitForHttp(`${base}/snippets/`);
    const label = `ours, ${engine.name}, ${processes} process${processes > 1 ? 'es' : ''}`;
    log(`bench: ${label} (load average ${load()})`);
    const result = await mixedScenario(await target(base, username), {
      readers: READERS,
      writers: WRITERS,
      seconds: SECONDS,
      processes,
    });
    return { label, result };
  } finally {
    if (service) await stop(service);
    await engine.close();
  }
}

async function drf(versions: string): Promise<Run> {
  const base = `http://127.0.0.1:${DRF_PORT}`;
  const username = 'bench';
  const service = startDrf(DRF_PORT, DRF_WORKERS, username, PASSWORD);
  try {
    // Its migrations run first, slowly on a busy machine.
    await waitForHttp(`${base}/snippets/`, 120000);
    const label = `DRF, SQLite, ${DRF_WORKERS} gunicorn sync workers`;
    log(`bench: ${label}, ${versions} (load average ${load()})`);
    const result = await mixedScenario(await target(base, username), {
      readers: READERS,
      writers: WRITERS,
      seconds: SECONDS,
      processes: DRF_WORKERS,
    });
    return { label, result };
  } finally {
    await stopDrf(service);
  }
}

/** Each side's tally and each load's under the mixed load, then each side's alone. */
function measures(r: MixedResult): { name: string; tally: Tally }[] {
  const side = (tallies: Tally[], s: Tally['side']) =>
    combine(
      s,
      tallies.filter((t) => t.side === s),
    );
  return [
    { name: 'creates/s, mixed', tally: side(r.tallies.mixed, 'writers') },
    { name: 'reads/s, mixed', tally: side(r.tallies.mixed, 'readers') },
    ...r.tallies.mixed.filter((t) => t.side === 'readers').map((t) => ({ name: `  ${t.name}, mixed`, tally: t })),
    { name: 'creates/s, writers alone', tally: side(r.tallies.alone, 'writers') },
    { name: 'reads/s, readers alone', tally: side(r.tallies.alone, 'readers') },
  ];
}

const ms = (v: number) => (Number.isNaN(v) ? '-' : v.toFixed(0));

/** Each of our runs against DRF's: the rates (2xx per second) with their p99 beside, and ours / DRF's. */
function ratioTable(runs: Run[], theirs: Run): string {
  const header = ['measure', ...runs.flatMap((r) => [r.label, 'p99 ms']), theirs.label, 'p99 ms'];
  header.push(...runs.map((r) => `${r.label.split(', ').pop()} / DRF`));
  const ourRows = runs.map((r) => measures(r.result));
  const drfRows = measures(theirs.result);
  const rows = drfRows.map((d, i) => {
    const cells = [d.name];
    for (const m of ourRows) cells.push(rate(m[i]!.tally).toFixed(0), ms(p99(m[i]!.tally)));
    cells.push(rate(d.tally).toFixed(0), ms(p99(d.tally)));
    for (const m of ourRows) cells.push(`${(rate(m[i]!.tally) / rate(d.tally)).toFixed(1)}×`);
    return cells;
  });
  return markdownTable([header, ...rows]);
}

async function main(): Promise<number> {
  const heading =
    `${READERS} reader + ${WRITERS} writer connections, loopback, throttles at 1000000/second, ` +
    `${SECONDS} s per phase, node ${process.version}`;
  const available = drfAvailable();
  const skipped = available.ok
    ? undefined
    : `bench: DRF SKIPPED, no ratio: ${available.reason}. Install it with: ` +
      'apt-get install -y python3-django python3-djangorestframework python3-pygments gunicorn (or set DRF_PYTHON)';
  if (skipped) log(skipped);
  const runs = [await ours(1), await ours(2)];
  const theirs = available.ok ? await drf(available.versions) : undefined;
  let failed = false;
  for (const r of [...runs, ...(theirs ? [theirs] : [])]) {
    console.log(`\nMixed load, ${r.label}: ${heading}\n\n${r.result.table}\n\n${r.result.checks.join('\n')}`);
    // DRF's own checks are for information: the bench measures ours against it.
    if (r !== theirs) failed ||= r.result.failed;
  }
  if (!theirs) {
    console.log(`\n${skipped}`);
    return failed ? 1 : 0;
  }
  console.log(`\nOurs against DRF (${available.ok ? available.versions : ''}), load average ${load()}:\n`);
  console.log(ratioTable(runs, theirs));
  const drfCreates = rate(measures(theirs.result)[0]!.tally);
  console.log('');
  for (const r of runs) {
    const ratio = rate(measures(r.result)[0]!.tally) / drfCreates;
    const ok = ratio >= TARGET_CREATES;
    failed ||= !ok;
    console.log(
      `${ok ? 'ok  ' : 'FAIL'} ${r.label}: creates under the mixed load ${ratio.toFixed(1)}× DRF's (at least ${TARGET_CREATES}×)`,
    );
  }
  return failed ? 1 : 0;
}

exitWith(main);
