// Session authentication: the login session in a cookie session kept in the database (or Redis); writes need the CSRF token.
import { RedisStore } from 'connect-redis';
import session from 'express-session';
import type { Request, RequestHandler, Response } from 'express';
import type { Runtime } from '../../src/runtime';
import { authUserById } from '../../src/users/store';
import { secretKey } from '../../src/store/secret-key';
import { mediaType, readBody } from '../http/body';
import { mountPath } from '../http/urls';
import { refuse } from '../http/refuse';
import { HttpError } from '../../src/refusal';
import { RETRY_AFTER_SECONDS, STORE_DOWN, unavailableDetail } from '../../src/store/errors';
import { CSRF_FIELD, CSRF_HEADER, type Csrf } from './csrf';
import { sessionStore } from './session-store';
import { PermissionDenied, type Scheme } from './types';

export const SESSION_COOKIE = 'sessionid';
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const FORMS = new Set(['application/x-www-form-urlencoded', 'multipart/form-data']);

const MAX_AGE_MS = 14 * 24 * 3600 * 1000;

/**
 * The session for requests that have one (the cookie) or may start one (the login and logout pages). Every other
 * request skips express-session, which would otherwise make a random id and hash an empty session each time.
 */
export function sessionMiddleware(runtime: Runtime): RequestHandler {
  const { config } = runtime;
  const redis = runtime.redis();
  const sessions = session({
    name: SESSION_COOKIE,
    secret: secretKey(config),
    // With REDIS_URL, keys sess:<id> that expire with the cookie (RedisStore takes the TTL from cookie.expires).
    store: redis
      ? new RedisStore({ client: redis.client, prefix: 'sess:', ttl: MAX_AGE_MS / 1000 })
      : sessionStore(runtime),
    resave: false,
    saveUninitialized: false,
    // Secure when the request came over HTTPS (behind a proxy, with TRUST_PROXY).
    cookie: { httpOnly: true, sameSite: 'lax', secure: 'auto', maxAge: MAX_AGE_MS },
  });
  const pages = mountPath(config.API_AUTH_PREFIX);
  const cookie = `${SESSION_COOKIE}=`;
  // A store that cannot answer (Redis or the database down or hung) is the service's trouble, not the client's: 503.
  return (req, res, next) => {
    if (!req.headers.cookie?.includes(cookie) && !req.path.startsWith(pages)) return next();
    // express-session also reports a failed save at the end of a response already sent: Express handles that one.
    sessions(req, res, (err?: unknown) =>
      !err
        ? next()
        : res.headersSent
          ? next(err)
          : refuse(
              res,
              unavailableDetail(err)
                ? err
                : HttpError.detail(503, STORE_DOWN, { 'Retry-After': String(RETRY_AFTER_SECONDS) }),
            ),
    );
  };
}

/** The CSRF token of a form body, read early (the facade reads the same buffered body later). */
async function formToken(req: Request, res: Response): Promise<unknown> {
  if (!FORMS.has(mediaType(req))) return undefined;
  return (await readBody(req, res))[CSRF_FIELD];
}

export function sessionScheme({ store }: Pick<Runtime, 'store'>, csrf: Csrf): Scheme {
  return {
    name: 'session',
    async authenticate(req, res) {
      const userId = req.session?.userId;
      if (!userId) return null;
      // Read with the session in one statement where its store could (server/auth/session-store.ts), else on its own.
      const user = req.session.user !== undefined ? req.session.user : await authUserById(store, userId);
      if (!user) return null; // the user was deleted: the session is just anonymous
      // As DRF's SessionAuthentication.enforce_csrf: unsafe methods of a session need the token.
      if (UNSAFE.has(req.method)) {
        const refusal = csrf.refusal(req, req.headers[CSRF_HEADER] || (await formToken(req, res)));
        if (refusal) throw new PermissionDenied(refusal);
      }
      return { user };
    },
  };
}
