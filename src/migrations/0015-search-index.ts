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
  const done = await indexStored(sequelize, progress);
  if (await hasWordsKey(sequelize)) return;
  if (done) progress(`0015-search-index: building the index's FULLTEXT key over the words of ${done} snippets`);
  // The stopword list is fixed when the FULLTEXT key is made: none, on this connection (the transaction's), for it.
  await sequelize.transaction(async (transaction) => {
    await sequelize.query('SET SESSION innodb_ft_enable_stopword = OFF', { transaction });
    await sequelize.query(ADD_WORDS_KEY, { transaction });
    await sequelize.query('SET SESSION innodb_ft_enable_stopword = ON', { transaction });
  });
  if (done) progress('0015-search-index: the FULLTEXT key is built');
}

/** Writes the rows of words of the snippets that have none yet, in batches; how many it wrote. */
async function indexStored(sequelize: Sequelize, progress: (line: string) => void): Promise<number> {
  const [{ n }] = (await sequelize.query<{ n: number }>(
    `SELECT COUNT(*) AS n FROM snippets s WHERE NOT EXISTS (SELECT 1 FROM ${WORDS_TABLE} w WHERE w.snippet_id = s.id)`,
    { type: QueryTypes.SELECT },
  )) as [{ n: number }];
  const total = Number(n);
  if (!total) return 0;
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
  return done;
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
