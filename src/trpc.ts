// The only initTRPC: the router, the base procedures, and the caller factory.
import { initTRPC, TRPCError } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { Context } from './context';
import { NOT_AUTHENTICATED } from './errors';
import { tracked } from './inflight';

const t = initTRPC.context<Context>().meta<OpenApiMeta>().create();

export const router = t.router;
/** Every procedure is counted in flight: a shutdown lets it finish (a client that hung up does not stop a save). */
export const publicProcedure = t.procedure.use(({ next }) => tracked(() => next()));
export const createCallerFactory = t.createCallerFactory;

/** A procedure that guarantees `ctx.user`. */
export const authedProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.user) throw new TRPCError({ code: 'UNAUTHORIZED', message: NOT_AUTHENTICATED });
  return next({ ctx: { user: ctx.user } });
});
