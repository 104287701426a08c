// Snippet procedures: list and get for anyone, create for the authenticated, update, delete and restore for the owner; the history (history-router.ts) for anyone.
import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import { InvalidCursor, toSnippet, type ListQuery, type WriteRefused } from '../store/snippets';
import { DEFAULT_PAGE } from '../store/page-budget';
import { notFound } from '../errors';
import { clientOf } from '../expensive';
import { preconditionFailed } from './preconditions';
import { IfMatch, RevisionId } from './revision';
import { revisionProcedures } from './history-router';
import { assertOwner, mayWriteSnippet } from './permissions';
import {
  PreviousPage,
  Snippet,
  SnippetFields,
  SnippetId,
  SnippetListQuery,
  SnippetPage,
  SnippetUpdate,
} from './schema';
import { retryConflicts } from '../store/retry';
import type { SearchTerms } from '../store/search';
import { parseSearch } from './query';
import type { Context } from '../context';
import { authedProcedure, publicProcedure, router } from '../trpc';

const TAGS = ['snippets'];

/** Loads the snippet named by the raw input's id and checks the owner rule before the body is validated, as DRF does. */
const ownSnippetProcedure = authedProcedure.use(async ({ ctx, getRawInput, next }) => {
  const parsed = SnippetId.safeParse(await getRawInput());
  if (!parsed.success) throw notFound();
  const snippet = await ctx.runtime.store.snippets.forWrite(parsed.data.id);
  if (!snippet) throw notFound();
  assertOwner(snippet, ctx.user);
  return next({ ctx: { snippet } });
});

/**
 * A list's query with its search terms split once (`ctx.terms`); a search is an expensive request (src/expensive.ts),
 * a list without one is not.
 */
const listProcedure = publicProcedure.input(SnippetListQuery).use(({ ctx, input, next }) => {
  const terms = parseSearch(input?.search);
  const go = () => next({ ctx: { terms } });
  return terms.all.length ? ctx.runtime.expensive.run(clientOf(ctx), go) : go();
});

