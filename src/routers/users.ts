// User procedures: read-only records listing the ids of the snippets each user owns.
import { Snippet as SnippetModel, User as UserModel } from '../models';
import { notFound } from '../errors';
import { User, UserId, UserList } from '../schemas/user';
import { publicProcedure, router } from '../trpc';
import { z } from 'zod';

const TAGS = ['users'];
const SNIPPET_ORDER: [string, string][] = [['created', 'ASC'], ['id', 'ASC']];

export const usersRouter = router({
  list: publicProcedure
    .meta({ openapi: { method: 'GET', path: '/users/', tags: TAGS, summary: 'List users' } })
    .input(z.void())
    .output(UserList)
    .query(async () => {
      // Two queries whatever the number of users: the users, then every (owner, id) pair.
      const [users, owned] = await Promise.all([
        UserModel.findAll({ attributes: ['id', 'username'], order: [['id', 'ASC']], raw: true }),
        SnippetModel.findAll({ attributes: ['id', 'ownerId'], order: SNIPPET_ORDER, raw: true }),
      ]);
      const byOwner = new Map<number, number[]>();
      for (const s of owned) {
        const ids = byOwner.get(s.ownerId) ?? [];
        ids.push(s.id);
        byOwner.set(s.ownerId, ids);
      }
      return users.map((u) => ({ id: u.id, username: u.username, snippets: byOwner.get(u.id) ?? [] }));
    }),

  get: publicProcedure
    .meta({ openapi: { method: 'GET', path: '/users/{id}/', tags: TAGS, summary: 'Get a user' } })
    .input(UserId)
    .output(User)
    .query(async ({ input }) => {
      const user = await UserModel.findByPk(input.id, { attributes: ['id', 'username'], raw: true });
      if (!user) throw notFound();
      const owned = await SnippetModel.findAll({ attributes: ['id'], where: { ownerId: user.id }, order: SNIPPET_ORDER, raw: true });
      return { id: user.id, username: user.username, snippets: owned.map((s) => s.id) };
    }),
});
