// The bounds of one page of a list: a page holds at most `limit` rows, DEFAULT_PAGE when the caller gives none, and
// stops once its rows reach a budget: PAGE_BYTES of code and titles for snippets and revisions, PAGE_IDS of snippet
// ids for users (docs/api.md "Lists and pages").

/** The rows of a page asked for without `limit` (/trpc; the REST facade streams such a list page after page). */
export const DEFAULT_PAGE = 100;

/**
 * About a megabyte of code and titles a page, in UTF-8 bytes. A page always holds its first row, however large (at
 * most 100,000 characters of code, 400,000 bytes): a page's rows are at most PAGE_BYTES plus one row.
 */
export const PAGE_BYTES = 1024 * 1024;

/** A row's code and title in UTF-8 bytes, read without the text: SQLite's octet_length() (3.43+), MariaDB's OCTET_LENGTH(). */
export const rowBytes = (alias: string) => `OCTET_LENGTH(${alias}.code) + OCTET_LENGTH(${alias}.title)`;

/** The snippet ids a page of users lists at most, beside its first user's (each user's record lists every one of theirs). */
export const PAGE_IDS = 50_000;

/** How many of the rows, in list order, make the page: at most `limit`, at least one, none past `budget` after the first. */
export function rowsWithin(sizes: readonly (number | string)[], limit: number, budget = PAGE_BYTES): number {
  let total = 0;
  let kept = 0;
  for (const size of sizes.slice(0, limit)) {
    total += Number(size);
    if (kept > 0 && total > budget) break;
    kept++;
  }
  return kept;
}
