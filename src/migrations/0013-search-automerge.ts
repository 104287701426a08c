// SQLite: the search index (0006-snippet-search) merges its segments sixteen at a time instead of FTS5's default four.
// Every save writes a small segment of its trigrams; FTS5 merges them as they pile up, and each merge rewrites what it
// merges, so merging 16 at a time rewrites each entry about half as often (log16 against log4 of the segments). On
// 10,000 snippets of bench/fixtures code a create wrote 65 KB to the WAL instead of 93 KB, an update of the code 76 KB
// instead of 89 KB (2026-11-25, docs/benchmarks.md "SQLite's search index: merging 16 segments at a time"); a query
// reads up to 15 segments a level instead of 3, which did not show in a rare or a common term's time. The setting is
// kept in the index itself (its %_config table): no trigger or query changes.
// https://sqlite.org/fts5.html#the_automerge_configuration_option
import type { QueryInterface } from 'sequelize';

const set = (segments: number) =>
  `INSERT INTO snippet_search(snippet_search, rank) VALUES ('automerge', ${Number(segments)})`;

export async function up(qi: QueryInterface): Promise<void> {
  if (qi.sequelize.getDialect() !== 'sqlite') return;
  await qi.sequelize.query(set(16));
}

export async function down(qi: QueryInterface): Promise<void> {
  if (qi.sequelize.getDialect() !== 'sqlite') return;
  await qi.sequelize.query(set(4));
}
