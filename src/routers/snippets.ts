// Snippet procedures: list and get for anyone, create for the authenticated, update and delete for the owner.
import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import { Snippet as SnippetModel } from '../models';
import { allSnippets, InvalidCursor, snippetById, snippetPage, toSnippet } from '../representations';
import { select } from '../reads';
import { notFound } from '../errors';
import { assertOwner } from '../permissions';
import { Snippet, SnippetFields, SnippetId, SnippetList, SnippetListQuery, SnippetUpdate } from '../schemas/snippet';
import { authedProcedure, publicProcedure, router } from '../trpc';

const TAGS = ['snippets'];

/**
 * The stored snippet as an instance to update or destroy through the model, so the hook still runs. It holds the
 * representation's columns only (`highlighted` can be megabytes), read with one prepared statement, where findByPk
 * would also ask SQLite for the table's columns every time.
 */
async function snippetForWrite(id: number): Promise<SnippetModel | null> {
  const [row] = await select<{ linenos: number | boolean }>('SELECT id, title, code, linenos, language, style, owner_id AS ownerId FROM snippets WHERE id = ?', [id]);
  return row ? SnippetModel.build({ ...row, linenos: Boolean(row.linenos) } as never, { isNewRecord: false, raw: true }) : null;
}

/** Loads the snippet named by the raw input's id and checks the owner rule before the body is validated, as DRF does. */
const ownSnippetProcedure = authedProcedure.use(async ({ ctx, getRawInput, next }) => {
  const parsed = SnippetId.safeParse(await getRawInput());
  if (!parsed.success) throw notFound();
  const snippet = await snippetForWrite(parsed.data.id);
  if (!snippet) throw notFound();
  assertOwner(snippet, ctx.user);
  return next({ ctx: { snippet } });
});

export const snippetsRouter = router({
  list: publicProcedure
    .meta({ openapi: { method: 'GET', path: '/snippets/', tags: TAGS, summary: 'List snippets, oldest first' } })
    .input(SnippetListQuery)
    .output(SnippetList)
    .query(async ({ ctx, input }) => {
      if (!input?.limit) return allSnippets();
      try {
        const { items, next } = await snippetPage(input.limit, input.cursor);
        ctx.page.next = next;
        return items;
      } catch (err) {
        if (err instanceof InvalidCursor) throw new TRPCError({ code: 'NOT_FOUND', message: err.message });
        throw err;
      }
    }),

  get: publicProcedure
    .meta({ openapi: { method: 'GET', path: '/snippets/{id}/', tags: TAGS, summary: 'Get a snippet' } })
    .input(SnippetId)
    .output(Snippet)
    .query(async ({ input }) => (await snippetById(input.id)) ?? Promise.reject(notFound())),

  /** The stored highlighted document (the highlight view; not a REST path of the spec). */
  highlighted: publicProcedure
    .input(SnippetId)
    .output(z.string())
    .query(async ({ input }) => {
      const [row] = await select<{ highlighted: string }>('SELECT highlighted FROM snippets WHERE id = ?', [input.id]);
      if (!row) throw notFound();
      return row.highlighted;
    }),

  create: authedProcedure
    .meta({ openapi: { method: 'POST', path: '/snippets/', tags: TAGS, summary: 'Create a snippet', protect: true, successDescription: 'Created' } })
    .input(SnippetFields)
    .output(Snippet)
    .mutation(async ({ ctx, input }) => {
      // The owner always comes from the context, never from input.
      const row = await SnippetModel.create({ ...definedOnly(input), code: input.code, ownerId: ctx.user.id });
      return toSnippet({ ...row.get(), owner: ctx.user.username });
    }),

  update: ownSnippetProcedure
    .meta({ openapi: { method: 'PUT', path: '/snippets/{id}/', tags: TAGS, summary: 'Replace a snippet (owner only)', protect: true } })
    .input(SnippetUpdate)
    .output(Snippet)
    .mutation(async ({ ctx, input }) => {
      const { id: _id, ...fields } = input;
      ctx.snippet.set(definedOnly(fields));
      await ctx.snippet.save();
      return toSnippet({ ...ctx.snippet.get(), owner: ctx.user.username });
    }),

  delete: ownSnippetProcedure
    .meta({ openapi: { method: 'DELETE', path: '/snippets/{id}/', tags: TAGS, summary: 'Delete a snippet (owner only)', protect: true, successDescription: 'No Content' } })
    .input(SnippetId)
    .output(z.void())
    .mutation(async ({ ctx }) => {
      await ctx.snippet.destroy();
    }),
});

/** Drops keys whose value is undefined, so an omitted field keeps its default or stored value. */
function definedOnly<T extends object>(obj: T): Partial<T> {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as Partial<T>;
}
