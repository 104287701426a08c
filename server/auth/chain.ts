// The authentication chain: the configured schemes in order, run first on every request.
import type { RequestHandler, Response } from 'express';
import { sendError } from '../rest/respond';
import { AuthenticationFailed, type Requester, type Scheme } from './types';

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
      return next(err);
    }
    next();
  };
}

/** Refuses a request that is not (validly) authenticated: 401 with the first scheme's challenge, else 403. */
export function denyUnauthenticated(res: Response, detail: string): void {
  const challenge = res.locals.challenge as string | undefined;
  if (challenge) sendError(res, 401, detail, { 'WWW-Authenticate': challenge });
  else sendError(res, 403, detail);
}
