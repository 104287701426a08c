// A search term of three characters or more on SQLite. The index (migration 0016-search-detail-none) keeps, for each
// trigram, only the snippets holding it (FTS5 `detail=none`: no positions), a seventh of the size with positions, but it
// answers no phrase: a term is asked as the AND of its distinct trigrams, and each row the index finds is checked for
// the whole term (docs/benchmarks.md, "SQLite's search index without positions"). A long phrase of a few repeated
// trigrams (`retretret…`, 1,000 characters) is then 3 trigrams, not a phrase checked position by position.
// https://sqlite.org/fts5.html#the_trigram_tokenizer ("full-text queries may not contain any tokens longer than 3
// unicode characters" with detail=none or column)
import { isAscii, rarity } from '../search';

/**
 * The trigrams of a term asked of the index at most: its likely rarest (rarity, src/store/search.ts). Each trigram asked
 * reads its whole list of snippets, and the common ones are the longest: at 400,000 snippets the 12 trigrams of
 * `zq_rare_marker` took 2.26 ms, its 3 rarest 0.25 ms (docs/search.md, "The rare term at 400,000 snippets on SQLite").
 * Fewer trigrams find more candidates, never fewer: each is checked for the whole term (termCheck).
 */
const MAX_TRIGRAMS = 4;

const chars = (term: string) => [...term];

/** An FTS5 string: the trigram between double quotes, each of its own doubled, so no character is FTS5 syntax. */
const ftsString = (trigram: string) => `"${trigram.replaceAll('"', '""')}"`;

/**
 * The FTS5 query that every snippet holding `term` (3 characters or more) matches: the AND of up to MAX_TRIGRAMS of
 * its distinct trigrams, the likely rarest (by their lowered characters; among equals the first in the term), rarest
 * first (FTS5 folds case in the query as in the index, so `Ret` and `ret` are one). A superset of the term's
 * snippets: each is checked with termCheck(term).
 */
export function trigramQuery(term: string): string {
  const cs = chars(term);
  const seen = new Map<string, string>();
  for (let i = 0; i + 3 <= cs.length; i++) {
    const trigram = cs.slice(i, i + 3).join('');
    const folded = trigram.toLowerCase();
    if (!seen.has(folded)) seen.set(folded, trigram);
  }
  const rarityOf = (trigram: string) => rarity(Array.from(trigram.toLowerCase(), (ch) => ch.codePointAt(0)!));
  // A stable sort: trigrams equally rare keep the term's order.
  const picked = [...seen.values()].sort((a, b) => rarityOf(b) - rarityOf(a)).slice(0, MAX_TRIGRAMS);
  return picked.map(ftsString).join(' AND ');
}

/** A LIKE pattern for `term` anywhere in a text, its `%`, `_` and `\` taken literally (ESCAPE '\'). */
const likeOf = (term: string) => `%${term.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

/**
 * The longest term checked with LIKE. LIKE tries the pattern at every position of the text, character by character:
 * on a text made to almost match at each (`aaaaaab` over and over, 2 KB), 25 µs a row for 8 characters, 29 for 16 and
 * 48 for 32, where instr() in lower() takes 9 to 11 whatever the length (docs/search.md, "Two common terms, walked by
 * the index").
 */
export const LIKE_MAX = 16;

/**
 * The check that a row holds `term` in its title or code, ignoring case as globOf does. An ASCII term of at most
 * LIKE_MAX characters is looked for with LIKE, which ignores the case of ASCII letters, all such a term can match
 * (https://sqlite.org/lang_expr.html#like): on code, 2.3 times as fast as instr() in the text's lower(), which copies
 * the text first (docs/search.md, "Two common terms, walked by the index"); a longer one with instr() in lower(), whose
 * cost does not grow with the term's length; any other with a GLOB of character sets (`*[rR][eE]…*`), which tries the
 * pattern at every position.
 */
export function termCheck(term: string): { where: string; params: string[] } {
  if (isAscii(term) && term.length <= LIKE_MAX) {
    const like = likeOf(term);
    return { where: "(s.title LIKE ? ESCAPE '\\' OR s.code LIKE ? ESCAPE '\\')", params: [like, like] };
  }
  if (isAscii(term)) {
    const lower = term.toLowerCase();
    return { where: '(instr(lower(s.title), ?) > 0 OR instr(lower(s.code), ?) > 0)', params: [lower, lower] };
  }
  return { where: '(s.title GLOB ? OR s.code GLOB ?)', params: [globOf(term), globOf(term)] };
}

/**
 * A GLOB pattern that holds where the term is a substring, ignoring case: each cased character as a set of its
 * spellings (`[rR]`), GLOB's own `*`, `?` and `[` as one-character sets, the rest as they are. The spellings are
 * JavaScript's lower and upper case, as for short terms (src/store/sqlite/search.ts spellingsCheck).
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
