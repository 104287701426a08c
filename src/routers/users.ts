// User procedures: read-only records listing the ids of the snippets each user owns.
import { z } from 'zod';
import { notFound } from '../errors';
import { allUsers, userById } from '../store/users';
import { User, UserId, UserList } from '../schemas/user';
import { publicProcedure, router } from '../trpc';

const TAGS = ['users'];

export const usersRouter = router({
  list: publicProcedure
    .meta({ name: 'user-list', openapi: { method: 'GET', path: '/users/', tags: TAGS, summary: 'List users' } })
    .input(z.void())
    .output(UserList)
    .query(() => allUsers()),

  get: publicProcedure
    .meta({ name: 'user-detail', openapi: { method: 'GET', path: '/users/{id}/', tags: TAGS, summary: 'Get a user' } })
    .input(UserId)
    .output(User)
    .query(async ({ input }) => (await userById(input.id)) ?? Promise.reject(notFound())),
});
