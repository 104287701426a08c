// SQLite: the search index rebuilt without positions (FTS5 `detail=none`) and without per-row column sizes
// (`columnsize=0`): it keeps, for each trigram, only which snippets hold it. Positions were most of its size (3.3× the
// code it indexes with them, 0.45× without, at 20,000 snippets: docs/benchmarks.md, "SQLite's search index without
// positions"); no query reads them now, each term being asked as the AND of its trigrams and checked whole on the rows
// found (src/store/sqlite/long-terms.ts). The index is built beside the old one in batches of BATCH snippets, each its
// own transaction, so a run cut short goes on from the last batch it committed (its place kept in
// snippet_search_build); the old index answers until the new one replaces it. Progress goes to stderr. `down` builds
// the index with positions again, the same way. Migrations run under the migration lock before a process serves: a
// snippet changed by another process during the build, in a batch already built, would be missed.
// https://sqlite.org/fts5.html#the_detail_option https://sqlite.org/fts5.html#the_columnsize_option
import type { QueryInterface } from 'sequelize';

const BATCH = 2000;
const NEW = 'snippet_search_new';

type Sequelize = QueryInterface['sequelize'];

/** Where an index of external content finds its text: the snippets table, each row by its id. */
export const EXTERNAL_CONTENT = "content='snippets', content_rowid='id'";

/** The triggers of an index with external content (`content='snippets'`): a row leaves it by its old text. */
export const TRIGGERS = (table: string) => [
  `CREATE TRIGGER snippet_search_insert AFTER INSERT ON snippets BEGIN
     INSERT INTO ${table}(rowid, title, code) VALUES (new.id, new.title, new.code);
   END`,
  `CREATE TRIGGER snippet_search_delete AFTER DELETE ON snippets BEGIN
     INSERT INTO ${table}(${table}, rowid, title, code) VALUES ('delete', old.id, old.title, old.code);
   END`,
  // Only a change of the indexed text re-indexes: rehighlight, language or style changes leave the index alone.
  `CREATE TRIGGER snippet_search_update AFTER UPDATE OF title, code ON snippets BEGIN
     INSERT INTO ${table}(${table}, rowid, title, code) VALUES ('delete', old.id, old.title, old.code);
     INSERT INTO ${table}(rowid, title, code) VALUES (new.id, new.title, new.code);
   END`,
];

async function rows<T>(sequelize: Sequelize, sql: string, replacements: unknown[] = []): Promise<T[]> {
  const [result] = await sequelize.query(sql, { replacements });
  return result as T[];
}

const exists = async (sequelize: Sequelize, name: string) =>
  (await rows(sequelize, 'SELECT 1 FROM sqlite_master WHERE name = ?', [name])).length > 0;

/**
 * Builds snippet_search again with `options` (FTS5's, after the columns and the tokenizer) and `content` (where its
 * text is: the snippets table's by default): a new table filled in batches of `batch` snippets beside the old one,
 * then put in its place with `triggers`, in one transaction. Every step may run again after a cut; `batches` stops the
 * build after that many (a run cut short, for tests): it then answers false.
 */
export async function rebuild(
  sequelize: Sequelize,
  options: string,
  {
    batch = BATCH,
    batches = Infinity,
    content = EXTERNAL_CONTENT,
    triggers = TRIGGERS,
  }: { batch?: number; batches?: number; content?: string; triggers?: (table: string) => string[] } = {},
): Promise<boolean> {
  if (!(await exists(sequelize, NEW))) {
    await sequelize.query(
      `CREATE VIRTUAL TABLE ${NEW} USING fts5(title, code, ${content}, tokenize='trigram'${options})`,
    );
    // Merging 16 segments at a time, as 0013-search-automerge set for the index it replaces.
    await sequelize.query(`INSERT INTO ${NEW}(${NEW}, rank) VALUES ('automerge', 16)`);
    await sequelize.query('CREATE TABLE IF NOT EXISTS snippet_search_build (done INTEGER NOT NULL)');
    await sequelize.query('DELETE FROM snippet_search_build');
    await sequelize.query('INSERT INTO snippet_search_build (done) VALUES (0)');
  }
  const { total } = (await rows<{ total: number }>(sequelize, 'SELECT COUNT(*) AS total FROM snippets'))[0]!;
  for (let n = 0; ; n++) {
    if (n >= batches) return false;
    const { done } = (await rows<{ done: number }>(sequelize, 'SELECT done FROM snippet_search_build'))[0]!;
    const [next] = await rows<{ last: number | null; n: number }>(
      sequelize,
      'SELECT MAX(id) AS last, COUNT(*) AS n FROM (SELECT id FROM snippets WHERE id > ? ORDER BY id LIMIT ?)',
      [done, batch],
    );
    if (!next?.n || next.last === null) break;
    await sequelize.transaction(async (transaction) => {
      await sequelize.query(
        `INSERT INTO ${NEW}(rowid, title, code) SELECT id, title, code FROM snippets WHERE id > ? AND id <= ? ORDER BY id`,
        { replacements: [done, next.last], transaction },
      );
      await sequelize.query('UPDATE snippet_search_build SET done = ?', { replacements: [next.last], transaction });
    });
    const { indexed } = (
      await rows<{ indexed: number }>(sequelize, 'SELECT COUNT(*) AS indexed FROM snippets WHERE id <= ?', [next.last])
    )[0]!;
    process.stderr.write(`migration: search index ${indexed} of ${total} snippets\n`);
  }
  await sequelize.transaction(async (transaction) => {
    for (const sql of [
      'DROP TRIGGER IF EXISTS snippet_search_update',
      'DROP TRIGGER IF EXISTS snippet_search_delete',
      'DROP TRIGGER IF EXISTS snippet_search_insert',
      'DROP TABLE IF EXISTS snippet_search',
      `ALTER TABLE ${NEW} RENAME TO snippet_search`,
      ...triggers('snippet_search'),
      'DROP TABLE snippet_search_build',
    ])
      await sequelize.query(sql, { transaction });
  });
  // One segment instead of a batch's each: smaller, and each query reads one list per trigram.
  await sequelize.query("INSERT INTO snippet_search(snippet_search) VALUES ('optimize')");
  return true;
}

export const NO_POSITIONS = ", detail='none', columnsize=0";

export async function up(qi: QueryInterface): Promise<void> {
  if (qi.sequelize.getDialect() !== 'sqlite') return;
  await rebuild(qi.sequelize, NO_POSITIONS);
}

export async function down(qi: QueryInterface): Promise<void> {
  if (qi.sequelize.getDialect() !== 'sqlite') return;
  await rebuild(qi.sequelize, '');
}
