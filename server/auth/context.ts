// The outer tRPC context: the requester the authentication chain left on the request, copied into ctx.
import type { Request } from 'express';
import { createContextInner, type Context } from '../../src/context';

export function requestContext(req: Pick<Request, 'requester'>): Context {
  return createContextInner({ user: req.requester.user, auth: req.requester.auth });
}
