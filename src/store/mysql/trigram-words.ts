// MySQL/MariaDB's search index (src/store/mysql/search-index.ts): the trigrams of lowered text, each written as a short
// alphanumeric word that InnoDB's FULLTEXT parser indexes as it is. A trigram is three code points; its word is a hash
// of them, so two trigrams may share a word: the index then names a few snippets too many, and the substring match
// that verifies every candidate drops them (docs/search.md).
import { FREQUENT, rarity } from '../search';

/**
 * The word characters, 36: lower-case letters and digits. InnoDB lowers a word as it indexes a row, but its bulk build
 * (a table rebuilt: OPTIMIZE, ALTER) keeps the case of a binary column's words: with upper-case letters, four words in
 * five written before a rebuild were no longer found after it (test/src/store/mysql-search-index.test.ts).
 */
const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/**
 * The words' length: three characters (InnoDB's default innodb_ft_min_token_size, 46,656 words), longer when the
 * server indexes no word that short. Past 6 characters the hash's 32 bits are the limit.
 */
export const tokenWidth = (minTokenSize: number) => Math.max(3, Math.min(minTokenSize, 16));

/** How many distinct words of `width` characters there are (at most 2^32, the hash's range). */
const spaceOf = (width: number) => Math.min(ALPHABET.length ** width, 2 ** 32);

/** A 32-bit mix of three code points (Murmur3's finalizer over a multiplicative combination). */
function hash(a: number, b: number, c: number): number {
  let h = Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca77) ^ Math.imul(c, 0xc2b2ae3d);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * InnoDB's default stopwords of 3 to 5 letters (INFORMATION_SCHEMA.INNODB_FT_DEFAULT_STOPWORD). The index is made
 * without stopwords, but a Galera node applying its CREATE may not see that session's setting: no word spells one.
 */
const STOPWORDS = new Set(
  'are com for how the was who und www about from that this what when where will with'.split(' '),
);

/** The word of a number below spaceOf(width), `width` characters. */
function wordOf(n: number, width: number): string {
  let word = '';
  for (let i = 0; i < width; i++) {
    word += ALPHABET[n % ALPHABET.length];
    n = Math.floor(n / ALPHABET.length);
  }
  // A digit makes it a word no stopword list of InnoDB's holds.
  return STOPWORDS.has(word.toLowerCase()) ? `${word.slice(0, -1)}0` : word;
}

/** The word of the trigram (a, b, c), `width` characters. */
export const trigramWord = (a: number, b: number, c: number, width: number) =>
  wordOf(hash(a, b, c) % spaceOf(width), width);

/**
 * The distinct words of each text's trigrams (none crosses from one text into the next), in first-seen order: only
 * the trigrams a search looks up (queryWords), none made of common characters only. Those are in most snippets
 * (`ret`, `urn`, `in `: 38% of the postings of the bench's snippets were of trigrams in 15% or more of them, as
 * Phabricator's Ferret engine leaves out), and each word a row holds is FULLTEXT work at the save's commit. `common`:
 * those too (the design before, measured beside it by bench/search-index-mysql.ts).
 */
export function trigramWords(texts: string[], width: number, common = false): string[] {
  const space = spaceOf(width);
  const words: string[] = [];
  const table = space <= TABLE_SPACE ? tableOf(width, space) : undefined;
  if (!table) {
    const seen = new Set<number>();
    eachTrigram(texts, common, (h) => {
      const n = remainder(h, space);
      if (seen.has(n)) return;
      seen.add(n);
      words.push(wordOf(n, width));
    });
    return words;
  }
  // A Set of the 32-bit hashes, most of them past V8's small integers, took 209 µs for 2 KB of code; the table 54-58
  // (bench/fixtures, 2026-11-27).
  const call = nextCall(table);
  eachTrigram(texts, common, (h) => {
    const n = remainder(h, space);
    if (table.given[n] === call) return;
    table.given[n] = call;
    words.push((table.spellings[n] ??= wordOf(n, width)));
  });
  return words;
}

/** `h mod space` by division: `%` of a number past V8's small integers calls out to fmod, a third of the time. */
const remainder = (h: number, space: number) => h - Math.floor(h / space) * space;

/**
 * Up to this many words (46,656 at width 3), trigramWords keeps a table of the space, made once: which call last gave
 * each word (a word is new to a call when its mark is another call's, so nothing is cleared between calls), and each
 * word's spelling once it was first spelled.
 */
