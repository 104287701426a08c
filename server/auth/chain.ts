// The authentication chain: the configured schemes in order, run first on every request.
import type { RequestHandler } from 'express';
import type { Requester, Scheme } from './types';

const ANONYMOUS: Requester = Object.freeze({ user: null, auth: null, scheme: null, scopes: null });

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
          req.requester = {
            user: result.user,
            auth: result.auth ?? null,
            scheme: scheme.name,
            scopes: result.scopes ?? null,
          };
          break;
        }
      }
    } catch (err) {
      // Wrong credentials, a session write without its token, a locked password: answered by the refusal rule.
      return next(err);
    }
    next();
  };
}
