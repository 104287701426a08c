// MySQL/MariaDB's search index (docs/search.md): for each snippet, one row of snippet_trigram_words holding a word for
// every distinct trigram of its lowered title and code that a search looks up (src/store/mysql/trigram-words.ts),
// under an InnoDB FULLTEXT index. The row is written in the transaction that saves the snippet and its revision
// (src/store/snippets/writes.ts through Engine.searchEntry and indexSnippet), so Galera certifies and replicates it with the save, and a save
// rolled back leaves no trace; deleting the snippet deletes it (the foreign key's cascade). A search term of three code
// points or more names its likely rarest words; the snippets whose row holds them all are the candidates, which the
// substring match verifies (MysqlEngine.search).
import { QueryTypes, type Model, type Sequelize, type Transaction } from 'sequelize';
import { isAscii, type Condition } from '../search';
import { queryWords, tokenWidth, trigramWords } from './trigram-words';

export const WORDS_TABLE = 'snippet_trigram_words';

/**
 * The words in ASCII with the binary collation (one byte each, compared as written); without their FULLTEXT key, which
 * migration 0015 adds after the rows of the snippets already stored (ADD_WORDS_KEY).
 */
export const CREATE_WORDS_TABLE = `CREATE TABLE IF NOT EXISTS ${WORDS_TABLE} (
  snippet_id INTEGER NOT NULL PRIMARY KEY,
  words MEDIUMTEXT CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  CONSTRAINT ${WORDS_TABLE}_snippet FOREIGN KEY (snippet_id) REFERENCES snippets (id) ON DELETE CASCADE
) ENGINE=InnoDB`;

export const WORDS_KEY = `${WORDS_TABLE}_words`;

/**
 * The words' FULLTEXT key, built over the rows there are in one pass: InnoDB sorts their words and writes each word's
 * list once, where rows added one batch at a time under the key leave a list in pieces per batch (2.57 against 3.88
 * times the text indexed at 100,000 snippets, docs/search.md "The index built after its rows"). Stopwords are off for the index, fixed when it
 * is created (innodb_ft_enable_stopword is read then, on the connection that creates it): a word may spell `the`.
 */
export const ADD_WORDS_KEY = `ALTER TABLE ${WORDS_TABLE} ADD FULLTEXT KEY ${WORDS_KEY} (words)`;

/**
 * How many of a term's words are looked up: the two likely rarest. InnoDB reads each word's whole list, and a third or
 * fourth word's is often a long one (a word stands for every trigram that hashes to it): `zq_rare_marker`'s four had
 * 57, 77, 5,806 and 10,689 snippets, its first two 50 together. More words only add list to read; the match verifies
 * (docs/search.md, "The rare term's time").
 */
const WORDS_PER_TERM = 2;

/** The width of the words, from the server's innodb_ft_min_token_size (changing it asks for `snippets reindex`). */
const widths = new WeakMap<Sequelize, Promise<number>>();

/** A SELECT of the server's, with `?` placeholders (the search's run on its lane). */
export type Select = <T extends object>(sql: string, params: readonly unknown[]) => Promise<T[]>;

/** The server's innodb_ft_min_token_size, and the words' width it makes. */
export const MIN_TOKEN_SIZE = 'SELECT @@innodb_ft_min_token_size AS n';
export const widthFrom = ([row]: { n: number }[]) => tokenWidth(Number(row?.n ?? 3));

export function widthOf(sequelize: Sequelize): Promise<number> {
  let width = widths.get(sequelize);
  if (!width) {
    width = sequelize.query<{ n: number }>(MIN_TOKEN_SIZE, { type: QueryTypes.SELECT }).then(widthFrom);
    width.catch(() => widths.delete(sequelize));
    widths.set(sequelize, width);
  }
  return width;
}

/**
 * A title and code lowered by the server as the stored columns are (utf8mb4, binary collation), so the words and the
 * search's match agree on every character.
 */
export const LOWERED =
  'SELECT LOWER(CONVERT(? USING utf8mb4) COLLATE utf8mb4_bin) AS title, LOWER(CONVERT(? USING utf8mb4) COLLATE utf8mb4_bin) AS code';
export const UPSERT_ONE = `INSERT INTO ${WORDS_TABLE} (snippet_id, words) VALUES (?, ?) ON DUPLICATE KEY UPDATE words = VALUES(words)`;

/** The row of words of a lowered title and code. */
export const wordsOf = (title: string, code: string, width: number) => trigramWords([title, code], width).join(' ');

/**
 * The words of a title and code as the server lowers them (as the search's match lowers the stored text): ASCII text
 * is lowered here, with no statement; other text by `select` (LOWERED).
 */
export async function entryOf(title: string, code: string, select: Select, width: Promise<number>): Promise<string> {
  const [lowered] =
    isAscii(title) && isAscii(code)
      ? [{ title: title.toLowerCase(), code: code.toLowerCase() }]
      : await select<{ title: string; code: string }>(LOWERED, [title, code]);
  return wordsOf(lowered!.title, lowered!.code, await width);
}

/**
 * Indexes the snippets with ids in `ids` (a model's save or bulk create, in its transaction when it has one), or the
 * next `limit` after `afterId` (the migration, `snippets reindex`). Returns how many and the last id.
 */
