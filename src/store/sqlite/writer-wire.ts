// How an outcome of the writer thread crosses to the main thread: a value as it is (cloneable), an error as its type's
// name and its own properties, built again as that type where the works' module names it in `errorTypes` (a quota
// refusal stays an OverQuota), as an Error with the same code and message otherwise (SQLite's errors).
import type { Outcome } from './group-commit';

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
