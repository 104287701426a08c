// The revision shapes (docs/api.md "History"): a revision's representation, the paths' inputs, a page of the list.
import { z } from 'zod';
import { MAX_PAGE, pageLimit, pk } from '../schemas/fields';
import { representationObject } from '../schemas/from-table';
import { SNIPPET_TABLE } from '../schemas/snippet-table';
import { SnippetId } from './schema';

/** A revision number in a path: digits, from 1 (the route matches digits only; 0 names none). */
const revisionNumber = pk;

/** The saved fields, as the snippet's representation types them. */
const { id: _id, owner: _owner, ...savedFields } = representationObject(SNIPPET_TABLE).shape;

export const Revision = z.object({
  revision: z.number().int(),
  saved: z.string().describe('When it was saved (ISO 8601, UTC).'),
  ...savedFields,
});
export type Revision = z.infer<typeof Revision>;

export const RevisionPage = z.object({ items: z.array(Revision), next: z.string().optional() });
export type RevisionPage = z.infer<typeof RevisionPage>;

/** The list's paging, as the snippet list's: `?limit=N&cursor=…`, the cursor from the previous page's Link. */
export const RevisionListQuery = SnippetId.extend({
  limit: pageLimit.optional(),
  cursor: z.string().max(200).optional(),
});

export const RevisionId = SnippetId.extend({ n: revisionNumber });
export type RevisionId = z.infer<typeof RevisionId>;

/** `?from=m`: the revision to diff from (by default the one before). */
export const DiffQuery = RevisionId.extend({
  from: z
    .preprocess(
      (v) => (typeof v === 'string' && /^[0-9]+$/.test(v) ? Number(v) : v),
      z.number({ error: 'A valid integer is required.' }).int().min(0),
    )
    .optional(),
});

/** `?ids=3,1,2`: the snippets whose last saved times a list shows, a page's worth at most (MAX_PAGE); none without. */
export const SavedTimesQuery = z.object({
  ids: z
    .string()
    .regex(
      new RegExp(`^([0-9]{1,9}(,[0-9]{1,9}){0,${MAX_PAGE - 1}})?$`),
      `Enter up to ${MAX_PAGE} snippet ids, separated by commas.`,
    )
    .optional(),
});

/** When each snippet of the query that exists was last saved: its latest revision's time. */
export const SavedTimes = z.object({
  items: z.array(z.object({ id: z.number().int(), saved: Revision.shape.saved })),
});
export type SavedTimes = z.infer<typeof SavedTimes>;

/** If-Match (RFC 9110 §13.1.1) as the writes take it: the header's value, a list of entity tags or `*`. */
export const IfMatch = z.object({ ifMatch: z.string().max(8192).optional() });
