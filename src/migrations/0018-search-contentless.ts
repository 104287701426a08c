// SQLite: the search index without a copy of the text's place (FTS5 `content=''`, `contentless_delete=1`): a row
// leaves the index by its rowid, where an index of external content (0016) is told the row's old title and code, which
// FTS5 tokenizes again to find the entries to remove. A code-changing save tokenized its text twice (the old to remove,
// the new to add); now once. In the database alone, 20,000 snippets, 400 code updates a round: 0.88 and 0.76 CPU ms an
// update with the index of 0016, 0.58 and 0.55 with this one, the index the same size (0.46× the text it indexes
// against 0.45×), its queries as fast at 20,000 (at 100,000 `return self` over the whole list took 114 against 83 ms in
// one measure, and read as fast through the API) (`npm run bench:search-index:sqlite`, docs/search.md, 2026-11-26).
// contentless_delete needs the per-row column sizes (columnsize=1): FTS5 refuses it with columnsize=0. No query reads
// the index's text (each term is asked by its trigrams and checked whole on the snippets' own rows:
// src/store/sqlite/long-terms.ts), and 'rebuild' (which reads a content table) is used by nothing since 0016: the
// build inserts each batch's rows itself. Built as 0016 builds, in batches beside the old index, resumable, with
// progress. https://sqlite.org/fts5.html#contentless_delete_tables
import type { QueryInterface } from 'sequelize';
import { INDEX_0016, TRIGGERS } from './0016-search-detail-none';
import { TEXT_CHANGED, trigger } from './0017-search-update-when-text-changed';
import { rebuild, type SearchIndex } from './search-rebuild';

export const CONTENTLESS = "content='', contentless_delete=1";
export const CONTENTLESS_OPTIONS = ", detail='none'";

/** Every trigger names the row by its id; an update re-indexes only a changed title or code (0017). */
export const CONTENTLESS_TRIGGERS = (table: string) => [
  TRIGGERS(table)[0]!, // the insert's, as 0016's
  `CREATE TRIGGER snippet_search_delete AFTER DELETE ON snippets BEGIN
     DELETE FROM ${table} WHERE rowid = old.id;
   END`,
  `CREATE TRIGGER snippet_search_update AFTER UPDATE OF title, code ON snippets${TEXT_CHANGED} BEGIN
     DELETE FROM ${table} WHERE rowid = old.id;
     INSERT INTO ${table}(rowid, title, code) VALUES (new.id, new.title, new.code);
   END`,
];

/** The index this migration builds. */
export const CONTENTLESS_INDEX: SearchIndex = {
  options: CONTENTLESS_OPTIONS,
  content: CONTENTLESS,
  triggers: CONTENTLESS_TRIGGERS,
};

/** 0016's index with 0017's update trigger (which names snippet_search: rebuild makes it after its rename). */
const INDEX_0017: SearchIndex = {
  ...INDEX_0016,
  triggers: (table) => [...INDEX_0016.triggers(table).slice(0, 2), trigger(TEXT_CHANGED)],
};

export async function up(qi: QueryInterface): Promise<void> {
  if (qi.sequelize.getDialect() !== 'sqlite') return;
  await rebuild(qi.sequelize, CONTENTLESS_INDEX);
}

export async function down(qi: QueryInterface): Promise<void> {
  if (qi.sequelize.getDialect() !== 'sqlite') return;
  await rebuild(qi.sequelize, INDEX_0017);
}