export async function indexSnippets(
  sequelize: Sequelize,
  which: { ids: number[] } | { afterId: number; limit: number; unindexedOnly?: boolean },
  transaction?: Transaction | null,
): Promise<{ count: number; lastId?: number }> {
  const width = await widthOf(sequelize);
  const query =
    'ids' in which
      ? { where: 'id IN (:ids)', replacements: { ids: which.ids.length ? which.ids : [0] } }
      : {
          where: `id > :afterId${which.unindexedOnly ? ` AND NOT EXISTS (SELECT 1 FROM ${WORDS_TABLE} w WHERE w.snippet_id = s.id)` : ''} ORDER BY id LIMIT :limit`,
          replacements: { afterId: which.afterId, limit: which.limit },
        };
  const rows = await sequelize.query<{ id: number; title: string; code: string }>(
    `SELECT id, LOWER(title) AS title, LOWER(code) AS code FROM snippets s WHERE ${query.where}`,
    { type: QueryTypes.SELECT, replacements: query.replacements, transaction },
  );
  if (!rows.length) return { count: 0 };
  await sequelize.query(
    `INSERT INTO ${WORDS_TABLE} (snippet_id, words) VALUES ${rows.map(() => '(?, ?)').join(', ')} ON DUPLICATE KEY UPDATE words = VALUES(words)`,
    {
      replacements: rows.flatMap((r) => [r.id, wordsOf(r.title, r.code, width)]),
      transaction,
    },
  );
  return { count: rows.length, lastId: Math.max(...rows.map((r) => Number(r.id))) };
}

type HookOptions = { fields?: readonly PropertyKey[] | null; transaction?: Transaction | null };

/**
 * Keeps the index for saves made through the Snippet model (tests, fixtures, `snippets rehighlight`): a save or bulk
 * create that writes the title or the code indexes its rows, in its transaction when it has one. Sequelize's permanent
 * hooks run for every model: only the snippets' are indexed.
 */
export function addIndexHooks(sequelize: Sequelize): void {
  const writesText = (fields?: readonly PropertyKey[] | null) =>
    !fields || fields.includes('title') || fields.includes('code');
  const isSnippet = (instance: Model) => (instance.constructor as typeof Model).tableName === 'snippets';
  const idOf = (instance: Model) => Number(instance.get('id'));
  sequelize.addHook('afterSave', async (instance: Model, options: HookOptions) => {
    if (isSnippet(instance) && writesText(options.fields))
      await indexSnippets(sequelize, { ids: [idOf(instance)] }, options.transaction);
  });
  sequelize.addHook('afterBulkCreate', async (instances: readonly Model[], options: HookOptions) => {
    const ids = instances.filter(isSnippet).map(idOf);
    if (ids.length && writesText(options.fields)) await indexSnippets(sequelize, { ids }, options.transaction);
  });
}

/**
 * Up to this many candidates, the list is given their ids, read once for the request: a page reads its window, its
 * rows' sizes and its rows in three statements, and a `FULLTEXT` condition in each reads the words' lists three times
 * (docs/search.md, "The rare term's time"). Past it, the ids would be a long parameter for every page's statements.
 */
export const FEW_CANDIDATES = 2000;

/** The snippets of the ids in a JSON array, each looked up by its key (MariaDB 10.6 and MySQL 8 have JSON_TABLE). */
export const idsIn = (ids: readonly number[]): Condition => ({
  where: `s.id IN (SELECT j.id FROM JSON_TABLE(?, '$[*]' COLUMNS (id INTEGER PATH '$')) j)`,
  params: [JSON.stringify(ids)],
});

/**
 * The condition that narrows a search to the snippets whose row holds the likely rarest trigram words of each term of
 * three code points or more (`long`, SearchTerms'); undefined when no term names one (each is shorter, or of common characters only: InnoDB
 * reads a FULLTEXT word's whole list, and reading the snippets in list order finds a page of a common term sooner).
 * The terms are lowered by the server as the substring match lowers them (one statement for all), then looked up in
 * boolean mode: `+w1 +w2 …`, every word required. The candidates are read once, on the search lane: their ids when
 * there are at most `few`, the index's condition itself when more.
 */
export async function searchIndexCondition(
  sequelize: Sequelize,
  lower: (texts: string) => Promise<string>,
  long: readonly string[],
  select: Select,
  few = FEW_CANDIDATES,
): Promise<Condition | undefined> {
  if (!long.length) return undefined;
  const width = await widthOf(sequelize);
  const lowered = JSON.parse(await lower(JSON.stringify(long))) as string[];
  const words = new Set(lowered.flatMap((t) => queryWords(t, width, WORDS_PER_TERM) ?? []));
  if (!words.size) return undefined;
  const against = [...words].map((w) => `+${w}`).join(' ');
  const holding = `FROM ${WORDS_TABLE} w WHERE MATCH (w.words) AGAINST (? IN BOOLEAN MODE)`;
  const ids = await select<{ id: number }>(`SELECT w.snippet_id AS id ${holding} LIMIT ?`, [against, few + 1]);
  if (ids.length <= few) return idsIn(ids.map((r) => Number(r.id)));
  return { where: `s.id IN (SELECT w.snippet_id ${holding})`, params: [against] };
}
