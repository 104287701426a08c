// SQLite: the search index over snippet titles and code, an FTS5 table of trigrams (every substring of three or more
// characters is found through it, case folded), kept by triggers that run inside the statement that changes the
// row, so a row and its index entry are committed or lost together. MySQL/MariaDB search without an index
// (docs/benchmarks.md, "Search": InnoDB's FULLTEXT indexes words, and a Mroonga table would not replicate on Galera).
import type { QueryInterface } from 'sequelize';

/**
 * External content: the index holds trigrams only, the text stays in `snippets` (content_rowid is the snippet's id).
 * Every statement may run again, so a migration cut short is finished by the next start.
 */
const UP = [
  "CREATE VIRTUAL TABLE IF NOT EXISTS snippet_search USING fts5(title, code, content='snippets', content_rowid='id', tokenize='trigram')",
  `CREATE TRIGGER IF NOT EXISTS snippet_search_insert AFTER INSERT ON snippets BEGIN
     INSERT INTO snippet_search(rowid, title, code) VALUES (new.id, new.title, new.code);
   END`,
  `CREATE TRIGGER IF NOT EXISTS snippet_search_delete AFTER DELETE ON snippets BEGIN
     INSERT INTO snippet_search(snippet_search, rowid, title, code) VALUES ('delete', old.id, old.title, old.code);
   END`,
  // Only a change of the indexed text re-indexes: rehighlight, language or style changes leave the index alone.
  `CREATE TRIGGER IF NOT EXISTS snippet_search_update AFTER UPDATE OF title, code ON snippets BEGIN
     INSERT INTO snippet_search(snippet_search, rowid, title, code) VALUES ('delete', old.id, old.title, old.code);
     INSERT INTO snippet_search(rowid, title, code) VALUES (new.id, new.title, new.code);
   END`,
  // The snippets stored before this migration.
  "INSERT INTO snippet_search(snippet_search) VALUES ('rebuild')",
];

const DOWN = [
  'DROP TRIGGER IF EXISTS snippet_search_update',
  'DROP TRIGGER IF EXISTS snippet_search_delete',
  'DROP TRIGGER IF EXISTS snippet_search_insert',
  'DROP TABLE IF EXISTS snippet_search',
];

export async function up(qi: QueryInterface): Promise<void> {
  if (qi.sequelize.getDialect() !== 'sqlite') return;
  for (const sql of UP) await qi.sequelize.query(sql);
}

export async function down(qi: QueryInterface): Promise<void> {
  if (qi.sequelize.getDialect() !== 'sqlite') return;
  for (const sql of DOWN) await qi.sequelize.query(sql);
}
