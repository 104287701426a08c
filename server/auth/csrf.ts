// CSRF for session writes: a per-session token, sent back in X-CSRFToken or the form field, compared in constant time.
import type { Request, RequestHandler } from 'express';
import { randomKey, safeEqual } from '../../src/auth/digest';

export const CSRF_FIELD = 'csrfmiddlewaretoken';
export const CSRF_HEADER = 'x-csrftoken';
export const CSRF_FAILED = 'CSRF Failed: CSRF token missing or incorrect.';

declare module 'express-session' {
  interface SessionData {
    userId?: number;
    csrfToken?: string;
  }
}

/** The session's token, made on first use (the login page and every browsable page embed it). */
export function csrfToken(req: Request): string {
  req.session.csrfToken ??= randomKey(32, 'base64url');
  return req.session.csrfToken;
}

/** Whether the request carries the session's token, in the header or (for forms) the given field value. */
export function csrfValid(req: Request, formToken?: unknown): boolean {
  const expected = req.session?.csrfToken;
  const sent = req.headers[CSRF_HEADER] ?? formToken;
  return typeof expected === 'string' && typeof sent === 'string' && safeEqual(sent, expected);
}

/** Pages embed the token in their forms: made for a session login only (an anonymous visit creates no session). */
export const exposeCsrfToken: RequestHandler = (req, res, next) => {
  if (req.requester.scheme === 'session') res.locals.csrfToken = csrfToken(req);
  next();
};
