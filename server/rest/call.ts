// Calls a routed procedure through tRPC's server-side caller, with the requester the authentication chain found.
import type { Request } from 'express';
import { TRPCError } from '@trpc/server';
import { callerFor } from '../auth/context';
import type { Seen } from '../../src/context';

type Caller = ReturnType<typeof callerFor>;

/** `revision`: the snippet revision the procedure read or wrote, when it says (the ETag). */
export type Outcome = { ok: true; data: unknown; revision?: number } | { ok: false; error: TRPCError };

/**
 * The caller's procedure at a path the routing table read from the router itself ("snippets.get" is
 * `caller.snippets.get`). The table is built at run time, so the input is checked by the procedure's own schema.
 */
function procedureAt(caller: Caller, path: string): (input: unknown) => Promise<unknown> {
  return path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], caller) as (input: unknown) => Promise<unknown>;
}

/** The procedure's result, or the TRPCError it ended with (validation, not found, forbidden…); anything else is thrown. */
export async function callProcedure(req: Request, path: string, input: unknown): Promise<Outcome> {
  try {
    const seen: Seen = {};
    const data = await procedureAt(callerFor(req, seen), path)(input);
    return { ok: true, data, revision: seen.revision };
  } catch (err) {
    if (err instanceof TRPCError) return { ok: false, error: err };
    throw err;
  }
}
