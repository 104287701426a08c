// What a snippet list's search hands the list, on every engine (each engine's store writes its own SQL for it).

/**
 * A search text split into its terms once (src/snippets/query.ts parseSearch), and the terms sorted once by what can
 * answer them: `long` (three code points or more) a trigram index, `short` a substring check alone. The list's
 * procedure splits it, and the selection, the cursor's key and the engine take this value.
 */
export interface SearchTerms {
  all: readonly string[];
  long: readonly string[];
  short: readonly string[];
}

/**
 * Whether every character of a text is ASCII: the only characters whose case SQLite's LIKE and lower() fold, and text
 * that MySQL/MariaDB lowers as JavaScript does (its only letters to lower are A–Z), so no statement need lower it.
 */
// eslint-disable-next-line no-control-regex
export const isAscii = (text: string) => /^[\x00-\x7f]*$/.test(text);

/** A condition on `snippets s` with its parameters. */
export interface Condition {
  where: string;
  params: unknown[];
}

/** Where a page is read: the list's conditions (its position included) and its direction. */
export interface Bounds {
  where: string[];
  params: unknown[];
  descending: boolean;
}

/**
 * A search index that finds each page's matches itself: the ids of the first `wanted` snippets within `bounds`, in
 * list order, that hold every term, the search's checks already run on them (the page runs none again).
 */
export interface SearchIndexUse {
  page(bounds: Bounds, wanted: number): Promise<Condition>;
}

/**
 * The search's conditions on `snippets s`: `where` the cheap ones (the index's ids), `check` the costly ones (a
 * substring looked for in the text), run only on the rows a page examines (src/store/snippets/scan-window.ts); or,
 * when it has one, the index that finds each page's checked matches.
 */
export interface SearchSql {
  where: string[];
  params: unknown[];
  check: string[];
  checkParams: unknown[];
  index?: SearchIndexUse;
}

/**
 * Characters of code and prose from the most frequent down (measured on bench/fixtures): a text of rarer characters
 * is likely found in fewer snippets.
 */
export const FREQUENT = ' etnrsaoilcd\nupm_.f(),h=g;b"\'y:kv-wx/{}[]0*1>2TSEAR#<NICLOPDMF+&3|4!5$@';

/** How rare a text of `chars` (code points) likely is: the higher, the rarer (a character not in FREQUENT counts most). */
export function rarity(chars: readonly number[]): number {
  return chars.reduce((sum, cp) => {
    const at = FREQUENT.indexOf(String.fromCodePoint(cp));
    return sum + (at < 0 ? FREQUENT.length * 2 : at);
  }, 0);
}

/**
 * The terms, the likely rarest (of lowered characters) first: a page checks them in this order, and a row stops at
 * the first it lacks (`return self`: `self` is in fewer snippets, and `return`'s check of 2 KB of lowered code then
 * runs on those alone; docs/search.md, "Two common terms").
 */
export function rarerFirst(terms: readonly string[]): string[] {
  const of = (term: string) => rarity(Array.from(term.toLowerCase(), (ch) => ch.codePointAt(0)!));
  return [...terms].sort((a, b) => of(b) - of(a));
}
