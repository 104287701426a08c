// SQLite: the search index rebuilt without positions (FTS5 `detail=none`) and without per-row column sizes
// (`columnsize=0`): it keeps, for each trigram, only which snippets hold it. Positions were most of its size (3.3× the
// code it indexes with them, 0.45× without, at 20,000 snippets: docs/benchmarks.md, "SQLite's search index without
// positions"); no query reads them now, each term being asked as the AND of its trigrams and checked whole on the rows
// found (src/store/sqlite/long-terms.ts). The index is built beside the old one in batches, resumable, with progress
// (./search-rebuild.ts). `down` builds the index with positions again, the same way.
// https://sqlite.org/fts5.html#the_detail_option https://sqlite.org/fts5.html#the_columnsize_option
import type { QueryInterface } from 'sequelize';
import { rebuild, type SearchIndex } from './search-rebuild';

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

export const NO_POSITIONS = ", detail='none', columnsize=0";

/** The index this migration builds. */
export const INDEX_0016: SearchIndex = { options: NO_POSITIONS, content: EXTERNAL_CONTENT, triggers: TRIGGERS };

export async function up(qi: QueryInterface): Promise<void> {
  if (qi.sequelize.getDialect() !== 'sqlite') return;
  await rebuild(qi.sequelize, INDEX_0016);
}

export async function down(qi: QueryInterface): Promise<void> {
  if (qi.sequelize.getDialect() !== 'sqlite') return;
  await rebuild(qi.sequelize, { ...INDEX_0016, options: '' });
}
