// The REST facade: exact routes, 405 with Allow, OPTIONS, HEAD, body parsing, then the procedure via the adapter.
import type { Request, RequestHandler } from 'express';
import { NOT_AUTHENTICATED } from '../../src/errors';
import { mayWriteSnippet } from '../../src/permissions';
import { denyUnauthenticated } from '../auth/chain';
import { readBody } from './body';
import { HttpError } from './http-error';
import { notAcceptable } from './negotiate';
import { invokeProcedure } from './invoke';
import { metadata } from './metadata';
import { writeOutcome } from './outcome';
import { sendJson } from './respond';
import { allowedMethods, matchRoute, type Method, type Route } from './routes';
import { isPaged, streamSnippetList } from './stream-list';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

async function writableActions(req: Request, route: Route, pk: string | undefined): Promise<('POST' | 'PUT')[]> {
  const user = req.requester.user;
  if (!user) return [];
  if (route.procedures.POST) return ['POST'];
  if (route.procedures.PUT && pk && (await mayWriteSnippet(user, Number(pk)))) return ['PUT'];
  return [];
}

export function restFacade(): RequestHandler {
  return async (req, res, next) => {
    const match = matchRoute(req.path);
    if (!match) return next();
    const { route, pk } = match;
    res.setHeader('Allow', allowedMethods(route).join(', '));
    try {
      if (!res.locals.format) throw notAcceptable(res);
      if (req.method === 'OPTIONS') return sendJson(res, 200, metadata(route, await writableActions(req, route, pk)));
      // Permission before the method check, as DRF: an anonymous POST to /snippets/1/ is refused, not 405.
      if (!SAFE_METHODS.has(req.method) && route.authenticatedOrReadOnly && !req.requester.user) {
        return denyUnauthenticated(res, NOT_AUTHENTICATED);
      }
      const method = (req.method === 'HEAD' ? 'GET' : req.method) as Method;
      if (!route.procedures[method]) throw HttpError.detail(405, `Method "${req.method}" not allowed.`);
      if (route.name === 'snippet-list' && method === 'GET' && res.locals.format === 'json' && !isPaged(req)) {
        return await streamSnippetList(req, res);
      }
      let body: Record<string, unknown> | undefined;
      if (method === 'POST' || method === 'PUT') body = await readBody(req, res);
      writeOutcome(res, method, await invokeProcedure(req, method, body));
    } catch (err) {
      next(err);
    }
  };
}
