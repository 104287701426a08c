// Snippet procedures: list and get for anyone, create for the authenticated, update and delete for the owner.
import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import { allSnippets, InvalidCursor, snippetById, snippetPage, toSnippet } from '../store/snippets';
import { createSnippet, deleteSnippet, highlightedOf, snippetForWrite, updateSnippet } from '../store/snippet-writes';
import { notFound } from '../errors';
import { assertOwner } from '../permissions';
import { Snippet, SnippetFields, SnippetId, SnippetListQuery, SnippetPage, SnippetUpdate } from '../schemas/snippet';
import { retryConflicts } from '../store/retry';
import { selectionOf } from '../store/snippet-filters';
import type { Context } from '../context';
import { authedProcedure, publicProcedure, router } from '../trpc';

const TAGS = ['snippets'];

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
    .meta({ name: 'snippet-list', paged: true, openapi: { method: 'GET', path: '/snippets/', tags: TAGS, summary: 'List snippets, oldest first; filtered and searched on request' } })
    .input(SnippetListQuery)
    .output(SnippetPage)
    .query(async ({ input }) => {
      const selection = await selectionOf(input ?? {});
      if (!input?.limit) return { items: await allSnippets(selection) };
      try {
        return await snippetPage(input.limit, input.cursor, selection);
      } catch (err) {
        if (err instanceof InvalidCursor) throw new TRPCError({ code: 'NOT_FOUND', message: err.message });
        throw err;
      }
    }),

  get: publicProcedure
    .meta({ name: 'snippet-detail', openapi: { method: 'GET', path: '/snippets/{id}/', tags: TAGS, summary: 'Get a snippet' } })
    .input(SnippetId)
    .output(Snippet)
    .query(async ({ input }) => (await snippetById(input.id)) ?? Promise.reject(notFound())),

  /** The stored highlighted document (the highlight view; not a REST path of the spec). */
  highlighted: publicProcedure
    .input(SnippetId)
    .output(z.string())
    .query(async ({ input }) => {
      return (await highlightedOf(input.id)) ?? Promise.reject(notFound());
    }),

  create: authedProcedure
    .meta({ name: 'snippet-list', openapi: { method: 'POST', path: '/snippets/', tags: TAGS, summary: 'Create a snippet', protect: true, successDescription: 'Created' } })
    .input(SnippetFields)
    .output(Snippet)
    .mutation(async ({ ctx, input }) => {
      // The owner always comes from the context, never from input.
      const row = await retrying(ctx, 'create', () => createSnippet(definedOnly(input), ctx.user.id));
      return toSnippet({ ...row.get(), owner: ctx.user.username });
    }),

  update: ownSnippetProcedure
    .meta({ name: 'snippet-detail', openapi: { method: 'PUT', path: '/snippets/{id}/', tags: TAGS, summary: 'Replace a snippet (owner only)', protect: true } })
    .input(SnippetUpdate)
    .output(Snippet)
    .mutation(async ({ ctx, input }) => {
      const { id: _id, ...fields } = input;
      await retrying(ctx, 'update', () => updateSnippet(ctx.snippet, definedOnly(fields)));
      return toSnippet({ ...ctx.snippet.get(), owner: ctx.user.username });
    }),

  delete: ownSnippetProcedure
    .meta({ name: 'snippet-detail', openapi: { method: 'DELETE', path: '/snippets/{id}/', tags: TAGS, summary: 'Delete a snippet (owner only)', protect: true, successDescription: 'No Content' } })
    .input(SnippetId)
    .output(z.void())
    .mutation(async ({ ctx }) => {
      await retrying(ctx, 'delete', () => deleteSnippet(ctx.snippet));
    }),
});

/** A snippet write, run again when it lost a deadlock or (Galera) its certification; each retry is a warn record. */
function retrying<T>(ctx: Context, write: string, work: () => Promise<T>): Promise<T> {
  return retryConflicts(work, ({ attempt, pauseMs, err }) => ctx.log.warn({ err, write, attempt, pauseMs }, `snippet ${write} lost a write conflict (deadlock or certification); retrying`));
}

/** Drops keys whose value is undefined, so an omitted field keeps its default or stored value; required keys stay required. */
function definedOnly<T extends object>(obj: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as { [K in keyof T]: Exclude<T[K], undefined> };
}
