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

/** A search index condition that depends on the page: `whole` for the list at once, `page` for `wanted` rows within bounds. */
export interface SearchIndexUse {
  whole: Condition;
  page(bounds: Bounds, wanted: number): Promise<Condition>;
}

/**
 * The search's conditions on `snippets s`: `where` the cheap ones (the index's ids), `check` the costly ones (a
 * substring looked for in the text), run only on the rows a page examines (src/store/snippets/scan-window.ts); and the
 * index's condition worked out for each page, when it has one.
 */
export interface SearchSql {
  where: string[];
  params: unknown[];
  check: string[];
  checkParams: unknown[];
  index?: SearchIndexUse;
}
