// The OpenID Connect sign-in's pages under API_AUTH_PREFIX (docs/authentication.md "Single sign-on"): oidc/login/ sends
// the browser to the provider, oidc/callback/ (the redirect URI to register there) signs the person in, or says why
// not. The flow itself is auth/oidc.ts's; the user it signs in as, src/auth/identities.ts's.
import { Router, type Request, type Response } from 'express';
import { signInIdentity } from '../../src/auth/identities';
import type { Runtime } from '../../src/runtime';
import { RETRY_AFTER_SECONDS } from '../../src/store/errors';
import type { Csrf } from '../auth/csrf';
import { startSession } from '../auth/login';
import type { OidcSignIn } from '../auth/oidc';
import { urls, type Urls } from '../http/urls';
import { html, type Html } from './html';
import { layout } from './layout';

function refusal(req: Request, res: Response, status: number, message: Html | string): void {
  if (status === 503) res.set('Retry-After', String(RETRY_AFTER_SECONDS));
  const login = urls(req).reverse('framework:login');
  const content = html`<div class="login"><h1>Not signed in</h1><p class="error" id="login-error">${message}</p>
<p><a href="${login}">Back to the login page</a></p></div>`;
  res
    .status(status)
    .set('Cache-Control', 'no-store')
    .type('html')
    .send(layout(req, res, 'Not signed in', content));
}

/** `nextOf`: the page a request asks to return to, only ever one of this site (web/login.ts safeNext). */
export function oidcPages(
  runtime: Runtime,
  registry: Urls,
  base: string,
  signIn: OidcSignIn,
  csrf: Csrf,
  nextOf: (req: Request) => string,
): Router {
  const start = `${base}oidc/login/`;
  const callback = `${base}oidc/callback/`;
  registry.register('oidc:login', start);
  registry.register('oidc:callback', callback);
  const router = Router({ strict: true });
  const unavailable = `${signIn.name} cannot be reached at the moment; try again shortly.`;

  router.get(start, async (req, res) => {
    const to = await signIn.start(req, res, callback, nextOf(req));
    if (!to) return refusal(req, res, 503, unavailable);
    res.set('Cache-Control', 'no-store').redirect(302, to.href);
  });

  router.get(callback, async (req, res) => {
    const outcome = await signIn.finish(req, res, callback);
    if ('unavailable' in outcome) return refusal(req, res, 503, unavailable);
    if ('invalid' in outcome) return refusal(req, res, 400, `This sign-in is not valid: ${outcome.invalid}.`);
    if ('declined' in outcome)
      return refusal(req, res, 403, `${signIn.name} did not sign you in (${outcome.declined}).`);
    const { identity } = outcome;
    const result = await signInIdentity(runtime.store, identity);
    if ('user' in result) {
      await startSession(runtime, req, res, result.user, csrf);
      return res.redirect(302, outcome.next);
    }
    if (result.refused === 'inactive') return refusal(req, res, 403, 'This account is deactivated.');
    if (result.refused === 'no-username') {
      return refusal(
        req,
        res,
        403,
        `${signIn.name} gave no usable username (the claim ${runtime.config.OIDC_USERNAME_CLAIM}: up to 150 letters, digits and @/./+/-/_).`,
      );
    }
    // The identity is shown so the person can hand it to an administrator, who links it to their account.
    return refusal(
      req,
      res,
      403,
      html`The username <strong>${result.username}</strong> belongs to another account, so this ${signIn.name} sign-in
cannot create it. If that account is yours, ask an administrator to link it:
<code class="linkuser">snippets linkuser ${result.username} --issuer ${identity.issuer} --subject ${identity.subject}</code>`,
    );
  });
  return router;
}
