// The outer tRPC context: the requester the authentication chain left on the request, copied into ctx; and the
// server-side caller of the procedures as that requester (the pages call through it).
import type { Request } from 'express';
import { createContextInner, type Context } from '../../src/context';
import { appRouter } from '../../src/routers';
import { createCallerFactory } from '../../src/trpc';
import { clientGoneSignal } from '../http/client-gone';

const createCaller = createCallerFactory(appRouter);

type ContextSource = Pick<Request, 'requester' | 'log' | 'app' | 'res' | 'ip'>;

/** `etag`: told the revision of the snippet the procedure answers with (the REST facade's ETag). */
export function requestContext(req: ContextSource, etag?: Context['etag']): Context {
  return createContextInner({
    runtime: req.app.locals.runtime,
    user: req.requester.user,
    auth: req.requester.auth,
    scheme: req.requester.scheme,
    scopes: req.requester.scopes,
    address: req.ip,
    log: () => req.log,
    challenge: req.res?.locals.challenge,
    etag,
    signal: req.res && clientGoneSignal(req.res),
  });
}

/** The procedures, called as the request's requester. */
export function callerFor(req: ContextSource) {
  return createCaller(requestContext(req));
}
