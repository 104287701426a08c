// POST /oauth2/access_token/ (and without the slash), named under the `oauth2` namespace.
import express, { Router, type RequestHandler } from 'express';
import type { Runtime } from '../../../src/runtime';
import type { Urls } from '../../http/urls';
import { methodNotAllowed, throttledDetail } from '../../../src/refusal';
import type { Throttle } from '../throttle';
import { authenticateOAuthClient } from './client-auth';
import { tokenErrorHandler } from './errors';
import { createOAuth2Server } from './server';

export const TOKEN_PATHS = ['/oauth2/access_token/', '/oauth2/access_token'];

export function oauth2Routes(urls: Urls, runtime: Runtime, throttle: Throttle): Router {
  urls.register('oauth2:access_token', TOKEN_PATHS[0]!);
  const router = Router({ strict: true });
  const server = createOAuth2Server(runtime);
  const body = [express.urlencoded({ extended: false, limit: '16kb' }), express.json({ limit: '16kb' })];
  // The password-guessing limit applies to the password grant too; a grant answered 400 (invalid_grant, or a request
  // naming the user but not its password) counts as a failed guess.
  const throttlePasswordGrant: RequestHandler = async (req, res, next) => {
    const { grant_type: grant, username } = (req.body ?? {}) as Record<string, unknown>;
    if (grant !== 'password' || typeof username !== 'string') return next();
    const wait = await throttle.passwordWait(req, username);
    if (!wait) {
      res.once('finish', () => void (res.statusCode === 400 && throttle.passwordFailed(req, username).catch(() => {})));
      return next();
    }
    // The RFC's error fields for OAuth clients, and the service's throttle fields (spec) for everyone else.
    const detail = throttledDetail(wait);
    res
      .set('Retry-After', String(wait))
      .status(429)
      .json({ error: 'slow_down', error_description: detail, detail, wait });
  };
  router.post(
    TOKEN_PATHS,
    ...body,
    authenticateOAuthClient(runtime.store),
    throttlePasswordGrant,
    server.token(),
    tokenErrorHandler,
  );
  // OPTIONS, as its Allow header promises, answers as the other endpoints do.
  router.options(TOKEN_PATHS, (_req, res) => {
    res
      .status(200)
      .set('Allow', 'POST, OPTIONS')
      .json({
        name: 'OAuth 2.0 token endpoint',
        description: '',
        renders: ['application/json'],
        parses: ['application/x-www-form-urlencoded', 'application/json'],
      });
  });
  router.all(TOKEN_PATHS, (req, res) => {
    res.locals.format = 'json'; // the token endpoint answers JSON only
    throw methodNotAllowed(req.method, ['POST', 'OPTIONS']);
  });
  return router;
}
