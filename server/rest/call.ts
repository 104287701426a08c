// Calls a routed procedure with the requester the authentication chain found, and sorts its refusals from its faults.
import type { Request } from 'express';
import { TRPCError } from '@trpc/server';
import { requestContext } from '../auth/context';
import type { RoutedProcedure } from './routes';

/** `revision`: the snippet revision the procedure read or wrote, when it says (the ETag). */
export type Outcome = { ok: true; data: unknown; revision?: number } | { ok: false; error: TRPCError };

/** The procedure's result, or the TRPCError it ended with (validation, not found, forbidden…); anything else is thrown. */
export async function callProcedure(
  req: Request,
  procedure: Pick<RoutedProcedure, 'call'>,
  input: unknown,
): Promise<Outcome> {
  try {
    let revision: number | undefined;
    const data = await procedure.call(
      requestContext(req, (n) => (revision = n)),
      input,
    );
    return { ok: true, data, revision };
  } catch (err) {
    if (err instanceof TRPCError) return { ok: false, error: err };
    throw err;
  }
}
