// The /trpc endpoint for TypeScript clients: the same procedures, the requester from the authentication chain, and the
// same refusal rule as every REST path (a 401 carries the first scheme's challenge; without one, the refusal is 403).
import { Router } from 'express';
import { createExpressMiddleware } from '@trpc/server/adapters/express';
import { requestContext } from './auth/context';
import { refuseUninvitedTooLarge } from './http/body';
import { appRouter } from '../src/routers';
import { methodNotAllowed, refusalOf } from '../src/refusal';

/** tRPC answers queries to GET and mutations to POST; any other method made it throw (a 500). */
const METHODS = new Set(['GET', 'POST']);

export function trpcEndpoint(challenge: string | undefined): Router {
  return Router()
    .use((req, _res, next) => next(METHODS.has(req.method) ? undefined : methodNotAllowed(req.method, [...METHODS])))
    .use(refuseUninvitedTooLarge)
    .use(
      createExpressMiddleware({
        router: appRouter,
        createContext: ({ req }) => requestContext(req),
        maxBodySize: 1536 * 1024,
        // A fault (not a refusal) is handed to the access log, whose record of the request then carries its stack.
        onError: ({ error, req }) => {
          if (error.code === 'INTERNAL_SERVER_ERROR' && req.res) req.res.err = error.cause ?? error;
        },
        // The status is the refusal rule's already (the error formatter's httpStatus); its headers come from it too:
        // WWW-Authenticate on a 401, Retry-After on a 503.
        responseMeta: ({ errors }) => ({ headers: Object.assign({}, ...errors.map((e) => refusalOf(e, challenge).headers)) as Record<string, string> }),
      }),
    );
}
