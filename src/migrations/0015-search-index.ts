// MySQL/MariaDB: the search index of src/store/mysql/search-index.ts (docs/search.md), built for the snippets already
// stored: their rows of words in batches of one transaction each, with a line of progress on stderr every few, then
// the words' FULLTEXT key over all of them in one pass. Cut short, it runs again on the next start and goes on from the
// snippets not yet indexed, and builds the key if it is not there yet. SQLite has its FTS5 index (0006-snippet-search).
import { QueryTypes, type QueryInterface, type Sequelize } from 'sequelize';
import { ADD_WORDS_KEY, CREATE_WORDS_TABLE, indexSnippets, WORDS_KEY, WORDS_TABLE } from '../store/mysql/search-index';

const BATCH = 500;
/** A progress line every this many batches (and at the end). */
const REPORT_EVERY = 20;

/** `progress` takes the lines (stderr by default: migrations have no logger). */
export async function up(
  qi: QueryInterface,
  progress: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): Promise<void> {
  const sequelize = qi.sequelize;
  if (sequelize.getDialect() === 'sqlite') return;
  await sequelize.query(CREATE_WORDS_TABLE);
  await indexStored(sequelize, progress);
  if (await hasWordsKey(sequelize)) return;
  // Every row the key covers, this run's and an earlier run's cut short before its key.
  const rows = await count(sequelize, `SELECT COUNT(*) AS n FROM ${WORDS_TABLE}`);
  if (rows) progress(`0015-search-index: building the index's FULLTEXT key over the words of ${rows} snippets`);
  // The stopword list is fixed when the FULLTEXT key is made: none, on this connection (the transaction's), for it.
  await sequelize.transaction(async (transaction) => {
    await sequelize.query('SET SESSION innodb_ft_enable_stopword = OFF', { transaction });
    await sequelize.query(ADD_WORDS_KEY, { transaction });
    await sequelize.query('SET SESSION innodb_ft_enable_stopword = ON', { transaction });
  });
  if (rows) progress('0015-search-index: the FULLTEXT key is built');
}

/** The count a `SELECT COUNT(*) AS n …` answers. */
async function count(sequelize: Sequelize, sql: string): Promise<number> {
  const [row] = await sequelize.query<{ n: number }>(sql, { type: QueryTypes.SELECT });
  return Number(row?.n ?? 0);
}

/** Writes the rows of words of the snippets that have none yet, in batches. */
async function indexStored(sequelize: Sequelize, progress: (line: string) => void): Promise<void> {
  const total = await count(
    sequelize,
    `SELECT COUNT(*) AS n FROM snippets s WHERE NOT EXISTS (SELECT 1 FROM ${WORDS_TABLE} w WHERE w.snippet_id = s.id)`,
  );
  if (!total) return;
  progress(`0015-search-index: indexing ${total} snippets for search, ${BATCH} at a time`);
  let done = 0;
  let afterId = 0;
  for (let batch = 1; ; batch++) {
    const { count, lastId } = await sequelize.transaction((transaction) =>
      indexSnippets(sequelize, { afterId, limit: BATCH, unindexedOnly: true }, transaction),
    );
    if (!count) break;
    done += count;
    afterId = lastId!;
    if (batch % REPORT_EVERY === 0)
      progress(`0015-search-index: ${done}/${total} snippets indexed, last id ${afterId}`);
  }
  progress(`0015-search-index: ${done} snippets indexed`);
}

/** Whether the words' FULLTEXT key is there (an earlier run built it, or made the table with it). */
async function hasWordsKey(sequelize: Sequelize): Promise<boolean> {
  const rows = await sequelize.query(
    'SELECT 1 FROM information_schema.statistics WHERE table_schema = DATABASE() AND table_name = ? AND index_name = ?',
    { type: QueryTypes.SELECT, replacements: [WORDS_TABLE, WORDS_KEY] },
  );
  return rows.length > 0;
}

export async function down(qi: QueryInterface): Promise<void> {
  if (qi.sequelize.getDialect() === 'sqlite') return;
  await qi.sequelize.query(`DROP TABLE IF EXISTS ${WORDS_TABLE}`);
}
