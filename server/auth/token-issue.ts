// POST TOKEN_AUTH_PATH (api-token-auth/): username and password, as JSON or a form, give the user's token; always JSON.
import { Router, type Request } from 'express';
import { checkCredentials } from '../../src/auth/users';
import { tokenFor } from '../../src/auth/tokens';
import { NOT_BLANK, REQUIRED } from '../../src/schemas/messages';
import { readBody } from '../http/body';
import { HttpError, methodNotAllowed, Throttled } from '../../src/refusal';
import { sendJson } from '../http/respond';
import { mountPath, type Urls } from '../http/urls';
import type { Runtime } from '../../src/runtime';
import type { Throttle } from './throttle';

const BAD_CREDENTIALS = { non_field_errors: ['Unable to log in with provided credentials.'] };

function field(body: Record<string, unknown>, name: string, errors: Record<string, string[]>): string {
  const value = body[name];
  if (value === undefined || value === null) errors[name] = [REQUIRED];
  else if (typeof value !== 'string' || value === '') errors[name] = [NOT_BLANK];
  return typeof value === 'string' ? value : '';
}

export function tokenIssueRoutes(runtime: Runtime, urls: Urls, path: string, throttle: Throttle): Router {
  const route = mountPath(path);
  urls.register('api-token-auth', route);
  const router = Router({ strict: true });
  // The answer is JSON whatever the Accept header (spec: "always uses JSON").
  const json = (req: Request) => (req.res!.locals.format = 'json');

  router.post(route, async (req, res) => {
    json(req);
    res.set('Allow', 'POST, OPTIONS');
    const body = await readBody(req, res);
    const errors: Record<string, string[]> = {};
    const username = field(body, 'username', errors);
    const password = field(body, 'password', errors);
    if (Object.keys(errors).length) throw new HttpError(400, errors);
    const wait = await throttle.passwordWait(req, username);
    if (wait) throw new Throttled(wait);
    const user = await checkCredentials(runtime, username, password);
    if (!user) {
      await throttle.passwordFailed(req, username);
      throw new HttpError(400, BAD_CREDENTIALS);
    }
    sendJson(res, 200, { token: await tokenFor(runtime.store, user) });
  });
  router.options(route, (req, res) => {
    json(req);
    sendJson(
      res,
      200,
      {
        name: 'Obtain Auth Token',
        description: '',
        renders: ['application/json'],
        parses: ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'],
      },
      { Allow: 'POST, OPTIONS' },
    );
  });
  router.all(route, (req) => {
    json(req);
    throw methodNotAllowed(req.method, ['POST', 'OPTIONS']);
  });
  return router;
}
