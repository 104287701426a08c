// The /trpc endpoint for TypeScript clients: the same procedures, the requester from the authentication chain, and the
// same refusal rule as every REST path (a 401 carries the first scheme's challenge; without one, the refusal is 403).
import { Router } from 'express';
import { createExpressMiddleware } from '@trpc/server/adapters/express';
import { requestContext } from './auth/context';
import { appRouter } from '../src/routers';
import { sendError } from './http/respond';
import { RETRY_AFTER_SECONDS } from '../src/store/errors';

/** tRPC answers queries to GET and mutations to POST; any other method made it throw (a 500). */
const METHODS = new Set(['GET', 'POST']);

export function trpcEndpoint(challenge: string | undefined): Router {
  return Router()
    .use((req, res, next) => (METHODS.has(req.method) ? next() : sendError(res, 405, `Method "${req.method}" not allowed.`, { Allow: 'GET, POST' })))
    .use(
      createExpressMiddleware({
        router: appRouter,
        createContext: ({ req }) => requestContext(req),
        maxBodySize: 1536 * 1024,
        // A fault (not a refusal) is handed to the access log, whose record of the request then carries its stack.
        onError: ({ error, req }) => {
          if (error.code === 'INTERNAL_SERVER_ERROR' && req.res) req.res.err = error.cause ?? error;
        },
        responseMeta: ({ errors }) => {
          // A store busy or out of reach (tRPC answers SERVICE_UNAVAILABLE with 503): when to try again, as on REST paths.
          if (errors.some((e) => e.code === 'SERVICE_UNAVAILABLE')) return { headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) } };
          if (!errors.some((e) => e.code === 'UNAUTHORIZED')) return {};
          return challenge ? { headers: { 'WWW-Authenticate': challenge } } : { status: 403 };
        },
      }),
    );
}
