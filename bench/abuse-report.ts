// The abuse bench's verdicts and table: an attack's row from its phases' times and the others' requests, held to the
// targets of issue 27 (docs/benchmarks.md "Abuse").
import type { Attack, Running } from './abuse-attacks';
import { Counts } from './abuse-clients';
import { perRecoveryWindow, recoveryMs, type RssSampler, windowOf, type Window } from './abuse-measure';
import type { Sample } from './fault-load';
import { markdownTable } from './table';

/** The targets of issue 27, for each attack. */
export const TARGETS = { p99Factor: 3, memoryMb: 50, recoveryMs: 1000, recoveryFactor: 1.5 };

/** When an attack's phases began and ended, and what was measured live. */
export interface Run {
  attack: Attack;
  tBefore: number;
  tStart: number;
  tEnd: number;
  tAfter: number;
  statements?: number;
  running?: Running;
  attacker: string;
  notes: string[];
  failed?: string;
}

export interface Row {
  attack: Attack;
  attacker: string;
  notes: string;
  before?: Window;
  during?: Window;
  after?: Window;
  others: Counts;
  rssBefore: number;
  rssPeak: number;
  /** Undefined on SQLite (no statement list to ask). */
  statements?: number;
  recoveryMs?: number;
  fiveXx: number;
  misses: string[];
}

const signed = (v: number) => `${v >= 0 ? '+' : ''}${v.toFixed(0)}`;
const ms = (v: number | undefined) => (v === undefined || Number.isNaN(v) ? '-' : v.toFixed(0));

/** An attack's row, once every request of the others has ended. */
export function rowOf(r: Run, samples: Sample[], rss: RssSampler): Row {
  if (r.failed)
    return {
      attack: r.attack,
      attacker: '-',
      notes: [`failed: ${r.failed}`, ...r.notes].join('; '),
      others: new Counts(),
      rssBefore: 0,
      rssPeak: 0,
      fiveXx: 0,
      misses: ['the attack failed to run'],
    };
  const before = windowOf(samples, r.tBefore, r.tStart);
  const during = windowOf(samples, r.tStart, r.tEnd);
  const after = windowOf(samples, r.tEnd, r.tAfter);
  const others = new Counts();
  for (const w of [before, during, after]) for (const [k, n] of w.odd) others.add(k, n);
  const fiveXx = [...others.entries()].filter(([k]) => k.startsWith('5')).reduce((n, [, c]) => n + c, 0);
  const recovery = recoveryMs(
    samples,
    r.tEnd,
    r.tAfter,
    before.p99 * TARGETS.recoveryFactor,
    perRecoveryWindow(before, r.tBefore, r.tStart),
  );
  const rssBefore = rss.peak(r.tBefore, r.tStart);
  const rssPeak = rss.peak(r.tStart, r.tAfter);
  const misses: string[] = [];
  if (!before.count) misses.push('no answer before it (the service still held up)');
  else if (!(during.p99 <= TARGETS.p99Factor * before.p99)) misses.push(`p99 ×${(during.p99 / before.p99).toFixed(1)}`);
  if (fiveXx) misses.push(`${fiveXx} × 5xx`);
  if (rssPeak - rssBefore > TARGETS.memoryMb) misses.push(`+${(rssPeak - rssBefore).toFixed(0)} MB`);
  if (r.statements) misses.push(`${r.statements} statements`);
  if (recovery === undefined || recovery > TARGETS.recoveryMs)
    misses.push(recovery === undefined ? 'no recovery' : `recovery ${(recovery / 1000).toFixed(1)} s`);
  return {
    attack: r.attack,
    attacker: r.attacker,
    notes: r.notes.join('; '),
    before,
    during,
    after,
    others,
    rssBefore,
    rssPeak,
    statements: r.statements,
    recoveryMs: recovery,
    fiveXx,
    misses,
  };
}

export function table(rows: Row[]): string {
  const pair = (w?: Window) => (w ? `${ms(w.p50)} / ${ms(w.p99)}` : '-');
  const out = [
    [
      'attack',
      "attacker's answers",
      'others p50/p99 ms before',
      'during',
      'after',
      'others not 2xx',
      'creates/s before → during',
      'RSS MB before → peak',
      'stmts +1 s',
      'recovery s',
      'verdict',
    ],
  ];
  for (const r of rows) {
    out.push([
      r.attack.name,
      r.attacker,
      pair(r.before),
      pair(r.during),
      pair(r.after),
      r.others.total() ? r.others.toString() : '0',
      r.before && r.during ? `${r.before.createRate.toFixed(0)} → ${r.during.createRate.toFixed(0)}` : '-',
      r.before ? `${r.rssBefore.toFixed(0)} → ${r.rssPeak.toFixed(0)} (${signed(r.rssPeak - r.rssBefore)})` : '-',
      r.statements === undefined ? 'n/a' : String(r.statements),
      r.recoveryMs === undefined ? (r.before ? 'none' : '-') : (r.recoveryMs / 1000).toFixed(2),
      r.misses.length ? `FAIL: ${r.misses.join(', ')}` : 'PASS',
    ]);
  }
  return markdownTable(out);
}
