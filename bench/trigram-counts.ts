// `npx tsx bench/trigram-counts.ts`: how many search words a save would write under each rule for leaving trigrams
// out, over the search benches' snippets (bench/search-seed.ts, BENCH_SEARCH_SNIPPETS, 20,000 by default): every
// trigram of title and code, the rule shipped on MariaDB (none of common characters only: trigramKeys), and those
// found in fewer than a share of the snippets (Phabricator's Ferret leaves out those in 15% or more). A save's index
// work follows the words it writes (docs/search.md, "FTS5's merge and page settings do not move SQLite's writes").
import { snippetRow } from './search-seed';
import { markdownTable } from './table';
import { trigramKeys } from '../src/store/mysql/trigram-words';

const COUNT = Number(process.env.BENCH_SEARCH_SNIPPETS ?? 20000);
const SHARES = [0.5, 0.3, 0.15, 0.05, 0.01];

const lowered = (s: { title: string; code: string }) => ({ title: s.title.toLowerCase(), code: s.code.toLowerCase() });

const docs: number[][] = [];
const shipped: number[] = [];
const snippetsWith = new Map<number, number>();
for (let i = 0; i < COUNT; i++) {
  // Lowered, as the index's words are (src/store/mysql/search-index.ts wordsOf): `Ret` and `ret` are one word.
  const { title, code } = lowered(snippetRow(i));
  const keys = trigramKeys([title, code], true);
  docs.push(keys);
  shipped.push(trigramKeys([title, code]).length);
  for (const k of keys) snippetsWith.set(k, (snippetsWith.get(k) ?? 0) + 1);
}
const all = docs.reduce((sum, keys) => sum + keys.length, 0);
const row = (rule: string, words: number, left: number | string) => [
  rule,
  (words / COUNT).toFixed(0),
  `${((100 * words) / all).toFixed(0)}%`,
  String(left),
];
const rows = [
  row('every trigram', all, 0),
  row(
    'none of common characters only (shipped on MariaDB)',
    shipped.reduce((a, b) => a + b, 0),
    '—',
  ),
  ...SHARES.map((share) => {
    const kept = docs.reduce((sum, keys) => sum + keys.filter((k) => snippetsWith.get(k)! < share * COUNT).length, 0);
    const left = [...snippetsWith.values()].filter((n) => n >= share * COUNT).length;
    return row(`those in fewer than ${share * 100}% of snippets`, kept, left);
  }),
];
console.log(`${COUNT} snippets, ${snippetsWith.size} distinct trigrams\n`);
console.log(markdownTable([['trigrams kept', 'words a save', 'of every trigram', 'trigrams left out'], ...rows]));
