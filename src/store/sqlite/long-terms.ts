// A long search term on SQLite: FTS5 checks a phrase's trigrams position by position, so a long phrase of a few
// repeated trigrams (`retretret…`, 1,000 characters) costs its length times every snippet holding those trigrams
// (2.0 s at 10,800 snippets, its three pieces of 16 characters 18 to 168 ms: docs/api.md "Finding snippets"). Such a
// term is asked of the index by at most three pieces of it, deduplicated, and each row the index finds is checked for
// the whole term with GLOB.

/** Terms up to this many characters (code points) go to the index whole. */
export const INDEXED_CHARS = 16;
/** The pieces of a longer term asked of the index: its first, a middle and its last. */
const PIECES = 3;

const chars = (term: string) => [...term];

export const isLongTerm = (term: string) => chars(term).length > INDEXED_CHARS;

/**
 * The term's pieces the index is asked for: the term itself when short enough; else up to three distinct pieces of
 * INDEXED_CHARS characters (its start, its middle and its end). Every row holding the term holds them all.
 */
export function indexedChunks(term: string): string[] {
  const cs = chars(term);
  if (cs.length <= INDEXED_CHARS) return [term];
  const last = cs.length - INDEXED_CHARS;
  const starts = Array.from({ length: PIECES }, (_, i) => Math.round((last * i) / (PIECES - 1)));
  return [...new Set(starts.map((at) => cs.slice(at, at + INDEXED_CHARS).join('')))];
}

/**
 * A GLOB pattern that holds where the term is a substring, ignoring case: each cased character as a set of its
 * spellings (`[rR]`), GLOB's own `*`, `?` and `[` as one-character sets, the rest as they are. The spellings are
 * JavaScript's lower and upper case, as for short terms (src/snippets/selection.ts caseVariants).
 */
export function globOf(term: string): string {
  const parts = chars(term).map((ch) => {
    const forms = [...new Set([ch, ch.toLowerCase(), ch.toUpperCase()])].filter(
      (f) => chars(f).length === 1 && f.toLowerCase() === ch.toLowerCase(),
    );
    if (forms.length > 1) return `[${forms.join('')}]`;
    return '*?['.includes(ch) ? `[${ch}]` : ch;
  });
  return `*${parts.join('')}*`;
}
