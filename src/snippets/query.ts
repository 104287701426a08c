// The list's filters (`owner`, `language`, `created_after`, `created_before`, `search`, `ordering`): their zod fields,
// DRF's and django-filter's messages, the search text split into terms, and the key a cursor is bound to.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { isLanguage } from '../highlight';
import { charLength, text } from '../schemas/fields';
import { NOT_A_STRING } from '../schemas/messages';
import type { SearchTerms } from '../store/search';

export const MAX_SEARCH = 1000;
export const MAX_TERMS = 20;
export const ORDERINGS = ['created', '-created'] as const;
export type Ordering = (typeof ORDERINGS)[number];

/** django-filter's ChoiceFilter (Django's ChoiceField) wording, unlike a serializer's `"x" is not a valid choice.` */
export const selectAValidChoice = (value: unknown) =>
  `Select a valid choice. ${String(value)} is not one of the available choices.`;
export const INVALID_DATE_TIME = 'Enter a valid date/time.';
export const tooManyTerms = (max: number) => `Ensure this field has no more than ${max} terms.`;

/** An empty value is no filter, as django-filter reads a form left blank (`?owner=&search=`). */
const blankIsAbsent = <T extends z.ZodType>(schema: T, description: string) =>
  z.preprocess((v) => (v === '' ? undefined : v), schema.optional()).meta({ description });

/** A date (`2026-11-24`, midnight UTC) or a date-time (`2026-11-24T11:30`, seconds, fraction and zone optional; UTC without one). */
const ISO_8601 = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** The instant an ISO 8601 date or date-time names, or undefined when it names none (month 13, February 30…). */
export function parseInstant(value: string): Date | undefined {
  const m = ISO_8601.exec(value);
  if (!m) return undefined;
  const [, y, mo, d, h = '00', mi = '00', s = '00', frac = '0', zone = 'Z'] = m as unknown as string[];
  const fields = [Number(y), Number(mo), Number(d), Number(h), Number(mi), Number(s)];
  const local = new Date(Date.UTC(fields[0]!, fields[1]! - 1, fields[2]!, fields[3]!, fields[4]!, fields[5]!));
  // Date.UTC rolls February 30 over into March: a date that does not exist changes on the way back.
  const back = [
    local.getUTCFullYear(),
    local.getUTCMonth() + 1,
    local.getUTCDate(),
    local.getUTCHours(),
    local.getUTCMinutes(),
    local.getUTCSeconds(),
  ];
  if (back.some((v, i) => v !== fields[i]) || Number(y) < 1) return undefined;
  const offset =
    zone === 'Z' ? 0 : (zone.startsWith('-') ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(-2)));
  if (Math.abs(offset) >= 24 * 60) return undefined;
  return new Date(local.getTime() + Number(`0.${frac}`) * 1000 - offset * 60_000);
}

const instant = z
  .string({ error: INVALID_DATE_TIME })
  .refine((v) => parseInstant(v) !== undefined, { error: INVALID_DATE_TIME });

/**
 * The search text as terms, as DRF's SearchFilter splits it: on whitespace, a double-quoted phrase being one term
 * (without its quotes). Any other quote is an ordinary character of its term.
 */
export function searchTerms(search: string | undefined): string[] {
  if (!search) return [];
  // A phrase with nothing but blanks in it (`""`) is the literal quotes.
  return [...search.matchAll(/"([^"]*)"(?=\s|$)|\S+/gu)].map((m) => (m[1]?.trim() ? m[1] : m[0]));
}

/** The search text split once, its terms sorted by length (SearchTerms): what a list's procedure passes down. */
export function parseSearch(search: string | undefined): SearchTerms {
  const all = searchTerms(search);
  return { all, long: all.filter((t) => !isShortTerm(t)), short: all.filter(isShortTerm) };
}

const search = text(MAX_SEARCH, { blank: true }).refine((s) => searchTerms(s).length <= MAX_TERMS, {
  error: tooManyTerms(MAX_TERMS),
});

