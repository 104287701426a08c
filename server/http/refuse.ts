// Writes the answer of the one refusal rule (src/refusal.ts), in the wire shape of the request: JSON `detail` (or the
// browsable page), or tRPC's error envelope for a call a tRPC client makes (so @trpc/client surfaces `err.data.code`).
import type { Request, Response } from 'express';
import { TRPC_ERROR_CODES_BY_KEY, type TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import { refusalOf } from '../../src/refusal';
import { sendJson } from './respond';

/** tRPC's code of a status, for the envelope of a refusal made before tRPC ran (the authentication chain's). */
const TRPC_CODE: Record<number, TRPC_ERROR_CODE_KEY> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_SUPPORTED',
  412: 'PRECONDITION_FAILED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'UNPROCESSABLE_CONTENT',
  429: 'TOO_MANY_REQUESTS',
  503: 'SERVICE_UNAVAILABLE',
};

/** A procedure call as @trpc/client sends it: a query by GET, a mutation by POST, under /trpc/. */
const isTrpcCall = (req: Pick<Request, 'path' | 'method'>) => req.path.startsWith('/trpc/') && (req.method === 'GET' || req.method === 'POST');

export function refuse(res: Response, err: unknown): void {
  const { req } = res;
  const refusal = refusalOf(err, res.locals.challenge);
  if (refusal.fields) res.locals.fieldErrors = refusal.body as Record<string, string[]>;
  if (refusal.fault !== undefined) res.err = refusal.fault instanceof Error ? refusal.fault : new Error(String(refusal.fault));
  if (refusal.status === 503) {
    // Nothing the failed request began is kept: no session it started (express-session would send its cookie on the
    // way out), no cookie set before the failure.
    delete (req as { session?: unknown }).session;
    res.removeHeader('Set-Cookie');
  }
  if (!isTrpcCall(req)) return sendJson(res, refusal.status, refusal.body, refusal.headers);
  const code = TRPC_CODE[refusal.status] ?? 'INTERNAL_SERVER_ERROR';
  const message = typeof refusal.body.detail === 'string' ? refusal.body.detail : JSON.stringify(refusal.body);
  res
    .status(refusal.status)
    .set(refusal.headers)
    .json({ error: { message, code: TRPC_ERROR_CODES_BY_KEY[code], data: { code, httpStatus: refusal.status } } });
}
