// Field schemas shared by the snippet and user shapes: strings counted in characters, booleans as DRF reads them.
import { z } from 'zod';
import { NO_NULL_CHARACTERS, NOT_A_BOOLEAN, NOT_A_STRING, NOT_BLANK, NOT_NULL, REQUIRED, tooLong } from './messages';

const missingOr = (other: string) => (iss: { input?: unknown }) =>
  iss.input === undefined ? REQUIRED : iss.input === null ? NOT_NULL : other;

/** Length in Unicode code points, as the spec counts characters (an emoji is one). */
export function charLength(s: string): number {
  let surrogatePairs = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) surrogatePairs++;
  }
  return s.length - surrogatePairs;
}

/** A string of at most `max` characters; `blank: false` also refuses whitespace-only input. */
export function text(max: number, { blank }: { blank: boolean }) {
  return (
    z
      .string({ error: missingOr(NOT_A_STRING) })
      // Lone surrogates cannot be stored as UTF-8 (MySQL would refuse the row).
      .refine((s) => s.isWellFormed(), { error: NOT_A_STRING, abort: true })
      .refine((s) => !s.includes('\u0000'), { error: NO_NULL_CHARACTERS, abort: true })
      .refine((s) => blank || s.trim() !== '', { error: NOT_BLANK, abort: true })
      .refine((s) => charLength(s) <= max, { error: tooLong(max) })
  );
}

const TRUE_VALUES = new Set<unknown>([
  't',
  'T',
  'y',
  'Y',
  'yes',
  'Yes',
  'YES',
  'true',
  'True',
  'TRUE',
  'on',
  'On',
  'ON',
  '1',
  1,
  true,
]);
const FALSE_VALUES = new Set<unknown>([
  'f',
  'F',
  'n',
  'N',
  'no',
  'No',
  'NO',
  'false',
  'False',
  'FALSE',
  'off',
  'Off',
  'OFF',
  '0',
  0,
  false,
]);

/**
 * A boolean from JSON or a form (`true/false/True/False/1/0/on/off`…). A preprocess, not
 * z.coerce: trpc-to-openapi coerces plain z.boolean() with JS truthiness ("false" -> true).
 */
export const booleanField = z.preprocess(
  (v) => (TRUE_VALUES.has(v) ? true : FALSE_VALUES.has(v) ? false : v),
  z.boolean({ error: missingOr(NOT_A_BOOLEAN) }),
);

/** Digits (a path's or a query string's) as their number; anything else as it came, for the schema to judge. */
const digitsAsNumber = (v: unknown) => (typeof v === 'string' && /^[0-9]+$/.test(v) ? Number(v) : v);

/** A primary key: digits in a path, an integer in JSON; one too large for any row is simply not found (404, not 400). */
export const pk = z.preprocess(digitsAsNumber, z.number().nonnegative().refine(Number.isInteger));

/** The most rows a page of a list may ask for (`?limit=N`). */
export const MAX_PAGE = 1000;

/** A list's `?limit=N`: digits in a query string, an integer in JSON, from 1 to MAX_PAGE. */
export const pageLimit = z.preprocess(
  digitsAsNumber,
  z
    .number({ error: 'A valid integer is required.' })
    .int()
    .min(1)
    .max(MAX_PAGE, `Ensure this value is less than or equal to ${MAX_PAGE}.`),
);

/** A choice among `isValid` names, refused with DRF's "is not a valid choice." */
export function choice(isValid: (name: string) => boolean, notAChoice: (v: unknown) => string) {
  return z
    .string({
      error: (iss) => (iss.input === undefined ? REQUIRED : iss.input === null ? NOT_NULL : notAChoice(iss.input)),
    })
    .refine(isValid, { error: (iss) => notAChoice(iss.input) });
}