export const snippetsRouter = router({
  list: listProcedure
    .meta({
      name: 'snippet-list',
      paged: true,
      openapi: {
        method: 'GET',
        path: '/snippets/',
        tags: TAGS,
        summary: 'List snippets, oldest first; filtered and searched on request',
      },
    })
    .output(SnippetPage)
    .query(async ({ ctx, input }) => {
      // Without a limit, the first page of DEFAULT_PAGE (/trpc): the REST facade streams a whole list page after page.
      try {
        return await ctx.runtime.store.snippets.page(
          listQuery(ctx, input),
          input?.limit ?? DEFAULT_PAGE,
          input?.cursor,
        );
      } catch (err) {
        if (err instanceof InvalidCursor) throw new TRPCError({ code: 'NOT_FOUND', message: err.message });
        throw err;
      }
    }),

  get: publicProcedure
    .meta({
      name: 'snippet-detail',
      openapi: { method: 'GET', path: '/snippets/{id}/', tags: TAGS, summary: 'Get a snippet' },
    })
    .input(SnippetId)
    .output(Snippet)
    .query(async ({ ctx, input }) => {
      const found = await ctx.runtime.store.snippets.byId(input.id);
      if (!found) throw notFound();
      ctx.etag?.(found.revision);
      return found.snippet;
    }),

  /** The stored highlighted document (the highlight view; not a REST path of the spec). */
  highlighted: publicProcedure
    .input(SnippetId)
    .output(z.string())
    .query(async ({ ctx, input }) => {
      return (await ctx.runtime.store.snippets.highlighted(input.id)) ?? Promise.reject(notFound());
    }),

  /**
   * The cursor of the page before the one the list query's `cursor` starts, in the same filtered list (the browsable
   * list's Previous link; not a REST path).
   */
  previousPage: listProcedure.output(PreviousPage).query(async ({ ctx, input }) => {
    if (!input?.limit || !input.cursor) return null;
    try {
      return (
        (await ctx.runtime.store.snippets.previousCursor(listQuery(ctx, input), input.limit, input.cursor)) ?? null
      );
    } catch (err) {
      if (err instanceof InvalidCursor) return null;
      throw err;
    }
  }),

  /** Whether the requester may change the snippet (OPTIONS' actions, the pages' forms; not a REST path): false when it does not exist. */
  writable: publicProcedure
    .input(SnippetId)
    .output(z.boolean())
    .query(({ ctx, input }) => mayWriteSnippet(ctx.runtime.store.snippets, ctx.user, input.id)),

  create: authedProcedure
    .meta({
      name: 'snippet-list',
      openapi: {
        method: 'POST',
        path: '/snippets/',
        tags: TAGS,
        summary: 'Create a snippet',
        protect: true,
        successDescription: 'Created',
      },
    })
    .input(SnippetFields)
    .output(Snippet)
    .mutation(async ({ ctx, input }) => {
      // The owner always comes from the context, never from input.
      const row = await retrying(ctx, 'create', () =>
        ctx.runtime.store.snippets.create(definedOnly(input), ctx.user, ctx.runtime.now),
      );
      ctx.etag?.(row.revision);
      return toSnippet({ ...row, owner: ctx.user.username });
    }),

  update: ownSnippetProcedure
    .meta({
      name: 'snippet-detail',
      openapi: {
        method: 'PUT',
        path: '/snippets/{id}/',
        tags: TAGS,
        summary: 'Replace a snippet (owner only)',
        protect: true,
      },
    })
    .input(SnippetUpdate.extend(IfMatch.shape))
    .output(Snippet)
    .mutation(async ({ ctx, input }) => {
      const { id: _id, ifMatch, ...fields } = input;
      const saved = written(
        await retrying(ctx, 'update', () =>
          ctx.runtime.store.snippets.update(ctx.snippet, definedOnly(fields), ifMatch, ctx.runtime.now),
        ),
      );
      ctx.etag?.(saved.revision);
      return toSnippet({ ...saved, owner: ctx.user.username });
    }),

  delete: ownSnippetProcedure
    .meta({
      name: 'snippet-detail',
      openapi: {
        method: 'DELETE',
        path: '/snippets/{id}/',
        tags: TAGS,
        summary: 'Delete a snippet (owner only)',
        protect: true,
        successDescription: 'No Content',
      },
    })
    .input(SnippetId.extend(IfMatch.shape))
    .output(z.void())
    .mutation(async ({ ctx, input }) => {
      written(await retrying(ctx, 'delete', () => ctx.runtime.store.snippets.delete(ctx.snippet, input.ifMatch)));
    }),

  /** The snippet takes revision n's fields again, as a new revision (docs/api.md "History"). */
  restore: ownSnippetProcedure
    .meta({
      name: 'snippet-revision-restore',
      status: 200,
      bodyless: true,
      openapi: {
        method: 'POST',
        path: '/snippets/{id}/revisions/{n}/restore/',
        tags: TAGS,
        summary: 'Restore a revision as a new one (owner only)',
        protect: true,
      },
    })
    .input(RevisionId.extend(IfMatch.shape))
    .output(Snippet)
    .mutation(async ({ ctx, input }) => {
      const revision = await ctx.runtime.store.snippets.revision(input.id, input.n);
      if (!revision) throw notFound();
      const { revision: _n, saved: _saved, ...fields } = revision;
      const saved = written(
        await retrying(ctx, 'restore', () =>
          ctx.runtime.store.snippets.update(ctx.snippet, fields, input.ifMatch, ctx.runtime.now),
        ),
      );
      ctx.etag?.(saved.revision);
      return toSnippet({ ...saved, owner: ctx.user.username });
    }),

  ...revisionProcedures,
});

/** The list the query asks for, its terms as the list procedure split them. */
function listQuery(ctx: Context & { terms: SearchTerms }, input: SnippetListQuery): ListQuery {
  return { filters: input ?? {}, terms: ctx.terms, scanRows: ctx.runtime.config.SEARCH_SCAN_ROWS };
}

/** A write's outcome, or the refusal it met: If-Match no longer matching (412), the snippet gone meanwhile (404). */
function written<T>(outcome: T | WriteRefused): T {
  if (outcome === 'precondition') throw preconditionFailed();
  if (outcome === 'gone') throw notFound();
  return outcome;
}

/** A snippet write, run again when it lost a deadlock or (Galera) its certification; each retry is a warn record. */
function retrying<T>(ctx: Context, write: string, work: () => Promise<T>): Promise<T> {
  return retryConflicts(work, ({ attempt, pauseMs, err }) => {
    const message = `snippet ${write} lost a write conflict (deadlock or certification); retrying`;
    ctx.log().warn({ err, write, attempt, pauseMs }, message);
  });
}

/** Drops keys whose value is undefined, so an omitted field keeps its default or stored value; required keys stay required. */
function definedOnly<T extends object>(obj: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as {
    [K in keyof T]: Exclude<T[K], undefined>;
  };
}
