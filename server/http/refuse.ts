// The one refusal rule for a request that is not (validly) authenticated: 401 with the first scheme's challenge, else 403.
import type { Response } from 'express';
import { sendError } from './respond';

export function denyUnauthenticated(res: Response, detail: string): void {
  const { challenge } = res.locals;
  const status = challenge ? 401 : 403;
  const headers: Record<string, string> = challenge ? { 'WWW-Authenticate': challenge } : {};
  // tRPC clients read only tRPC's error shape; everything else gets the REST `detail` body.
  if (res.req.path.startsWith('/trpc/')) return void res.status(status).set(headers).json(trpcError(status, detail));
  sendError(res, status, detail, headers);
}

/** The body tRPC's HTTP adapter gives an error, so @trpc/client surfaces `err.data.code`. */
function trpcError(status: 401 | 403, message: string) {
  const code = status === 401 ? 'UNAUTHORIZED' : 'FORBIDDEN';
  return { error: { message, code: status === 401 ? -32001 : -32003, data: { code, httpStatus: status } } };
}
