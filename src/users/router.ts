// User procedures: read-only records listing the ids of the snippets each user owns.
import { z } from 'zod';
import { notFound } from '../errors';
import { allUsers, userById, userIdsByUsername } from './store';
import { User, UserId, UserList } from './schema';
import { publicProcedure, router } from '../trpc';

const TAGS = ['users'];

export const usersRouter = router({
  list: publicProcedure
    .meta({ name: 'user-list', openapi: { method: 'GET', path: '/users/', tags: TAGS, summary: 'List users' } })
    .input(z.void())
    .output(UserList)
    .query(({ ctx }) => allUsers(ctx.runtime.store)),

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
