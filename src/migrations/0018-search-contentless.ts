// SQLite: the search index without a copy of the text's place (FTS5 `content=''`, `contentless_delete=1`): a row
// leaves the index by its rowid, where an index of external content (0016) is told the row's old title and code, which
// FTS5 tokenizes again to find the entries to remove. A code-changing save tokenized its text twice (the old to remove,
// the new to add); now once. In the database alone, 20,000 snippets, 400 code updates a round: 0.88 and 0.76 CPU ms an
// update with the index of 0016, 0.58 and 0.55 with this one, the index the same size (0.46× the text it indexes
// against 0.45×) and its queries as fast (`npm run bench:search-index:sqlite`, docs/search.md, 2026-11-26).
// contentless_delete needs the per-row column sizes (columnsize=1): FTS5 refuses it with columnsize=0. No query reads
// the index's text (each term is asked by its trigrams and checked whole on the snippets' own rows:
// src/store/sqlite/long-terms.ts), and 'rebuild' (which reads a content table) is used by nothing since 0016: the
// build inserts each batch's rows itself. Built as 0016 builds, in batches beside the old index, resumable, with
// progress. https://sqlite.org/fts5.html#contentless_delete_tables
import type { QueryInterface } from 'sequelize';
import { NO_POSITIONS, rebuild, TRIGGERS } from './0016-search-detail-none';
import { TEXT_CHANGED } from './0017-search-update-when-text-changed';

export const CONTENTLESS = "content='', contentless_delete=1";
export const CONTENTLESS_OPTIONS = ", detail='none'";

/** Every trigger names the row by its id; an update re-indexes only a changed title or code (0017). */
export const CONTENTLESS_TRIGGERS = (table: string) => [
  `CREATE TRIGGER snippet_search_insert AFTER INSERT ON snippets BEGIN
     INSERT INTO ${table}(rowid, title, code) VALUES (new.id, new.title, new.code);
   END`,
  `CREATE TRIGGER snippet_search_delete AFTER DELETE ON snippets BEGIN
     DELETE FROM ${table} WHERE rowid = old.id;
   END`,
  `CREATE TRIGGER snippet_search_update AFTER UPDATE OF title, code ON snippets${TEXT_CHANGED} BEGIN
     DELETE FROM ${table} WHERE rowid = old.id;
     INSERT INTO ${table}(rowid, title, code) VALUES (new.id, new.title, new.code);
   END`,
];

/** 0016's triggers with 0017's update: what `down` leaves, as before this migration. */
const EXTERNAL_TRIGGERS = (table: string) => {
  const [insert, remove] = TRIGGERS(table);
  return [
    insert!,
    remove!,
    `CREATE TRIGGER snippet_search_update AFTER UPDATE OF title, code ON snippets${TEXT_CHANGED} BEGIN
     INSERT INTO ${table}(${table}, rowid, title, code) VALUES ('delete', old.id, old.title, old.code);
     INSERT INTO ${table}(rowid, title, code) VALUES (new.id, new.title, new.code);
   END`,
  ];
};

export async function up(qi: QueryInterface): Promise<void> {
  if (qi.sequelize.getDialect() !== 'sqlite') return;
  await rebuild(qi.sequelize, CONTENTLESS_OPTIONS, { content: CONTENTLESS, triggers: CONTENTLESS_TRIGGERS });
}

export async function down(qi: QueryInterface): Promise<void> {
  if (qi.sequelize.getDialect() !== 'sqlite') return;
  await rebuild(qi.sequelize, NO_POSITIONS, { triggers: EXTERNAL_TRIGGERS });
}
