// CSRF for session writes, as Django does it: a `csrftoken` cookie page scripts can read, sent back in X-CSRFToken or
// the csrfmiddlewaretoken field. csrf-csrf's signed double-submit: the token is an HMAC of the session id, so a token
// of another session (or the anonymous one of the login page) is refused.
import cookieParser from 'cookie-parser';
import { doubleCsrf } from 'csrf-csrf';
import type { Request, RequestHandler, Response } from 'express';
import type { Config } from '../../src/config';
import { secretKey } from '../../src/store/secret-key';
import { safeEqual } from '../../src/auth/digest';
import type { AuthUser } from '../../src/requester';

export const CSRF_COOKIE = 'csrftoken';
export const CSRF_FIELD = 'csrfmiddlewaretoken';
export const CSRF_HEADER = 'x-csrftoken';
/** DRF's "CSRF Failed: <Django's reason>" (Django 3.2's reasons). */
export const CSRF_FAILED = 'CSRF Failed: CSRF token missing or incorrect.';
export const CSRF_NO_COOKIE = 'CSRF Failed: CSRF cookie not set.';

/** Django's CSRF_COOKIE_AGE: a year. */
const COOKIE_AGE_MS = 31_449_600 * 1000;
/** What a token is bound to before login: the login form needs one before any session exists. */
const NO_SESSION = 'anonymous';

declare module 'express-session' {
  interface SessionData {
    userId?: number;
    /**
     * The active user `userId` names, read with the session from the database (null: none active); absent where it was
     * not (Redis, a row of the release before): never stored (server/auth/session-store.ts).
     */
    user?: AuthUser | null;
  }
}

export interface Csrf {
  /**
   * The request's token, set as the csrftoken cookie: the cookie's own while it is valid for this session, else a new
   * one; `rotate` always makes a new one (login, logout).
   */
  token(req: Request, res: Response, opts?: { rotate?: boolean }): string;
  /** Why a write is refused (DRF's message), or null when `sent` (the header's or the form's token) is the session's. */
  refusal(req: Request, sent: unknown): string | null;
  /** Lets pages embed the token in their forms (res.locals.csrfToken), made (and the cookie set) only when one reads it. */
  expose: RequestHandler;
}

/** Only the requests that need the cookies parse them: Token and Basic requests never pay for it. */
const parseCookies = cookieParser();
function cookies(req: Request): Record<string, unknown> {
  parseCookies(req, undefined as never, () => {});
  return req.cookies as Record<string, unknown>;
}

/** The session a token belongs to: the login session's id, or none (a login session is made only at login). */
function sessionIdentifier(req: Request): string {
  return req.session?.userId !== undefined ? req.sessionID : NO_SESSION;
}

export function csrfProtection(config: Pick<Config, 'SECRET_KEY'>): Csrf {
  const secret = secretKey(config);
  const sentTokens = new WeakMap<Request, string>();
  /** The token a response carries already: a page that embeds it twice sets one cookie. */
  const given = new WeakMap<Response, string>();
  const { generateCsrfToken, validateRequest } = doubleCsrf({
    getSecret: () => secret,
    getSessionIdentifier: sessionIdentifier,
    cookieName: CSRF_COOKIE,
    cookieOptions: { httpOnly: false, sameSite: 'lax', path: '/', maxAge: COOKIE_AGE_MS },
    getCsrfTokenFromRequest: (req) => sentTokens.get(req),
  });

  const token: Csrf['token'] = (req, res, { rotate = false } = {}) => {
    const already = given.get(res);
    if (already !== undefined && !rotate) return already;
    cookies(req);
    // Secure when the request came over HTTPS (behind a proxy, with TRUST_PROXY), as the session cookie.
    const made = generateCsrfToken(req, res, { overwrite: rotate, cookieOptions: { secure: req.secure } });
    given.set(res, made);
    return made;
  };

  return {
    token,
    refusal(req, sent) {
      const cookie = cookies(req)[CSRF_COOKIE];
      if (typeof cookie !== 'string' || cookie === '') return CSRF_NO_COOKIE;
      // csrf-csrf 4 compares with ===: the echoed token is compared with the cookie here, in constant time, first.
      if (typeof sent !== 'string' || !safeEqual(sent, cookie)) return CSRF_FAILED;
      // Then csrf-csrf checks the cookie's HMAC is this session's (its === there leaks only about an HMAC of a
      // session id the client must already hold).
      sentTokens.set(req, sent);
      return validateRequest(req) ? null : CSRF_FAILED;
    },
    expose(req, res, next) {
      if (req.requester.scheme === 'session') {
        Object.defineProperty(res.locals, 'csrfToken', {
          configurable: true,
          enumerable: true,
          get: () => token(req, res),
        });
      }
      next();
    },
  };
}
