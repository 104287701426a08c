// The snippet shapes, derived from the field table: input for create and update, the representation for output.
import { z } from 'zod';
import { pageLimit, pk } from '../schemas/fields';
import { inputObject, representationObject } from '../schemas/from-table';
import { SNIPPET_TABLE } from '../schemas/snippet-table';
import { cursorMatchesFilters, SNIPPET_FILTER_FIELDS } from './query';

export const SnippetFields = inputObject(SNIPPET_TABLE);
export type SnippetFields = z.infer<typeof SnippetFields>;

export const SnippetId = z.object({ id: pk });
export type SnippetId = z.infer<typeof SnippetId>;

/** PUT takes the same fields as POST; an omitted optional field keeps its stored value. */
export const SnippetUpdate = SnippetFields.extend(SnippetId.shape);
export type SnippetUpdate = z.infer<typeof SnippetUpdate>;

/** The representation: exactly the table's keys, in its order (spec, "Snippet representation"). */
export const Snippet = representationObject(SNIPPET_TABLE);
export type Snippet = z.infer<typeof Snippet>;

export const SnippetList = z.array(Snippet);

/** A page of the list: its snippets, and the cursor of the next page when there is one (absent on the last). */
export const SnippetPage = z.object({ items: SnippetList, next: z.string().optional() });
export type SnippetPage = z.infer<typeof SnippetPage>;

/**
 * Optional keyset paging of the list: `?limit=N&cursor=…` (the cursor comes from the previous page's Link), and its
 * filters (src/snippets/query.ts), to which a cursor is bound.
 */
export const SnippetListQuery = z
  .object({
    limit: pageLimit.optional(),
    cursor: z.string().max(200).optional(),
    ...SNIPPET_FILTER_FIELDS,
  })
  .superRefine(cursorMatchesFilters)
  .optional();
export type SnippetListQuery = z.infer<typeof SnippetListQuery>;

/** `{}` when the page before is the first (it has no cursor); null when nothing comes before. */
export const PreviousPage = z.object({ cursor: z.string().optional() }).nullable();
