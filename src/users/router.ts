// User procedures: read-only records listing the ids of the snippets each user owns.
import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import { notFound } from '../errors';
import { DEFAULT_PAGE } from '../store/page-budget';
import { userById, userIdsByUsername, usersAfter } from './store';
import { User, UserId, UserListQuery, UserPage } from './schema';
import { publicProcedure, router } from '../trpc';

const TAGS = ['users'];

export const usersRouter = router({
  list: publicProcedure
    .meta({
      name: 'user-list',
      paged: true,
      openapi: { method: 'GET', path: '/users/', tags: TAGS, summary: 'List users' },
    })
    .input(UserListQuery)
    .output(UserPage)
    .query(async ({ ctx, input }) => {
      // The cursor is the id of the last user of the page before.
      if (input?.cursor !== undefined && !/^[0-9]{1,15}$/.test(input.cursor))
        throw new TRPCError({ code: 'NOT_FOUND', message: 'Invalid cursor' });
      // Without a limit, the first page of DEFAULT_PAGE (/trpc): the REST facade streams a whole list page after page.
      const { items, more } = await usersAfter(
        ctx.runtime.store,
        Number(input?.cursor ?? 0),
        input?.limit ?? DEFAULT_PAGE,
      );
      return { items, next: more ? String(items[items.length - 1]!.id) : undefined };
    }),

  /** username → id, so the pages can link an owner to its user record (not a REST path). */
  idsByUsername: publicProcedure
    .input(z.object({ usernames: z.array(z.string().max(150)).max(1000) }))
    .output(z.record(z.string(), z.number().int()))
    .query(async ({ ctx, input }) => Object.fromEntries(await userIdsByUsername(ctx.runtime.store, input.usernames))),

  get: publicProcedure
    .meta({ name: 'user-detail', openapi: { method: 'GET', path: '/users/{id}/', tags: TAGS, summary: 'Get a user' } })
    .input(UserId)
    .output(User)
    .query(async ({ ctx, input }) => (await userById(ctx.runtime.store, input.id)) ?? Promise.reject(notFound())),
});
