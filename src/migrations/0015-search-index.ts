// MySQL/MariaDB: the search index of src/store/mysql/search-index.ts (docs/search.md), built for the snippets already
// stored, in batches of one transaction each, with a line of progress on stderr every few. Cut short, it runs again on
// the next start and goes on from the snippets not yet indexed. SQLite has its FTS5 index (0006-snippet-search).
import { QueryTypes, type QueryInterface } from 'sequelize';
import { CREATE_WORDS_TABLE, indexSnippets, WORDS_TABLE } from '../store/mysql/search-index';

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
  // The stopword list is fixed when the FULLTEXT index is made: none, on this connection, for that statement.
  await sequelize.transaction(async (transaction) => {
    await sequelize.query('SET SESSION innodb_ft_enable_stopword = OFF', { transaction });
    await sequelize.query(CREATE_WORDS_TABLE, { transaction });
    await sequelize.query('SET SESSION innodb_ft_enable_stopword = ON', { transaction });
  });
  const [{ n }] = (await sequelize.query<{ n: number }>(
    `SELECT COUNT(*) AS n FROM snippets s WHERE NOT EXISTS (SELECT 1 FROM ${WORDS_TABLE} w WHERE w.snippet_id = s.id)`,
    { type: QueryTypes.SELECT },
  )) as [{ n: number }];
  const total = Number(n);
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

export async function down(qi: QueryInterface): Promise<void> {
  if (qi.sequelize.getDialect() === 'sqlite') return;
  await qi.sequelize.query(`DROP TABLE IF EXISTS ${WORDS_TABLE}`);
}
