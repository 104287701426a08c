// SQLite's search index built again (migrations 0016 and 0018, and their `down`): a new FTS5 table filled in batches
// beside the old one, each batch its own transaction, so a run cut short goes on from the last batch it committed (its
// place kept in snippet_search_build); the old index answers until the new one replaces it, with its triggers, in one
// transaction. Progress goes to stderr. Migrations run under the migration lock before a process serves: a snippet
// changed by another process during the build, in a batch already built, would be missed.
import type { QueryInterface } from 'sequelize';

const BATCH = 2000;
const NEW = 'snippet_search_new';

type Sequelize = QueryInterface['sequelize'];

/** An FTS5 index of the snippets' title and code: its options after the tokenizer, where its text is, its triggers. */
export interface SearchIndex {
  /** FTS5's options after the columns and the tokenizer, each with its leading comma (`, detail='none'`). */
  options: string;
  /** Where its text is (`content='snippets', content_rowid='id'`, or `content=''`). */
  content: string;
  /** The triggers that keep it, made on the table named. */
  triggers: (table: string) => string[];
}

async function rows<T>(sequelize: Sequelize, sql: string, replacements: unknown[] = []): Promise<T[]> {
  const [result] = await sequelize.query(sql, { replacements });
  return result as T[];
}

const exists = async (sequelize: Sequelize, name: string) =>
  (await rows(sequelize, 'SELECT 1 FROM sqlite_master WHERE name = ?', [name])).length > 0;

/**
 * Builds snippet_search again as `index`: a new table filled in batches of `batch` snippets beside the old one, then
 * put in its place with the index's triggers, in one transaction. Every step may run again after a cut; `batches`
 * stops the build after that many (a run cut short, for tests): it then answers false.
 */
export async function rebuild(
  sequelize: Sequelize,
  { options, content, triggers }: SearchIndex,
  { batch = BATCH, batches = Infinity }: { batch?: number; batches?: number } = {},
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
  const start = (await rows<{ done: number }>(sequelize, 'SELECT done FROM snippet_search_build'))[0]!.done;
  // Where a run cut short left off, then each batch's rows added: no count of the indexed rows a batch.
  let indexed = (
    await rows<{ indexed: number }>(sequelize, 'SELECT COUNT(*) AS indexed FROM snippets WHERE id <= ?', [start])
  )[0]!.indexed;
  for (let n = 0, done = start; ; n++) {
    if (n >= batches) return false;
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
    done = next.last;
    indexed += Number(next.n);
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
