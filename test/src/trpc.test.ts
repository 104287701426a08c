// The base procedure: a query's reads are cancelled by its context's signal (its client gone), a mutation's are not.
import { expect } from 'chai';
import { TRPCError } from '@trpc/server';
import { createContextInner } from '../../src/context';
import { CLIENT_GONE } from '../../src/store/errors';
import { select } from '../../src/store/select';
import { createCallerFactory, publicProcedure, router } from '../../src/trpc';
import { testRuntime } from '../support/runtime';

const ONE = 'SELECT 1 AS one';
const probe = router({
  read: publicProcedure.query(({ ctx }) => select(ctx.runtime.store, ONE)),
  write: publicProcedure.mutation(({ ctx }) => select(ctx.runtime.store, ONE)),
});

/** The probe's procedures, called with a context whose client is already gone (or not). */
function callerWith(gone: boolean) {
  const client = new AbortController();
  if (gone) client.abort();
  return createCallerFactory(probe)(createContextInner({ runtime: testRuntime(), signal: client.signal }));
}

describe('publicProcedure and ctx.signal', () => {
  it('a query whose client went away does not start its read: 503 SERVICE_UNAVAILABLE, "its client went away"', async () => {
    const err = await callerWith(true)
      .read()
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(err).to.be.instanceOf(TRPCError);
    expect((err as TRPCError).code).to.equal('SERVICE_UNAVAILABLE');
    expect((err as TRPCError).message).to.equal(CLIENT_GONE);
  });

  it('a query whose client is there reads', async () => {
    expect(await callerWith(false).read()).to.deep.equal([{ one: 1 }]);
  });

  it("a mutation's reads go on when its client went away (the write ends as it would have)", async () => {
    expect(await callerWith(true).write()).to.deep.equal([{ one: 1 }]);
  });
});
