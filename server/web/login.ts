// The browsable API's login and logout pages under API_AUTH_PREFIX, named framework:login and framework:logout; the
// checks and the session itself are auth/login.ts's. With OIDC_ISSUER the login page offers the provider's sign-in
// (web/oidc.ts); with PASSWORD_LOGIN=false it has no password form.
import type { Runtime } from '../../src/runtime';
import { Router, type Request, type Response } from 'express';
import { attemptLogin, endSession, startSession } from '../auth/login';
import { oidcSignIn } from '../auth/oidc';
import { CSRF_FIELD, CSRF_HEADER, type Csrf } from '../auth/csrf';
import type { Throttle } from '../auth/throttle';
import { readBody } from '../http/body';
import { mountPath, urls, type Urls } from '../http/urls';
import { html, type Html } from './html';
import { layout } from './layout';
import { oidcPages } from './oidc';

const BAD_LOGIN = 'Please enter a correct username and password. Note that both fields may be case-sensitive.';
const NO_PASSWORD_LOGIN = 'Logging in with a password is turned off here.';

/** Only a path on this site: `next=//evil.example` or an absolute URL must not turn login into an open redirect. */
export function safeNext(req: Request, value: unknown): string {
  return typeof value === 'string' && value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\')
    ? value
    : urls(req).reverse('api-root');
}

function send(req: Request, res: Response, status: number, title: string, content: Html): void {
  res
    .status(status)
    .set('Cache-Control', 'no-store')
    .type('html')
    .send(layout(req, res, title, content));
}

/** What the login page offers: the password form, a provider's sign-in (its name), or both. */
interface Offer {
  password: boolean;
  sso?: string;
}

function loginPage(
  req: Request,
  res: Response,
  csrf: Csrf,
  offer: Offer,
  status: number,
  opts: { next: string; username?: string; error?: string },
): void {
  const sso = offer.sso && urls(req).reverse('oidc:login');
  const content = html`<div class="login"><h1>Log in</h1>
${opts.error ? html`<p class="error" id="login-error">${opts.error}</p>` : ''}
${
  offer.password
    ? html`<form method="post" action="${urls(req).reverse('framework:login')}" id="login-form">
<input type="hidden" name="${CSRF_FIELD}" value="${csrf.token(req, res)}">
<input type="hidden" name="next" value="${opts.next}">
<div class="field"><label for="id_username">Username</label><input id="id_username" name="username" autocomplete="username" required value="${opts.username ?? ''}"></div>
<div class="field"><label for="id_password">Password</label><input id="id_password" name="password" type="password" autocomplete="current-password" required></div>
<div class="actions"><button type="submit">Log in</button></div>
</form>`
    : ''
}
${sso ? html`<p class="sso"><a id="oidc-login" class="button" href="${sso}?next=${encodeURIComponent(opts.next)}">Sign in with ${offer.sso}</a></p>` : ''}
${!offer.password && !sso ? html`<p id="no-login">${NO_PASSWORD_LOGIN}</p>` : ''}
</div>`;
  send(req, res, status, 'Log in', content);
}

/** GET logout asks first: logging out by a link would let any site end a session with a top-level navigation. */
function logoutPage(req: Request, res: Response, csrf: Csrf, next: string): void {
  const user = req.requester.scheme === 'session' ? req.requester.user : null;
  const content = user
    ? html`<div class="login"><h1>Log out</h1><p>Log out <span class="user">${user.username}</span>?</p>
<form method="post" action="${urls(req).reverse('framework:logout')}" id="logout-form">
<input type="hidden" name="${CSRF_FIELD}" value="${csrf.token(req, res)}">
<input type="hidden" name="next" value="${next}">
<div class="actions"><button type="submit">Log out</button></div>
</form></div>`
    : html`<div class="login"><h1>Log out</h1><p>You are not logged in.</p><p><a href="${next}">Continue</a></p></div>`;
  send(req, res, 200, 'Log out', content);
}

export function loginPages(runtime: Runtime, registry: Urls, prefix: string, throttle: Throttle, csrf: Csrf): Router {
  const base = mountPath(prefix);
  registry.register('framework:login', `${base}login/`);
  registry.register('framework:logout', `${base}logout/`);
  const router = Router({ strict: true });

  // Signing in makes a session: without the session scheme there is nothing to sign in to.
  const signIn = runtime.config.AUTH_SCHEMES.includes('session') ? oidcSignIn(runtime) : undefined;
  const offer: Offer = { password: runtime.config.PASSWORD_LOGIN, sso: signIn?.name };
  const page = (req: Request, res: Response, status: number, opts: Parameters<typeof loginPage>[5]) =>
    loginPage(req, res, csrf, offer, status, opts);

  router.get(`${base}login/`, (req, res) => page(req, res, 200, { next: safeNext(req, req.query.next) }));

  router.post(`${base}login/`, async (req, res) => {
    const body = await readBody(req, res);
    const next = safeNext(req, body.next);
    if (!runtime.config.PASSWORD_LOGIN) return page(req, res, 403, { next, error: NO_PASSWORD_LOGIN });
    const refusal = csrf.refusal(req, body[CSRF_FIELD] || req.headers[CSRF_HEADER]);
    if (refusal) return page(req, res, 403, { next, error: refusal });
    const username = typeof body.username === 'string' ? body.username : '';
    const password = typeof body.password === 'string' ? body.password : '';
    const attempt = await attemptLogin(runtime, req, throttle, username, password);
    if ('wait' in attempt) {
      res.set('Retry-After', String(attempt.wait));
      return page(req, res, 429, {
        next,
        username,
        error: `Too many attempts. Try again in ${attempt.wait} seconds.`,
      });
    }
    // One message whichever field was wrong.
    if ('failed' in attempt) return page(req, res, 200, { next, username, error: BAD_LOGIN });
    await startSession(runtime, req, res, attempt.user, csrf);
    res.redirect(302, next);
  });

  // A session's POST got its CSRF check in the authentication chain already.
  router.post(`${base}logout/`, async (req, res) => {
    const body = await readBody(req, res);
    const next = safeNext(req, req.query.next ?? body.next);
    await endSession(req, res, csrf);
    res.redirect(302, next);
  });
  router.get(`${base}logout/`, (req, res) => logoutPage(req, res, csrf, safeNext(req, req.query.next)));
  if (signIn) router.use(oidcPages(runtime, registry, base, signIn, csrf, (req) => safeNext(req, req.query.next)));
  return router;
}
