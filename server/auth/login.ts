// Logging in and out with a session: credentials checked under the failed-password throttle, the session started (a
// new id, a new CSRF token) and ended. The login and logout pages that call these live in web/login.ts.
import { promisify } from 'node:util';
import type { Request, Response } from 'express';
import { checkCredentials, type AuthUser } from '../../src/auth/users';
import type { Runtime } from '../../src/runtime';
import { noteLogin } from '../../src/users/store';
import type { Csrf } from './csrf';
import { SESSION_COOKIE } from './session';
import type { Throttle } from './throttle';

export type LoginAttempt = { user: AuthUser } | { wait: number } | { failed: true };

/** Checks a username and password, unless this address or username has failed too often (then how long to wait). */
export async function attemptLogin(
  runtime: Runtime,
  req: Request,
  throttle: Throttle,
  username: string,
  password: string,
): Promise<LoginAttempt> {
  const wait = await throttle.passwordWait(req, username);
  if (wait) return { wait };
  const user = username && password ? await checkCredentials(runtime, username, password) : null;
  if (user) return { user };
  await throttle.passwordFailed(req, username);
  return { failed: true };
}

/**
 * Logs the user in: a new session id (an id planted before login is worth nothing after it), the only place a session
 * is stored, and a new CSRF token bound to it (the login form's anonymous token is worth nothing after it either). The
 * user's last login is noted (`snippets listusers`): only here, for the password page and OpenID Connect alike.
 */
export async function startSession(
  runtime: Runtime,
  req: Request,
  res: Response,
  user: AuthUser,
  csrf: Csrf,
): Promise<void> {
  await promisify(req.session.regenerate.bind(req.session))();
  req.session.userId = user.id;
  await promisify(req.session.save.bind(req.session))();
  csrf.token(req, res, { rotate: true });
  await noteLogin(runtime.store, user.id, new Date(runtime.now()));
}

/** Logs out: the session's row goes, the cookie is cleared, and the CSRF token is rotated to an anonymous one. */
export async function endSession(req: Request, res: Response, csrf: Csrf): Promise<void> {
  // express-session's destroy removes req.session and then deletes the row.
  if (req.session) await promisify(req.session.destroy.bind(req.session))();
  res.clearCookie(SESSION_COOKIE, { path: '/' });
  csrf.token(req, res, { rotate: true });
}
