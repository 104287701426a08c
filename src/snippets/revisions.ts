// Snippet revisions: every save's fields, numbered from 1 per snippet (docs/api.md "History"). Read here; written by
// src/snippets/writes.ts in the transaction of the save itself.
import { select } from '../store/select';
import type { Store } from '../store/database';
import type { Tx } from '../store/transaction';
import type { Revision } from './revision';
import type { SnippetFields } from './schema';
import { withBooleans, type RawRow } from './columns';
import { rowBytes, rowsWithin } from '../store/page-budget';

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

/**
 * Up to `limit` revisions, newest first, below revision `before` when given, no more than PAGE_BYTES of code after the
 * first (src/store/page-budget.ts); and whether more follow. The numbers and sizes first, then the revisions that
 * fit, so that no more code is read than the page holds.
 */
export async function revisionsBefore(store: Store, snippetId: number, before: number | undefined, limit: number): Promise<{ items: Revision[]; more: boolean }> {
  const sized = await select<{ n: number; size: number | string }>(
    store,
    `SELECT n, ${rowBytes('r')} AS size FROM snippet_revisions r WHERE snippet_id = ? AND n < ? ORDER BY n DESC LIMIT ?`,
    [snippetId, before ?? Number.MAX_SAFE_INTEGER, limit + 1],
  );
  const kept = rowsWithin(sized.map((r) => r.size), limit);
  if (!kept) return { items: [], more: false };
  const rows = await select<RevisionRow>(store, `SELECT ${COLUMNS} FROM snippet_revisions WHERE snippet_id = ? AND n BETWEEN ? AND ? ORDER BY n DESC`, [
    snippetId,
    sized[kept - 1]!.n,
    sized[0]!.n,
  ]);
  return { items: rows.map(toRevision), more: sized.length > kept };
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
