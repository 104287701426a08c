// What the abuse bench measures around an attack: the other clients' latencies in each phase and when they were back
// to normal, the service's memory, and the statements still running in the engine.
import type { Sample } from './fault-load';
import { rssMb } from './load';
import type { Sql } from './abuse-seed';

/** The q-quantile (0…1) of `values`, nearest rank; NaN for none. */
export function quantile(values: number[], q: number): number {
  if (!values.length) return NaN;
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(sorted.length * q) - 1))]!;
}

export interface Window {
  count: number;
  p50: number;
  p99: number;
  /** Creates answered 2xx per second. */
  createRate: number;
  /** Results other than 2xx, by result. */
  odd: Map<string, number>;
}

/** The samples sent in [from, to). */
export function windowOf(samples: Sample[], from: number, to: number): Window {
  const inside = samples.filter((s) => s.start >= from && s.start < to);
  const odd = new Map<string, number>();
  for (const s of inside) if (!s.result.startsWith('2')) odd.set(s.result, (odd.get(s.result) ?? 0) + 1);
  const ms = inside.map((s) => s.ms);
  const creates = inside.filter((s) => s.kind === 'create' && s.result.startsWith('2')).length;
  return {
    count: inside.length,
    p50: quantile(ms, 0.5),
    p99: quantile(ms, 0.99),
    createRate: creates / ((to - from) / 1000),
    odd,
  };
}

/** Windows of the recovery rule, by sending time, and the step between them. */
const RECOVERY_WINDOW_MS = 500;
const RECOVERY_STEP_MS = 50;

/**
 * How long after `end` the others were back to normal: the start of the first 500 ms window (by sending time) whose
 * 90th percentile is under `boundMs` and which holds at least half the requests of a window before the attack (a
 * service that answers nothing has no slow answers either). Undefined when none within [end, until).
 */
export function recoveryMs(
  samples: Sample[],
  end: number,
  until: number,
  boundMs: number,
  normalPerWindow: number,
): number | undefined {
  for (let from = end; from + RECOVERY_WINDOW_MS <= until; from += RECOVERY_STEP_MS) {
    const ms = samples.filter((s) => s.start >= from && s.start < from + RECOVERY_WINDOW_MS).map((s) => s.ms);
    if (ms.length >= normalPerWindow / 2 && quantile(ms, 0.9) <= boundMs) return from - end;
  }
  return undefined;
}

/** The requests a window of the recovery rule held on average in [from, to). */
export function perRecoveryWindow(w: Window, from: number, to: number): number {
  return (w.count * RECOVERY_WINDOW_MS) / (to - from);
}

/** The service's resident memory (its process tree), sampled every 100 ms. */
export class RssSampler {
  private readonly samples: { at: number; mb: number }[] = [];
  private readonly timer: NodeJS.Timeout;
  constructor(private readonly pid: number) {
    this.sample();
    this.timer = setInterval(() => this.sample(), 100);
  }
  private sample(): void {
    try {
      this.samples.push({ at: Date.now(), mb: rssMb(this.pid) });
    } catch {
      // the service (or a process of it) exited meanwhile: the crash is reported on its own
    }
  }
  /** The largest sample in [from, to). */
  peak(from: number, to: number): number {
    return Math.max(0, ...this.samples.filter((s) => s.at >= from && s.at < to).map((s) => s.mb));
  }
  stop(): void {
    clearInterval(this.timer);
  }
}

/**
 * Statements of the service in the engine that have run for at least `minMs` (MariaDB; those of the bench's own
 * connection left out). The database user sees its own threads without the PROCESS privilege; the service logs in as it.
 * The service's statements are prepared ones: their threads show `Execute`, not `Query`.
 */
export async function runningStatements(sql: Sql, minMs = 0): Promise<{ id: number; ms: number; info: string }[]> {
  const rows = await sql.all<{ ID: number; TIME_MS: number; INFO: string | null }>(
    "SELECT ID, TIME_MS, INFO FROM information_schema.PROCESSLIST WHERE COMMAND IN ('Query', 'Execute') AND ID <> CONNECTION_ID() AND DB = DATABASE() AND TIME_MS >= ?",
    [minMs],
  );
  return rows.map((r) => ({ id: Number(r.ID), ms: Number(r.TIME_MS), info: String(r.INFO ?? '') }));
}
