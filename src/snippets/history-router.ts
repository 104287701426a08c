// The history of a snippet, for anyone: its revisions, newest first, one of them, and the diff between two
// (docs/api.md "History"). Restoring one is a write, beside update in router.ts.
import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import { notFound } from '../errors';
import { clientOf } from '../expensive';
import {
  DiffQuery,
  Revision,
  RevisionId,
  RevisionListQuery,
  RevisionPage,
  SavedTimes,
  SavedTimesQuery,
} from './revision';
import { publicProcedure } from '../trpc';
import { DEFAULT_PAGE } from '../store/page-budget';

const TAGS = ['snippets'];

export const DIFF_TYPE = 'text/x-diff; charset=utf-8';
export const DIFF_TOO_SLOW =
  'These revisions differ too much to be diffed within the deadline; diff two revisions closer to each other.';

/** The cursor of the list is the number of the last revision of the page before. */
function cursorOf(cursor: string): number {
  if (!/^[0-9]{1,9}$/.test(cursor)) throw new TRPCError({ code: 'NOT_FOUND', message: 'Invalid cursor' });
  return Number(cursor);
}

/** A 400 naming one input field, in the shape of a validation error (the facade's field map). */
function fieldError(field: string, message: string): TRPCError {
  return new TRPCError({
    code: 'BAD_REQUEST',
    message,
    cause: Object.assign(new Error(message), { issues: [{ path: [field], message }] }),
  });
}

/**
 * A diff header line's label: the revision and the fields beside the code that it may change. JSON quoting keeps a
 * title's tabs and line breaks out of the header, which `patch` reads one line at a time.
 */
export function labelOf(revision: Revision | undefined): string {
  if (!revision) return 'no revision';
  return `revision ${revision.revision}, title ${JSON.stringify(revision.title)}, language ${revision.language}`;
}

export const revisionProcedures = {
  revisions: publicProcedure
    .meta({
      name: 'snippet-revisions',
      paged: true,
      openapi: {
        method: 'GET',
        path: '/snippets/{id}/revisions/',
        tags: TAGS,
        summary: "List a snippet's revisions, newest first",
      },
    })
    .input(RevisionListQuery)
    .output(RevisionPage)
    .query(async ({ ctx, input }) => {
      const { snippets } = ctx.runtime.store;
      const before = input.cursor === undefined ? undefined : cursorOf(input.cursor);
      // Without a limit, the first page of DEFAULT_PAGE (/trpc): the REST facade streams a whole list page after page.
      const { items, more } = await snippets.revisions(input.id, before, input.limit ?? DEFAULT_PAGE);
      if (!items.length && (await snippets.ownerId(input.id)) === undefined) throw notFound();
      return { items, next: more ? String(items[items.length - 1]!.revision) : undefined };
    }),

  savedTimes: publicProcedure
    .meta({
      name: 'snippet-saved-times',
      openapi: {
        method: 'GET',
        path: '/snippets/saved/',
        tags: TAGS,
        summary: 'When each of the listed snippets was last saved',
      },
    })
    .input(SavedTimesQuery)
    .output(SavedTimes)
    .query(async ({ ctx, input }) => ({
      items: input.ids
        ? await ctx.runtime.store.snippets.lastSaved([...new Set(input.ids.split(',').map(Number))])
        : [],
    })),

  revision: publicProcedure
    .meta({
      name: 'snippet-revision',
      openapi: {
        method: 'GET',
        path: '/snippets/{id}/revisions/{n}/',
        tags: TAGS,
        summary: 'Get one revision of a snippet',
      },
    })
    .input(RevisionId)
    .output(Revision)
    .query(
      async ({ ctx, input }) =>
        (await ctx.runtime.store.snippets.revision(input.id, input.n)) ?? Promise.reject(notFound()),
    ),

  diff: publicProcedure
    .meta({
      name: 'snippet-revision-diff',
      text: DIFF_TYPE,
      openapi: {
        method: 'GET',
        path: '/snippets/{id}/revisions/{n}/diff/',
        tags: TAGS,
        summary: 'A unified diff of the code from revision n-1 (or ?from=m) to revision n',
        contentTypes: ['text/plain'],
      },
    })
    .input(DiffQuery)
    .output(z.string())
    .use(({ ctx, next }) => ctx.runtime.expensive.run(clientOf(ctx), next))
    .query(async ({ ctx, input }) => {
      const { differ } = ctx.runtime;
      const { snippets } = ctx.runtime.store;
      const to = await snippets.revision(input.id, input.n);
      if (!to) throw notFound();
      // Without ?from=, the revision before n that is kept: n - 1, or an older one when the thinning dropped it.
      const from =
        input.from === undefined
          ? await snippets.revisionBelow(input.id, input.n)
          : input.from > 0
            ? await snippets.revision(input.id, input.from)
            : undefined;
      if (input.from !== undefined && !from)
        throw fieldError('from', `Snippet ${input.id} has no revision ${input.from}.`);
      if ((from?.code ?? '') === to.code) return '';
      const patch = await differ.diff({
        name: `snippet-${input.id}`,
        oldCode: from?.code ?? '',
        newCode: to.code,
        oldLabel: labelOf(from),
        newLabel: labelOf(to),
      });
      if (patch === null) throw new TRPCError({ code: 'UNPROCESSABLE_CONTENT', message: DIFF_TOO_SLOW });
      return patch;
    }),
};
