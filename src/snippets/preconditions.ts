// A snippet's version as an entity tag, and If-Match against it (RFC 9110 §8.8.3, §13.1.1).
import { TRPCError } from '@trpc/server';

/**
 * The strong entity tag of a snippet's JSON representation: its revision number, which every save raises by one in the
 * same transaction as the save. It is the same on every process and engine, and it changes with every save, a save of
 * identical fields included (the representation's bytes alone could not tell those apart).
 */
export function etagOf(revision: number): string {
  return `"${revision}"`;
}

/** `W/"x"` or `"x"`: the tags of an If-Match list, with whether each is weak. */
const ENTITY_TAG = /(W\/)?"([\x21\x23-\x7e\x80-\uffff]*)"/g;

/**
 * Whether an If-Match header allows a write to a snippet whose current revision is `revision` (undefined when there
 * is no such snippet). No header allows it; `*` allows it when the snippet exists; otherwise one of the listed tags
 * must be the current one by the strong comparison: a weak tag never matches (RFC 9110 §13.1.1). Anything that is not
 * a tag matches nothing. A snippet missing when the request comes is a 404 before this is asked (RFC 9110 §13.2.1: a
 * precondition is ignored when the answer without it would be neither 2xx nor 412; the contract fixes the 404), so
 * this judges a snippet that was there when the request came (one deleted since, while the write was on its way: 412).
 */
export function ifMatchAllows(ifMatch: string | undefined, revision: number | undefined): boolean {
  if (ifMatch === undefined) return true;
  if (revision === undefined) return false;
  if (ifMatch.trim() === '*') return true;
  const current = String(revision);
  for (const [, weak, opaque] of ifMatch.matchAll(ENTITY_TAG)) if (!weak && opaque === current) return true;
  return false;
}

export const PRECONDITION_FAILED = 'The snippet has changed since the version named in If-Match.';

export const preconditionFailed = () => new TRPCError({ code: 'PRECONDITION_FAILED', message: PRECONDITION_FAILED });
