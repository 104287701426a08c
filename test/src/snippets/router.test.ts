// The snippet procedures without HTTP, through createCaller and the inner context.
import { TRPCError } from '@trpc/server';
import { expect } from 'chai';
import { createContextInner } from '../../../src/context';
import { appRouter } from '../../../src/routers';
import { createCallerFactory } from '../../../src/trpc';
import { makeUser, resetDatabase } from '../../support/db';
import type { AuthUser } from '../../../src/auth/users';
import { testRuntime, testStore } from '../../support/runtime';

const createCaller = createCallerFactory(appRouter);

async function rejection(promise: Promise<unknown>): Promise<TRPCError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof TRPCError) return err;
    throw err;
  }
  throw new Error('expected a TRPCError');
}

describe('snippets router', () => {
  let alice: AuthUser;
  let bob: AuthUser;
  beforeEach(async () => {
    await resetDatabase();
    alice = await makeUser('alice');
    bob = await makeUser('bob');
  });

  it('create stores the highlighted document and takes the owner from the context', async () => {
    const created = await createCaller(createContextInner({ runtime: testRuntime(), user: alice })).snippets.create({
      code: 'print(1)',
      title: 'T',
    });
    expect(created).to.deep.equal({
      id: created.id,
      owner: 'alice',
      title: 'T',
      code: 'print(1)',
      linenos: false,
      language: 'python',
      style: 'friendly',
    });
    const row = await testStore().models.Snippet.findByPk(created.id);
    expect(row?.highlighted).to.match(/^<!DOCTYPE html>/i);
    expect(row?.ownerId).to.equal(alice.id);
  });

  it('create without a user is UNAUTHORIZED', async () => {
    const err = await rejection(
      createCaller(createContextInner({ runtime: testRuntime() })).snippets.create({ code: 'x' }),
    );
    expect(err.code).to.equal('UNAUTHORIZED');
  });

  it('update by another user is FORBIDDEN and changes nothing', async () => {
    const { id } = await createCaller(createContextInner({ runtime: testRuntime(), user: alice })).snippets.create({
      code: 'x',
    });
    const err = await rejection(
      createCaller(createContextInner({ runtime: testRuntime(), user: bob })).snippets.update({ id, code: 'y' }),
    );
    expect(err.code).to.equal('FORBIDDEN');
    expect((await testStore().models.Snippet.findByPk(id))?.code).to.equal('x');
  });

  it('update recomputes highlighted from the new fields', async () => {
    const caller = createCaller(createContextInner({ runtime: testRuntime(), user: alice }));
    const { id } = await caller.snippets.create({ code: 'x', title: 'old title' });
    await caller.snippets.update({ id, code: 'y', title: 'new title', linenos: true });
    const row = await testStore().models.Snippet.findByPk(id);
    expect(row?.highlighted).to.include('new title').and.not.include('old title');
  });

  it('get of a missing id is NOT_FOUND', async () => {
    const err = await rejection(
      createCaller(createContextInner({ runtime: testRuntime() })).snippets.get({ id: 424242 }),
    );
    expect(err.code).to.equal('NOT_FOUND');
  });

  it('delete by the owner removes the row', async () => {
    const caller = createCaller(createContextInner({ runtime: testRuntime(), user: alice }));
    const { id } = await caller.snippets.create({ code: 'x' });
    await caller.snippets.delete({ id });
    expect(await testStore().models.Snippet.findByPk(id)).to.equal(null);
  });
});

describe('snippets router and its store', () => {
  beforeEach(() => resetDatabase());

  it('reads and writes through ctx.runtime.store.snippets, the one interface of the snippets’ store', async () => {
    const alice = await makeUser('alice');
    const base = testRuntime();
    const calls: string[] = [];
    const stored = { id: 7, ownerId: alice.id, revision: 3, title: 't', code: 'c', linenos: false } as const;
    const snippets = {
      ...base.store.snippets,
      byId: async (id: number) => {
        calls.push(`byId ${id}`);
        return {
          snippet: {
            id,
            owner: 'nobody',
            title: 'from the store',
            code: 'c',
            linenos: false,
            language: 'python',
            style: 'friendly',
          },
          revision: 3,
        };
      },
      forWrite: async (id: number) => {
        calls.push(`forWrite ${id}`);
        return { ...stored, language: 'python', style: 'friendly' };
      },
      delete: async () => {
        calls.push('delete');
        return 'deleted' as const;
      },
    };
    const runtime = { ...base, store: Object.assign(Object.create(base.store) as typeof base.store, { snippets }) };
    const caller = createCaller(createContextInner({ runtime, user: alice }));
    // No snippet 7 exists in the database: only the store handed in the context answers.
    expect((await caller.snippets.get({ id: 7 })).title).to.equal('from the store');
    await caller.snippets.delete({ id: 7 });
    expect(calls).to.deep.equal(['byId 7', 'forWrite 7', 'delete']);
  });
});
