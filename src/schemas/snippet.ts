// The snippet shapes, written once: input for create and update, the representation for output.
import { z } from 'zod';
import { isLanguage, isStyle } from '../highlight';
import { booleanField, choice, pk, text } from './fields';
import { notAChoice } from './messages';

export const MAX_CODE = 100000;
export const MAX_TITLE = 100;

export const SnippetFields = z.object({
  title: text(MAX_TITLE, { blank: true }).optional(),
  code: text(MAX_CODE, { blank: false }),
  linenos: booleanField.optional(),
  language: choice(isLanguage, notAChoice).optional(),
  style: choice(isStyle, notAChoice).optional(),
});
export type SnippetFields = z.infer<typeof SnippetFields>;

export const SnippetId = z.object({ id: pk });
export type SnippetId = z.infer<typeof SnippetId>;

/** PUT takes the same fields as POST; an omitted optional field keeps its stored value. */
export const SnippetUpdate = SnippetFields.extend(SnippetId.shape);
export type SnippetUpdate = z.infer<typeof SnippetUpdate>;

/** The representation: exactly these keys, in this order (spec, "Snippet representation"). */
export const Snippet = z.object({
  id: z.number().int(),
  owner: z.string(),
  title: z.string(),
  code: z.string(),
  linenos: z.boolean(),
  language: z.string(),
  style: z.string(),
});
export type Snippet = z.infer<typeof Snippet>;

export const SnippetList = z.array(Snippet);

/** A page of the list: its snippets, and the cursor of the next page when there is one (absent on the last). */
export const SnippetPage = z.object({ items: SnippetList, next: z.string().optional() });
export type SnippetPage = z.infer<typeof SnippetPage>;

export const MAX_PAGE = 1000;

/** Optional keyset paging of the list: `?limit=N&cursor=…` (the cursor comes from the previous page's Link). */
export const SnippetListQuery = z
  .object({
    limit: z.preprocess(
      (v) => (typeof v === 'string' && /^[0-9]+$/.test(v) ? Number(v) : v),
      z.number({ error: 'A valid integer is required.' }).int().min(1).max(MAX_PAGE, `Ensure this value is less than or equal to ${MAX_PAGE}.`),
    ).optional(),
    cursor: z.string().max(200).optional(),
  })
  .optional();
export type SnippetListQuery = z.infer<typeof SnippetListQuery>;
