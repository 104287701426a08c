// The only initTRPC: the router, the base procedures, and the caller factory.
import { initTRPC, TRPCError } from '@trpc/server';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import type { OpenApiMeta } from 'trpc-to-openapi';
import { assertAccess, type AccessMeta } from './access';
import type { Context } from './context';
import { NOT_AUTHENTICATED } from './errors';
import { refusalOf, trpcCodeOf } from './refusal';
import { cancelledWith } from './store/cancellation';
import { unavailableDetail } from './store/errors';

/**
 * What a procedure's `.meta` says of its REST route, beside trpc-to-openapi's `openapi` (path, method): the route's
 * name (`snippet-list`; links are built by it), for a list that its output is a page, `{ items, next }`, and how its
 * answer differs from the method's usual one.
 */
// A type, not an interface: tRPC's meta must be indexable.
export type RouteMeta = AccessMeta & {
  name?: string;
  paged?: boolean;
  /** The success status when it is not the method's usual one (a POST that creates nothing answers 200, not 201). */
  status?: number;
  /** A write that takes no fields: no body is documented, and OPTIONS lists no fields for it. */
  bodyless?: boolean;
  /** The output is a text document of this media type, not JSON (a diff). */
  text?: string;
};

/**
 * The refusal rule's answer in tRPC's shape: its status (an anonymous request is 403 where the edge has no challenge,
 * as on REST paths, and the body says so), its words. Never a stack trace, whatever NODE_ENV says; nor an unexpected
 * error's own message.
 */
const t = initTRPC
  .context<Context>()
  .meta<OpenApiMeta<RouteMeta>>()
  .create({
    isDev: false,
    errorFormatter: ({ shape, error, ctx }) => {
      const refusal = refusalOf(error, ctx?.challenge);
      const code = trpcCodeOf(refusal.status, error);
      const message = typeof refusal.body.detail === 'string' ? refusal.body.detail : shape.message;
      return {
        ...shape,
        message,
        code: TRPC_ERROR_CODES_BY_KEY[code],
        data: { ...shape.data, code, httpStatus: refusal.status },
      };
    },
  });

export const router = t.router;
/**
 * Every procedure is first counted against the throttle where the context asks it to (each call of a /trpc batch),
 * then judged by the access rule (src/access.ts: READ_ACCESS, a token's scopes, sign-in-only procedures), then counted
 * in flight: a shutdown lets it finish (a client that hung up does not stop a save). A query's reads stop
 * when its client goes away (`ctx.signal`). A store that stayed busy past its bound, or is out of reach, is the
 * service's momentary trouble, not a fault: SERVICE_UNAVAILABLE (503).
 */
export const publicProcedure = t.procedure.use(async ({ ctx, next, type, meta }) => {
  await ctx.admit?.();
  assertAccess(ctx, type, meta);
  const { signal } = ctx;
  const result = await ctx.runtime.inflight.tracked(
    () => (type === 'query' && signal ? cancelledWith(signal, () => next()) : next()),
    type === 'query',
  );
  const unavailable = !result.ok && unavailableDetail(result.error.cause);
  if (unavailable)
    throw new TRPCError({ code: 'SERVICE_UNAVAILABLE', message: unavailable, cause: result.error.cause });
  return result;
});
export const createCallerFactory = t.createCallerFactory;

/** A procedure that guarantees `ctx.user`. */
export const authedProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.user) throw new TRPCError({ code: 'UNAUTHORIZED', message: NOT_AUTHENTICATED });
  return next({ ctx: { user: ctx.user } });
});
