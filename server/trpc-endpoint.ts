// The /trpc endpoint for TypeScript clients: the same procedures, the requester from the authentication chain, and the
// same refusal rule as every REST path (a 401 carries the first scheme's challenge; without one, the refusal is 403).
// A batch holds at most TRPC_MAX_BATCH calls, each counted against the throttle as a request (docs/api.md "/trpc").
import { Router, type Request } from 'express';
import { TRPCError } from '@trpc/server';
import { createExpressMiddleware } from '@trpc/server/adapters/express';
import { requestContext } from './auth/context';
import type { Throttle } from './auth/throttle';
import { refuseUninvitedTooLarge } from './http/body';
import { appRouter } from '../src/routers';
import { methodNotAllowed, refusalOf, Throttled, throttledDetail } from '../src/refusal';

/** tRPC answers queries to GET and mutations to POST; any other method made it throw (a 500). */
const METHODS = new Set(['GET', 'POST']);

/**
 * The throttle's count of one request's calls. The first call is the request itself, which the throttle counted before
 * the endpoint (app.ts); every further call of a batch takes a point of the requester's rate, as a request of its own
 * would, and past the rate is refused 429 on its own while the calls before it stand. The calls are counted one after
 * another: once one is refused, the rest of the batch is refused with the same wait without asking the counters again
 * (a batch of 1,000 over the rate is not 1,000 Redis commands at once).
 */
function callsCounted(throttle: Throttle, req: Request): () => Promise<void> {
  let first = true;
  let counted: Promise<number> = Promise.resolve(0);
  return async () => {
    if (first) return void (first = false);
    counted = counted.then((refused) => refused || throttle.another(req));
    const wait = await counted;
    if (wait)
      throw new TRPCError({ code: 'TOO_MANY_REQUESTS', message: throttledDetail(wait), cause: new Throttled(wait) });
  };
}

export function trpcEndpoint(challenge: string | undefined, throttle: Throttle, maxBatchSize: number): Router {
  return Router()
    .use((req, _res, next) => next(METHODS.has(req.method) ? undefined : methodNotAllowed(req.method, [...METHODS])))
    .use(refuseUninvitedTooLarge)
    .use(
      createExpressMiddleware({
        router: appRouter,
        createContext: ({ req }) => ({ ...requestContext(req), admit: callsCounted(throttle, req) }),
        maxBodySize: 1536 * 1024,
        // tRPC's own bound: a longer batch is refused 400 BAD_REQUEST before its inputs are read or any call runs.
        maxBatchSize,
        // A fault (not a refusal) is handed to the access log, whose record of the request then carries its stack.
        onError: ({ error, req }) => {
          if (error.code === 'INTERNAL_SERVER_ERROR' && req.res) req.res.err = error.cause ?? error;
        },
        // The status is the refusal rule's already (the error formatter's httpStatus); its headers come from it too:
        // WWW-Authenticate on a 401, Retry-After on a 503 or a 429. A request refused before tRPC read its calls (a
        // batch too long, input that is not JSON) has no `info`, and tRPC leaves its JSON body typed text/plain.
        responseMeta: ({ errors, info }) => ({
          headers: Object.assign(
            info ? {} : { 'content-type': 'application/json' },
            ...errors.map((e) => refusalOf(e, challenge).headers),
          ) as Record<string, string>,
        }),
      }),
    );
}
