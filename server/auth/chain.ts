// The authentication chain: the configured schemes in order, run first on every request.
import type { RequestHandler, Response } from 'express';
import { sendError } from '../rest/respond';
import { sendThrottled } from './throttle';
import { AuthenticationFailed, PermissionDenied, Throttled, type Requester, type Scheme } from './types';

const ANONYMOUS: Requester = Object.freeze({ user: null, auth: null, scheme: null });

export function authenticationChain(schemes: readonly Scheme[]): RequestHandler {
  const challenge = schemes[0]?.challenge;
  return async (req, res, next) => {
    // Only the first scheme decides between 401 and 403 (spec, "401 versus 403").
    res.locals.challenge = challenge;
    req.requester = ANONYMOUS;
    try {
      for (const scheme of schemes) {
        const result = await scheme.authenticate(req, res);
        if (result) {
          req.requester = { user: result.user, auth: result.auth ?? null, scheme: scheme.name };
          break;
        }
      }
    } catch (err) {
      if (err instanceof AuthenticationFailed) return denyUnauthenticated(res, err.message);
      if (err instanceof PermissionDenied) return sendError(res, 403, err.message);
      if (err instanceof Throttled) return sendThrottled(res, err.wait);
      return next(err);
    }
    next();
  };
}

/** Refuses a request that is not (validly) authenticated: 401 with the first scheme's challenge, else 403. */
export function denyUnauthenticated(res: Response, detail: string): void {
  const challenge = res.locals.challenge as string | undefined;
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
