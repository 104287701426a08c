// SQLite: the search index's update trigger (0016-search-detail-none) fires only when the title or the code changed.
// A save's UPDATE sets every saved column (src/store/snippets/write-ops.ts UPDATE_SQL), so `AFTER UPDATE OF title,
// code` fired on every save: a change of the language, the style or the line numbers alone made FTS5 tokenize the
// code twice (the old text to delete it, the same text to add it back) and write a segment. Unchanged text leaves the
// index as it is; such updates ran 5 to 7× faster in the database alone, on a copy of the bench's 100,000 snippets
// (docs/search.md, "The index's write cost on SQLite"). MySQL/MariaDB's index is written by the save itself, only
// when the text changes (docs/search.md).
// https://sqlite.org/lang_createtrigger.html (WHEN clause)
import type { QueryInterface } from 'sequelize';

/** The update trigger of the index of external content (0016), firing `when` (SQL: '' or a WHEN clause). */
export const trigger = (
  when: string,
) => `CREATE TRIGGER snippet_search_update AFTER UPDATE OF title, code ON snippets${when} BEGIN
     INSERT INTO snippet_search(snippet_search, rowid, title, code) VALUES ('delete', old.id, old.title, old.code);
     INSERT INTO snippet_search(rowid, title, code) VALUES (new.id, new.title, new.code);
   END`;

/** IS NOT: the columns are NOT NULL, and BINARY-collated, so a change of case alone re-indexes too. */
export const TEXT_CHANGED = ' WHEN old.title IS NOT new.title OR old.code IS NOT new.code';

async function replace(qi: QueryInterface, when: string): Promise<void> {
  if (qi.sequelize.getDialect() !== 'sqlite') return;
  await qi.sequelize.transaction(async (transaction) => {
    await qi.sequelize.query('DROP TRIGGER IF EXISTS snippet_search_update', { transaction });
    await qi.sequelize.query(trigger(when), { transaction });
  });
}

export const up = (qi: QueryInterface) => replace(qi, TEXT_CHANGED);
export const down = (qi: QueryInterface) => replace(qi, '');
