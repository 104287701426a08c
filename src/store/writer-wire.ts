// How an outcome of a writer thread (writer-thread.ts) crosses to the main thread: a value as it is (cloneable), an
// error as its type's name and its own properties, built again as that type where the works' module names it in
// `errorTypes` (a quota refusal stays an OverQuota), as an Error with the same code and message otherwise (the
// engines' own errors: SQLite's, mysql2's). A work crosses by name (workOf).
import type { PortableWork, Tx } from './engine';

/** What a transaction came to: its value, or what it threw. */
export type Outcome = { ok: true; value: unknown } | { ok: false; err: unknown };

export type WireOutcome = { ok: true; value: unknown } | { ok: false; type: string; props: Record<string, unknown> };

export function toWire(outcome: Outcome): WireOutcome {
  if (outcome.ok) return outcome;
  const err = outcome.err as Error;
  const props: Record<string, unknown> = { ...err, message: err?.message, stack: err?.stack };
  return { ok: false, type: err?.constructor?.name ?? 'Error', props };
}

type ErrorTypes = Record<string, { prototype: Error }>;

export function fromWire(wire: WireOutcome, module: string): Outcome {
  if (wire.ok) return wire;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the works' own module, loaded already
  const types = (require(module) as { errorTypes?: ErrorTypes }).errorTypes ?? {};
  const err: Error = Object.create((types[wire.type] ?? Error).prototype) as Error;
  return { ok: false, err: Object.assign(err, wire.props) };
}

type Transactions = Record<string, (tx: Tx, args: unknown, ...context: unknown[]) => Promise<unknown>>;

/**
 * A work as the thread runs it: `transactions[op]` of the module it names (src/store/engine.ts PortableWork), called
 * with its transaction, its arguments and what the thread's engine adds (`context`: MySQL/MariaDB's search indexer).
 */
export function workOf({ module, op, args }: PortableWork, ...context: unknown[]): (tx: Tx) => Promise<unknown> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a module of this service, named by its caller
  const { transactions } = require(module) as { transactions: Transactions };
  return (tx) => transactions[op]!(tx, args, ...context);
}
