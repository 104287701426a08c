// The REST facade: exact routes, 405 with Allow, OPTIONS, HEAD, body parsing, then the procedure by tRPC's caller.
import type { Request, RequestHandler } from 'express';
import { NOT_AUTHENTICATED } from '../../src/errors';
import { callerFor } from '../auth/context';
import { readBody } from '../http/body';
import { TRPCError } from '@trpc/server';
import { methodNotAllowed } from '../../src/refusal';
import { notAcceptable } from '../http/negotiate';
import { sendJson } from '../http/respond';
import { callProcedure } from './call';
import { metadata } from './metadata';
import { writeOutcome, type Page } from './outcome';
import { allowedMethods, matchRoute, type Method, type Route } from './routes';
import { BATCH, streamList } from './stream-list';
import { textFormat } from './text-format';
import { asPasted } from '../web/paste-submission';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Snippets per browsable page when the URL gives no `limit`: a screen or two, the create form above them. */
const BROWSABLE_LIMIT = 20;

async function writableActions(
  req: Request,
  route: Route,
  params: Record<string, string>,
): Promise<('POST' | 'PUT')[]> {
  const user = req.requester.user;
  if (!user) return [];
  if (route.procedures.POST && !route.procedures.POST.bodyless) return ['POST'];
  if (route.procedures.PUT && params.id && (await callerFor(req).snippets.writable({ id: Number(params.id) })))
    return ['PUT'];
  return [];
}

/**
 * The request's preconditions as the writes take them: the If-Match header (RFC 9110 §13.1.1), or nothing. It comes
 * last, so that a body or query field of the same name is never taken for it.
 */
function preconditions(req: Request): { ifMatch: string | undefined } {
  return { ifMatch: req.headers['if-match'] };
}

/**
 * The query string as a procedure's input: each key once, its last value (as Django's QueryDict reads it). The
 * request-target's query alone is parsed (up to a `#`, as a URL's would be): most reads have none, and a whole URL
 * parsed for it cost a detail read a few microseconds.
 */
function queryOf(req: Request): Record<string, string> {
  const url = req.originalUrl;
  const start = url.indexOf('?');
  if (start === -1) return {};
  const end = url.indexOf('#', start);
  return Object.fromEntries(new URLSearchParams(url.slice(start + 1, end === -1 ? undefined : end)));
}

export function restFacade(routes: readonly Route[]): RequestHandler {
  return async (req, res, next) => {
    const match = matchRoute(routes, req.path);
    if (!match) return next();
    const { route, params } = match;
    const method = (req.method === 'HEAD' ? 'GET' : req.method) as Method;
    // The page of the answer is the view of the procedure that answers (of the route's GET when none does: a 405).
    res.locals.route = {
      name: route.name,
      viewName: route.viewName,
      procedure: (route.procedures[method] ?? route.procedures.GET)?.path,
    };
    res.locals.params = params;
    res.setHeader('Allow', allowedMethods(route).join(', '));
    try {
      const text = route.procedures.GET?.text;
      if (text) res.locals.format = textFormat(req, text);
      if (!res.locals.format) throw notAcceptable(res);
      if (req.method === 'OPTIONS')
        return sendJson(res, 200, metadata(route, await writableActions(req, route, params)));
      // Permission before the method check, as DRF: an anonymous POST to /snippets/1/ is refused, not 405.
      if (!SAFE_METHODS.has(req.method) && route.authenticatedOrReadOnly && !req.requester.user) {
        throw new TRPCError({ code: 'UNAUTHORIZED', message: NOT_AUTHENTICATED });
      }
      const procedure = route.procedures[method];
      if (!procedure) throw methodNotAllowed(req.method, allowedMethods(route));
      if (method === 'POST' || method === 'PUT') {
        const submitted = (res.locals.submitted = await readBody(req, res));
        // A page's form: LF line ends, the language guessed when none was chosen (server/web/paste-submission.ts).
        if (res.locals.format === 'html') await asPasted(req, method, submitted, params.id);
        return writeOutcome(
          res,
          method,
          procedure,
          await callProcedure(req, procedure, { ...submitted, ...params, ...preconditions(req) }),
        );
      }
      const query: Record<string, string | undefined> | undefined = procedure.voidInput
        ? undefined
        : { ...queryOf(req), ...params, ...(method === 'DELETE' ? preconditions(req) : {}) };
      // The browsable page shows a list a page at a time, with Previous and Next links; JSON keeps the whole array.
      if (procedure.paged && res.locals.format === 'html' && query) {
        query.limit ??= String(BROWSABLE_LIMIT);
        res.locals.listPage = { limit: Number(query.limit), cursor: query.cursor };
      }
      // A list asked for whole, in JSON, is streamed page by page: its memory stays flat however long it is.
      if (procedure.paged && res.locals.format === 'json' && query?.limit === undefined) {
        // The first page is read before anything is sent: a refusal there (a bad filter, no such snippet) is answered as one.
        const first = await callProcedure(req, procedure, { ...query, limit: BATCH, cursor: undefined });
        if (!first.ok) return writeOutcome(res, method, procedure, first);
        return await streamList(res, async (cursor) => {
          if (cursor === undefined) return first.data as Page;
          const outcome = await callProcedure(req, procedure, { ...query, limit: BATCH, cursor });
          if (!outcome.ok) throw outcome.error;
          return outcome.data as Page;
        });
      }
      const outcome = await callProcedure(req, procedure, query);
      if (res.locals.listPage && outcome.ok) res.locals.listPage.next = (outcome.data as Page).next;
      writeOutcome(res, method, procedure, outcome);
    } catch (err) {
      next(err);
    }
  };
}
