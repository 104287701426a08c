// Snippet revisions: every save's fields, numbered from 1 per snippet (docs/api.md "History"). Read here; written by
// src/snippets/writes.ts in the transaction of the save itself.
import { select } from '../store/select';
import type { Store } from '../store/database';
import type { Tx } from '../store/transaction';
import type { Revision } from './revision';
import type { SnippetFields } from './schema';
import { withBooleans, type RawRow } from './columns';

const COLUMNS = 'n AS revision, saved, title, code, linenos, language, style';
/** The saved fields of a revision, in the order of their columns. */
export const REVISION_FIELDS = ['title', 'code', 'linenos', 'language', 'style'] as const;

type RevisionRow = RawRow<Omit<Revision, 'saved'>> & { saved: string | Date };

/** SQLite keeps the text Sequelize wrote (`2026-11-24 10:00:00.000 +00:00`); mysql2 reads a Date. Both as ISO 8601. */
function isoOf(saved: string | Date): string {
  return (saved instanceof Date ? saved : new Date(saved.replace(' ', 'T').replace(' ', ''))).toISOString();
}

function toRevision(row: RevisionRow): Revision {
  const { revision, title, code, linenos, language, style } = withBooleans(row as RawRow<Omit<Revision, 'saved'>>) as Omit<Revision, 'saved'>;
  return { revision: Number(revision), saved: isoOf(row.saved), title, code, linenos, language, style };
}

export async function revisionOf(store: Store, snippetId: number, n: number): Promise<Revision | undefined> {
  const [row] = await select<RevisionRow>(store, `SELECT ${COLUMNS} FROM snippet_revisions WHERE snippet_id = ? AND n = ?`, [snippetId, n]);
  return row && toRevision(row);
}

/** Up to `limit` revisions, newest first, below revision `before` when given; and whether more follow. */
export async function revisionsBefore(store: Store, snippetId: number, before: number | undefined, limit: number): Promise<{ items: Revision[]; more: boolean }> {
  const rows =
    before === undefined
      ? await select<RevisionRow>(store, `SELECT ${COLUMNS} FROM snippet_revisions WHERE snippet_id = ? ORDER BY n DESC LIMIT ?`, [snippetId, limit + 1])
      : await select<RevisionRow>(store, `SELECT ${COLUMNS} FROM snippet_revisions WHERE snippet_id = ? AND n < ? ORDER BY n DESC LIMIT ?`, [snippetId, before, limit + 1]);
  const more = rows.length > limit;
  if (more) rows.length = limit;
  return { items: rows.map(toRevision), more };
}

/**
 * Stores revision `n` of a snippet in the save's transaction, and with SNIPPET_REVISIONS_KEEP drops those that fall
 * out of the window (the oldest).
 */
export async function insertRevision(store: Store, tx: Tx, snippetId: number, n: number, saved: Date, fields: SnippetFields): Promise<void> {
  await tx.insert(
    `INSERT INTO snippet_revisions (snippet_id, n, saved, ${REVISION_FIELDS.join(', ')}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    [snippetId, n, saved, ...REVISION_FIELDS.map((f) => fields[f])],
  );
  const keep = store.revisionsKeep;
  if (keep > 0 && n > keep) await tx.change('DELETE FROM snippet_revisions WHERE snippet_id = ? AND n <= ?', [snippetId, n - keep]);
}