export const SNIPPET_FILTER_FIELDS = {
  owner: blankIsAbsent(
    z.string({ error: NOT_A_STRING }).refine((s) => s.isWellFormed(), { error: NOT_A_STRING }),
    "Only this user's snippets (a username; an unknown one lists nothing).",
  ),
  language: blankIsAbsent(
    z
      .string({ error: (iss) => selectAValidChoice(iss.input) })
      .refine(isLanguage, { error: (iss) => selectAValidChoice(iss.input) }),
    'Only snippets in this language, one of the choices OPTIONS /snippets/ lists.',
  ),
  created_after: blankIsAbsent(
    instant,
    'Only snippets created at or after this instant: an ISO 8601 date (midnight UTC) or date-time (UTC without a zone).',
  ),
  created_before: blankIsAbsent(
    instant,
    'Only snippets created strictly before this instant, written as created_after.',
  ),
  search: blankIsAbsent(
    search,
    `Terms separated by blanks, a double-quoted phrase being one term; a snippet matches when every term is a substring of its title or code, ignoring case. Every character is literal. At most ${MAX_SEARCH} characters and ${MAX_TERMS} terms.`,
  ),
  ordering: blankIsAbsent(
    z.enum(ORDERINGS, { error: (iss) => selectAValidChoice(iss.input) }),
    '`created` (the default): oldest first; `-created`: newest first. A cursor is bound to its filters and ordering.',
  ),
};

/** The filters of a list, as the procedure's input holds them. */
export interface SnippetFilters {
  owner?: string;
  language?: string;
  created_after?: string;
  created_before?: string;
  search?: string;
  ordering?: Ordering;
}

/** What the filters select, normalized: two spellings of one query (`+00:00` and `Z`, extra spaces) are one key. */
function normalized(filters: SnippetFilters, terms: readonly string[]): Record<string, unknown> {
  const entries: [string, unknown][] = [
    ['owner', filters.owner],
    ['language', filters.language],
    ['created_after', filters.created_after && parseInstant(filters.created_after)?.toISOString()],
    ['created_before', filters.created_before && parseInstant(filters.created_before)?.toISOString()],
    ['search', terms.length ? terms : undefined],
    ['ordering', filters.ordering === '-created' ? '-created' : undefined],
  ];
  return Object.fromEntries(entries.filter(([, v]) => v !== undefined && v !== ''));
}

/**
 * The key a cursor carries so that it is only read with the filters and ordering it was made for; undefined for the
 * plain list, whose cursors stay as they were before filters existed.
 */
export function filterKey(
  filters: SnippetFilters,
  terms: readonly string[] = searchTerms(filters.search),
): string | undefined {
  const norm = normalized(filters, terms);
  if (!Object.keys(norm).length) return undefined;
  return createHash('sha256').update(JSON.stringify(norm)).digest('base64url').slice(0, 16);
}

/** A term of fewer than three characters (code points) cannot use a trigram index. */
export const isShortTerm = (term: string) => charLength(term) < 3;

export const WRONG_CURSOR = 'Invalid cursor: it was made for other filters or another ordering.';

/**
 * The filter key a cursor was made with: undefined when it has none (the plain list's), null when it is no cursor of
 * ours at all (that one stays the paging's own 404, as DRF answers it).
 */
export function keyOfCursor(cursor: string): string | undefined | null {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (!Array.isArray(parsed)) return null;
    return typeof parsed[2] === 'string' ? parsed[2] : undefined;
  } catch {
    return null;
  }
}

/** A cursor replayed with other filters or another ordering would page a different list from a wrong place: a 400. */
export function cursorMatchesFilters(query: SnippetFilters & { cursor?: string }, ctx: z.RefinementCtx): void {
  if (!query.cursor) return;
  const key = keyOfCursor(query.cursor);
  if (key !== null && key !== filterKey(query))
    ctx.addIssue({ code: 'custom', path: ['cursor'], message: WRONG_CURSOR });
}
