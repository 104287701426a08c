// The outer tRPC context: the requester the authentication chain left on the request, copied into ctx; and the
// server-side caller of the procedures as that requester (the pages call through it).
import type { Request } from 'express';
import { createContextInner, type Context, type Seen } from '../../src/context';
import { appRouter } from '../../src/routers';
import { createCallerFactory } from '../../src/trpc';
import { clientGoneSignal } from '../http/client-gone';

const createCaller = createCallerFactory(appRouter);

type ContextSource = Pick<Request, 'requester' | 'log' | 'app' | 'res' | 'ip'>;

export function requestContext(req: ContextSource, seen: Seen = {}): Context {
  return createContextInner({
    runtime: req.app.locals.runtime,
    user: req.requester.user,
    auth: req.requester.auth,
    scheme: req.requester.scheme,
    scopes: req.requester.scopes,
    address: req.ip,
    log: req.log,
    challenge: req.res?.locals.challenge,
    seen,
    signal: req.res && clientGoneSignal(req.res),
  });
}

/** The procedures, called as the request's requester; what they saw (a revision) is left in `seen`. */
export function callerFor(req: ContextSource, seen: Seen = {}) {
  return createCaller(requestContext(req, seen));
}
