// The outer tRPC context: the requester the authentication chain left on the request, copied into ctx; and the
// server-side caller of the procedures as that requester (the REST facade and the pages call through it).
import type { Request } from 'express';
import { createContextInner, type Context, type Seen } from '../../src/context';
import { appRouter } from '../../src/routers';
import { createCallerFactory } from '../../src/trpc';

const createCaller = createCallerFactory(appRouter);

export function requestContext(req: Pick<Request, 'requester' | 'log'>, seen: Seen = {}): Context {
  return createContextInner({ user: req.requester.user, auth: req.requester.auth, log: req.log, seen });
}

/** The procedures, called as the request's requester; what they saw (a revision) is left in `seen`. */
export function callerFor(req: Pick<Request, 'requester' | 'log'>, seen: Seen = {}) {
  return createCaller(requestContext(req, seen));
}
