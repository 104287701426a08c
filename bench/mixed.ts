// The mixed scenario: readers (detail, list, a session-cookie reader) and Token writers, each side alone and then both at once.
import { combine, p99, rate, runPhase, type Load, type Tally } from './phase';
import { markdownTable } from './table';

export interface MixedTarget {
  base: string;
  /** A snippet the readers fetch. */
  detailId: number;
  token: string;
  /** `sessionid=…`; a holder, so that a reader that logs in again (the soak) is followed by the next requests. */
  session: { cookie: string };
}

export interface MixedOptions {
  readers: number;
  writers: number;
  seconds: number;
  /** The service's processes, for the create p99 check (asked on one process); WEB_CONCURRENCY unless given. */
  processes?: number;
}

/** The mixed load's target (docs/benchmarks.md): each side keeps this share of its rate alone. */
const MIN_SHARE = 0.4;
/** ...and a create's p99 under mixed load stays under this on one process. */
const MAX_CREATE_P99_MS = 100;

/** `n` connections shared out as evenly as they go, the first loads taking the remainder. */
function split(n: number, parts: number): number[] {
  return Array.from({ length: parts }, (_, i) => Math.floor(n / parts) + (i < n % parts ? 1 : 0));
}

export function mixedLoads(t: MixedTarget, opts: Pick<MixedOptions, 'readers' | 'writers'>): Load[] {
  const [detail, list, session] = split(opts.readers, 3) as [number, number, number];
  const create = JSON.stringify({ title: 'bench', code: 'print("hello")\n', language: 'python' });
  const loads: Load[] = [
    {
      name: 'GET /snippets/<pk>/',
      side: 'readers',
      connections: detail,
      request: { method: 'GET', path: `/snippets/${t.detailId}/` },
    },
    // The first page of 100: the writers add snippets all along, and the whole list would grow slower with them.
    {
      name: 'GET /snippets/?limit=100',
      side: 'readers',
      connections: list,
      request: { method: 'GET', path: '/snippets/?limit=100' },
    },
    {
      name: 'GET /snippets/<pk>/ session',
      side: 'readers',
      connections: session,
      request: {
        method: 'GET',
        path: `/snippets/${t.detailId}/`,
        setupRequest: (req) => ({ ...req, headers: { ...req.headers, cookie: t.session.cookie } }),
      },
    },
    {
      name: 'POST /snippets/ Token',
      side: 'writers',
      connections: opts.writers,
      request: {
        method: 'POST',
        path: '/snippets/',
        headers: { 'content-type': 'application/json', authorization: `Token ${t.token}` },
        body: create,
      },
    },
  ];
  return loads.filter((l) => l.connections > 0);
}

export interface MixedResult {
  table: string;
  checks: string[];
  failed: boolean;
  /** Each load's tally, in the order of the loads: alone (its side's phase) and mixed (both sides at once). */
  tallies: { alone: Tally[]; mixed: Tally[] };
}

const ms = (v: number) => (Number.isNaN(v) ? '-' : v.toFixed(0));

/** `loads` are the scenario's own unless given (the search bench adds searching readers). */
export async function mixedScenario(
  t: MixedTarget,
  opts: MixedOptions,
  log = (line: string) => process.stderr.write(`${line}\n`),
  loads = mixedLoads(t, opts),
): Promise<MixedResult> {
  const readers = loads.filter((l) => l.side === 'readers');
  const writers = loads.filter((l) => l.side === 'writers');
  // Unmeasured: the first phase would otherwise pay for JIT compilation and cold caches that the others do not.
  const warmup = Math.min(3, opts.seconds);
  log(`bench: mixed, warm-up (${warmup} s)…`);
  await runPhase(t.base, loads, warmup);
  // A pause between phases: requests the last phase's clients dropped are still being served for a moment.
  const settle = () => new Promise((r) => setTimeout(r, 1000));
  await settle();
  log(`bench: mixed, readers alone (${opts.seconds} s)…`);
  const readersAlone = await runPhase(t.base, readers, opts.seconds);
  await settle();
  log(`bench: mixed, writers alone (${opts.seconds} s)…`);
  const writersAlone = await runPhase(t.base, writers, opts.seconds);
  await settle();
  log(`bench: mixed, both at once (${opts.seconds} s)…`);
  const both = await runPhase(t.base, loads, opts.seconds);

  const alone = [...readersAlone, ...writersAlone];
  const rows = [
    [
      'load',
      'conns',
      'alone req/s',
      'alone p99 ms',
      'alone errors',
      'alone timeouts',
      'mixed req/s',
      'mixed p99 ms',
      'mixed errors',
      'mixed timeouts',
      'mixed / alone',
    ],
  ];
  const row = (a: Tally, m: Tally) => {
    rows.push([
      m.name,
      String(m.connections),
      rate(a).toFixed(0),
      ms(p99(a)),
      String(a.errors),
      String(a.timeouts),
      rate(m).toFixed(0),
      ms(p99(m)),
      String(m.errors),
      String(m.timeouts),
      `${((rate(m) / rate(a)) * 100).toFixed(0)}%`,
    ]);
  };
  loads.forEach((l, i) => row(alone[i]!, both[i]!));
  const sides = (['readers', 'writers'] as const).map((side) => {
    const a = combine(
      `**${side}**`,
      alone.filter((x) => x.side === side),
    );
    const m = combine(
      `**${side}**`,
      both.filter((x) => x.side === side),
    );
    row(a, m);
    return { side, share: rate(m) / rate(a), a, m };
  });

  const checks: string[] = [];
  let failed = false;
  for (const { side, share } of sides) {
    const ok = share >= MIN_SHARE;
    failed ||= !ok;
    checks.push(
      `${ok ? 'ok  ' : 'FAIL'} ${side} under mixed load at ${(share * 100).toFixed(0)}% of their rate alone (at least ${MIN_SHARE * 100}%)`,
    );
  }
  const createP99 = p99(sides[1]!.m);
  const processes = opts.processes ?? Number(process.env.WEB_CONCURRENCY || 1);
  const createOk = createP99 < MAX_CREATE_P99_MS;
  if (processes === 1) failed ||= !createOk;
  checks.push(
    `${createOk ? 'ok  ' : processes === 1 ? 'FAIL' : 'note'} create p99 under mixed load ${ms(createP99)} ms (under ${MAX_CREATE_P99_MS} ms asked on one process)`,
  );
  const errors =
    both.reduce((n, x) => n + x.errors + x.timeouts, 0) + alone.reduce((n, x) => n + x.errors + x.timeouts, 0);
  failed ||= errors > 0;
  checks.push(`${errors ? 'FAIL' : 'ok  '} ${errors} errors and timeouts in all`);
  // Which answers the errors were, to tell throttling (429) from a store that gave up (5xx).
  for (const [phase, tallies] of [
    ['alone', alone],
    ['mixed', both],
  ] as const) {
    for (const x of tallies) {
      const odd = Object.entries(x.statuses).filter(([code]) => !code.startsWith('2'));
      if (odd.length || x.timeouts)
        checks.push(
          `     ${x.name} ${phase}: ${[...odd.map(([c, n]) => `${c} ×${n}`), `timeouts ×${x.timeouts}`].join(', ')}`,
        );
    }
  }
  return { table: markdownTable(rows), checks, failed, tallies: { alone, mixed: both } };
}
