// The browsable API's login and logout pages under API_AUTH_PREFIX, named framework:login and framework:logout.
import { Router, type Request, type Response } from 'express';
import { readBody } from '../http/body';
import { checkCredentials } from '../../src/auth/users';
import { html } from '../web/html';
import { layout } from '../web/layout';
import { mountPath, urls, type Urls } from '../http/urls';
import { CSRF_FAILED, CSRF_FIELD, csrfToken, csrfValid } from './csrf';
import { SESSION_COOKIE } from './session';
import type { Throttle } from './throttle';

const BAD_LOGIN = 'Please enter a correct username and password. Note that both fields may be case-sensitive.';

/** Only a path on this site: `next=//evil.example` or an absolute URL must not turn login into an open redirect. */
export function safeNext(req: Request, value: unknown): string {
  return typeof value === 'string' && value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\') ? value : urls(req).reverse('api-root');
}

function page(req: Request, res: Response, status: number, opts: { next: string; username?: string; error?: string }): void {
  const content = html`<div class="login"><h1>Log in</h1>
${opts.error ? html`<p class="error" id="login-error">${opts.error}</p>` : ''}
<form method="post" action="${urls(req).reverse('framework:login')}" id="login-form">
<input type="hidden" name="${CSRF_FIELD}" value="${csrfToken(req)}">
<input type="hidden" name="next" value="${opts.next}">
<div class="field"><label for="id_username">Username</label><input id="id_username" name="username" autocomplete="username" required value="${opts.username ?? ''}"></div>
<div class="field"><label for="id_password">Password</label><input id="id_password" name="password" type="password" autocomplete="current-password" required></div>
<div class="actions"><button type="submit">Log in</button></div>
</form></div>`;
  res.status(status).set('Cache-Control', 'no-store').type('html').send(layout(req, res, 'Log in', content));
}

export function loginRoutes(registry: Urls, prefix: string, throttle: Throttle): Router {
  const base = mountPath(prefix);
  registry.register('framework:login', `${base}login/`);
  registry.register('framework:logout', `${base}logout/`);
  const router = Router({ strict: true });

  router.get(`${base}login/`, (req, res) => page(req, res, 200, { next: safeNext(req, req.query.next) }));

  router.post(`${base}login/`, async (req, res) => {
    const body = await readBody(req, res);
    const next = safeNext(req, body.next);
    if (!csrfValid(req, body[CSRF_FIELD])) return page(req, res.status(403), 403, { next, error: CSRF_FAILED });
    const username = typeof body.username === 'string' ? body.username : '';
    const password = typeof body.password === 'string' ? body.password : '';
    const wait = await throttle.passwordWait(req, username);
    if (wait) return page(req, res.set('Retry-After', String(wait)), 429, { next, username, error: `Too many attempts. Try again in ${wait} seconds.` });
    const user = username && password ? await checkCredentials(username, password) : null;
    // One message whichever field was wrong.
    if (!user) {
      await throttle.passwordFailed(req, username);
      return page(req, res, 200, { next, username, error: BAD_LOGIN });
    }
    // A new session id at login: a session id planted before login is worth nothing after it.
    req.session.regenerate((err) => {
      if (err) return res.req.next?.(err);
      req.session.userId = user.id;
      csrfToken(req);
      req.session.save((saveErr) => (saveErr ? res.req.next?.(saveErr) : res.redirect(302, next)));
    });
  });

  const logout = (req: Request, res: Response, body: Record<string, unknown> = {}) => {
    const next = safeNext(req, req.query.next ?? body.next);
    req.session.destroy(() => {
      res.clearCookie(SESSION_COOKIE, { path: '/' });
      res.redirect(302, next);
    });
  };
  // A session's POST got its CSRF check in the authentication chain already.
  router.post(`${base}logout/`, async (req, res) => logout(req, res, await readBody(req, res)));
  // GET logout, for old clients (the reference's logout link); SameSite=Lax keeps other sites from triggering it with a form.
  router.get(`${base}logout/`, (req, res) => logout(req, res));
  return router;
}
