// The outer tRPC context: the requester the authentication chain left on the request, copied into ctx; and the
// server-side caller of the procedures as that requester (the REST facade and the pages call through it).
import type { Request } from 'express';
import { createContextInner, type Context } from '../../src/context';
import { appRouter } from '../../src/routers';
import { createCallerFactory } from '../../src/trpc';

const createCaller = createCallerFactory(appRouter);

export function requestContext(req: Pick<Request, 'requester' | 'log' | 'app' | 'res'>): Context {
  return createContextInner({ runtime: req.app.locals.runtime, user: req.requester.user, auth: req.requester.auth, log: req.log, challenge: req.res?.locals.challenge });
}

/** The procedures, called as the request's requester. */
export function callerFor(req: Pick<Request, 'requester' | 'log' | 'app' | 'res'>) {
  return createCaller(requestContext(req));
}