const TABLE_SPACE = 1 << 20;
interface Table {
  given: Uint32Array;
  spellings: string[];
  call: number;
}
const tables = new Map<number, Table>();

function tableOf(width: number, space: number): Table {
  let table = tables.get(width);
  if (!table) tables.set(width, (table = { given: new Uint32Array(space), spellings: [], call: 0 }));
  return table;
}

/** A new call's mark; after 2^32 - 1 calls the marks start again from a cleared table. */
function nextCall(table: Table): number {
  if (table.call === 0xffffffff) {
    table.given.fill(0);
    table.call = 0;
  }
  return ++table.call;
}

/**
 * The distinct 32-bit hashes of each text's trigrams, as trigramWords takes them (none of common characters only,
 * unless `common`): the keys of the side-table design that bench/search-index-mysql.ts measures beside the words.
 */
export function trigramKeys(texts: string[], common = false): number[] {
  const keys = new Set<number>();
  eachTrigram(texts, common, (h) => keys.add(h));
  return [...keys];
}

/** The 32-bit hash of each trigram of each text in turn (none crossing from one text into the next), as trigramWords takes them. */
function eachTrigram(texts: string[], common: boolean, visit: (hash: number) => void): void {
  for (const text of texts) {
    // Code points: a JavaScript string is UTF-16, an emoji two units and one code point.
    let a = -1;
    let b = -1;
    for (let i = 0; i < text.length; i++) {
      const c = text.codePointAt(i)!;
      if (c > 0xffff) i++;
      if (a >= 0 && (common || !isCommon(a) || !isCommon(b) || !isCommon(c))) visit(hash(a, b, c));
      a = b;
      b = c;
    }
  }
}

/** The 32-bit hashes of a term's distinct trigrams, in order (trigramKeys' of a text holding the term include them). */
export function termKeys(term: string): number[] {
  const cps = codePoints(term);
  const keys: number[] = [];
  for (let i = 0; i + 2 < cps.length; i++) keys.push(hash(cps[i]!, cps[i + 1]!, cps[i + 2]!));
  return [...new Set(keys)];
}

/** The code points of a string. */
const codePoints = (text: string) => Array.from(text, (ch) => ch.codePointAt(0)!);

/**
 * The first characters of FREQUENT: a trigram of these only (`ret`, `urn`, `sel`) is in a large share of snippets, and
 * InnoDB reads a FULLTEXT word's whole list (`return`, in 69% of the bench's snippets, took 5 s through the index
 * where reading the list in order finds a page of matches at once: docs/search.md).
 */
const COMMON_CHARACTERS = 20;

/** The code points of the first COMMON_CHARACTERS of FREQUENT. */
const COMMON = new Set(codePoints(FREQUENT.slice(0, COMMON_CHARACTERS)));
/** COMMON as a table of the ASCII code points, where all of them are: one load a character instead of a Set lookup. */
const COMMON_ASCII = Uint8Array.from({ length: 128 }, (_, cp) => (COMMON.has(cp) ? 1 : 0));
const isCommon = (cp: number) => cp < 128 && COMMON_ASCII[cp] === 1;

const likelyRare = (chars: number[]) => !chars.every(isCommon);

/**
 * The words to look a term up by: its `max` likely rarest trigrams' (each a condition on the snippets that hold the
 * term: every trigram of it is in their text), none of them a trigram of common characters only; none for a term made
 * of those (it is looked for without the index). Undefined for a term of fewer than three code points.
 */
export function queryWords(term: string, width: number, max: number): string[] | undefined {
  const cps = codePoints(term);
  if (cps.length < 3) return undefined;
  const trigrams: { word: string; rarity: number }[] = [];
  const seen = new Set<string>();
  for (let i = 0; i + 2 < cps.length; i++) {
    const word = trigramWord(cps[i]!, cps[i + 1]!, cps[i + 2]!, width);
    if (seen.has(word)) continue;
    seen.add(word);
    const chars = cps.slice(i, i + 3);
    if (likelyRare(chars)) trigrams.push({ word, rarity: rarity(chars) });
  }
  return trigrams
    .sort((x, y) => y.rarity - x.rarity)
    .slice(0, max)
    .map((t) => t.word);
}
