// The check that a row holds a search term on MySQL/MariaDB: the term in the lowered title or code, which is what a
// search means there (docs/api.md, "Finding snippets"). LOWER() of 2 KB of code costs about 15 µs a row on MariaDB
// 10.11, and a page of two common terms (`return self`, no index word: docs/search.md) runs it on every row it
// examines; a case-insensitive REGEXP of the term finds the same rows and some more in 7 µs, so it goes first and
// LOWER() runs only on the rows it lets through (docs/search.md, "A term looked for before it is lowered").
import { isAscii } from '../search';

/** The lowered match: the answer, whatever goes before it. */
const LOWERED = '(INSTR(LOWER(s.title), LOWER(?)) > 0 OR INSTR(LOWER(s.code), LOWER(?)) > 0)';

/** PCRE's and ICU's characters with a meaning in a pattern, each written with a backslash to stand for itself. */
const SPECIAL = /[\\^$.|?*+()[\]{}]/g;

/**
 * The longest term looked for with a pattern first. A pattern is tried at every position of the text: on a text made
 * to almost match at each (`aaa…ab` over and over, 2 KB), 78 µs a row for 16 characters and 117 to 131 for 32, where
 * the lowered match takes 18 to 20 (and 176 µs a row for its own worst, a 1,000-character term: docs/search.md, "A
 * term looked for before it is lowered").
 */
export const PATTERN_MAX = 32;

/**
 * A pattern that every text whose LOWER() holds `term` matches, or undefined when there is none to trust or it could
 * cost more than the lowered match: a term of at most PATTERN_MAX ASCII characters other than `i` and `I`, caseless
 * (`(?i)`, PCRE2 on MariaDB, ICU on MySQL 8: both fold case by Unicode's case folding). The only characters LOWER()
 * turns into ASCII are A–Z, `İ` (U+0130, to `i`) and `K` (the Kelvin sign, to `k`); a caseless `k` matches the Kelvin
 * sign, a caseless `i` not `İ` (checked: test/src/store/mysql-term-check.test.ts). A pattern may match more (`ſ`, the
 * long s, for `s`): LOWER() decides.
 */
export function caselessPattern(term: string): string | undefined {
  if (!isAscii(term) || term.length > PATTERN_MAX || /i/i.test(term)) return undefined;
  return `(?i)${term.replace(SPECIAL, (ch) => `\\${ch}`)}`;
}

/** The SQL that a row of `snippets s` holds `term`, and its parameters. */
export function termCheck(term: string): { where: string; params: string[] } {
  const pattern = caselessPattern(term);
  if (pattern === undefined) return { where: LOWERED, params: [term, term] };
  return {
    where: `((s.title REGEXP ? OR s.code REGEXP ?) AND ${LOWERED})`,
    params: [pattern, pattern, term, term],
  };
}
