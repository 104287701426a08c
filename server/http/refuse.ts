// Writes the answer of the one refusal rule (src/refusal.ts), in the wire shape of the request: JSON `detail` (or the
// browsable page), or tRPC's error envelope for a call a tRPC client makes (so @trpc/client surfaces `err.data.code`).
import type { Request, Response } from 'express';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import { refusalOf, trpcCodeOf } from '../../src/refusal';
import { sendJson } from './respond';

/** A procedure call as @trpc/client sends it: a query by GET, a mutation by POST, under /trpc/. */
const isTrpcCall = (req: Pick<Request, 'path' | 'method'>) =>
  req.path.startsWith('/trpc/') && (req.method === 'GET' || req.method === 'POST');

export function refuse(res: Response, err: unknown): void {
  const { req } = res;
  const refusal = refusalOf(err, res.locals.challenge);
  if (refusal.fields) res.locals.fieldErrors = refusal.body as Record<string, string[]>;
  if (refusal.fault !== undefined)
    res.err = refusal.fault instanceof Error ? refusal.fault : new Error(String(refusal.fault));
  if (refusal.status === 503) {
    // Nothing the failed request began is kept: no session it started (express-session would send its cookie on the
    // way out), no cookie set before the failure.
    delete (req as { session?: unknown }).session;
    res.removeHeader('Set-Cookie');
  }
  if (!isTrpcCall(req)) return sendJson(res, refusal.status, refusal.body, refusal.headers);
  const code = trpcCodeOf(refusal.status);
  const message = typeof refusal.body.detail === 'string' ? refusal.body.detail : JSON.stringify(refusal.body);
  res
    .status(refusal.status)
    .set(refusal.headers)
    .json({ error: { message, code: TRPC_ERROR_CODES_BY_KEY[code], data: { code, httpStatus: refusal.status } } });
}
