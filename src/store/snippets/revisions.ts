// Snippet revisions: every save's fields, numbered from 1 per snippet (docs/api.md "History"). Read here; written by
// src/store/snippets/writes.ts in the transaction of the save itself.
import { select } from '../select';
import type { Store } from '../database';
import type { Tx } from '../transaction';
import type { Revision } from '../../snippets/revision';
import type { SnippetFields } from '../../snippets/schema';
import { placeholders, SAVED_COLUMNS, SAVED_NAMES, SAVED_SELECT, withBooleans, type RawRow } from './columns';
import { rowBytes, rowsWithin } from '../page-budget';

/** What a save's thinning goes by: the store's SNIPPET_REVISIONS_KEEP and SNIPPET_REVISIONS_DAILY. */
export type RevisionPolicy = Pick<Store, 'revisionsKeep' | 'revisionsDaily'>;

const COLUMNS = `n AS revision, saved, ${SAVED_SELECT}`;

type RevisionRow = RawRow<Omit<Revision, 'saved'>> & { saved: string | Date };

/** SQLite keeps the text Sequelize wrote (`2026-11-24 10:00:00.000 +00:00`); mysql2 reads a Date. Both as ISO 8601. */
function isoOf(saved: string | Date): string {
  return (saved instanceof Date ? saved : new Date(saved.replace(' ', 'T').replace(' ', ''))).toISOString();
}

function toRevision(row: RevisionRow): Revision {
  const fields = withBooleans(row as RawRow<Omit<Revision, 'saved'>>) as Omit<Revision, 'saved'>;
  return {
    revision: Number(row.revision),
    saved: isoOf(row.saved),
    ...(Object.fromEntries(SAVED_NAMES.map((name) => [name, fields[name]])) as Required<SnippetFields>),
  };
}

export async function revisionOf(store: Store, snippetId: number, n: number): Promise<Revision | undefined> {
  const [row] = await select<RevisionRow>(
    store,
    `SELECT ${COLUMNS} FROM snippet_revisions WHERE snippet_id = ? AND n = ?`,
    [snippetId, n],
  );
  return row && toRevision(row);
}

/** When each of the snippets `ids` that exist was last saved (its current revision's time), in one statement. */
export async function lastSaved(store: Store, ids: readonly number[]): Promise<{ id: number; saved: string }[]> {
  const rows = await select<{ id: number; saved: string | Date }>(
    store,
    `SELECT s.id AS id, r.saved AS saved FROM snippets s
       JOIN snippet_revisions r ON r.snippet_id = s.id AND r.n = s.revision
     WHERE s.id IN (${placeholders(ids.length)})`,
    [...ids],
  );
  return rows.map((row) => ({ id: Number(row.id), saved: isoOf(row.saved) }));
}

/** The newest revision kept below revision `n` (n - 1, unless the thinning dropped it), or undefined. */
export async function revisionBelow(store: Store, snippetId: number, n: number): Promise<Revision | undefined> {
  const [row] = await select<RevisionRow>(
    store,
    `SELECT ${COLUMNS} FROM snippet_revisions WHERE snippet_id = ? AND n < ? ORDER BY n DESC LIMIT 1`,
    [snippetId, n],
  );
  return row && toRevision(row);
}

/**
 * Up to `limit` revisions, newest first, below revision `before` when given, no more than PAGE_BYTES of code after the
 * first (src/store/page-budget.ts); and whether more follow. The numbers and sizes first, then the revisions that
 * fit, so that no more code is read than the page holds.
 */
export async function revisionsBefore(
  store: Store,
  snippetId: number,
  before: number | undefined,
  limit: number,
): Promise<{ items: Revision[]; more: boolean }> {
  const sized = await select<{ n: number; size: number | string }>(
    store,
    `SELECT n, ${rowBytes('r')} AS size FROM snippet_revisions r WHERE snippet_id = ? AND n < ? ORDER BY n DESC LIMIT ?`,
    [snippetId, before ?? Number.MAX_SAFE_INTEGER, limit + 1],
  );
  const kept = rowsWithin(
    sized.map((r) => r.size),
    limit,
  );
  if (!kept) return { items: [], more: false };
  const rows = await select<RevisionRow>(
    store,
    `SELECT ${COLUMNS} FROM snippet_revisions WHERE snippet_id = ? AND n BETWEEN ? AND ? ORDER BY n DESC`,
    [snippetId, sized[kept - 1]!.n, sized[0]!.n],
  );
  return { items: rows.map(toRevision), more: sized.length > kept };
}

/** What a revision counts against its owner's quota: the UTF-8 bytes of its title and code (migration 0009). */
export function revisionBytes(fields: Pick<SnippetFields, 'title' | 'code'>): number {
  return Buffer.byteLength(fields.title ?? '', 'utf8') + Buffer.byteLength(fields.code, 'utf8');
}

const INSERT_REVISION = `INSERT INTO snippet_revisions (snippet_id, n, saved, ${SAVED_COLUMNS.join(', ')}, bytes) VALUES (${placeholders(SAVED_NAMES.length + 4)})`;

/**
 * Stores revision `n` of a snippet in the save's transaction and thins the older ones by the policy of docs/api.md
 * "History": the newest SNIPPET_REVISIONS_KEEP stay; of the older ones, the last of each UTC day, SNIPPET_REVISIONS_DAILY
 * of them at most. Each save judges only the revision that has just left the newest ones (kept when the next one was
 * saved on a later day), and reads at most SNIPPET_REVISIONS_DAILY + 3 keys, so a save's cost does not grow with the
 * history: after the INSERT, one SELECT of those keys and, when some go, one DELETE (each statement of a transaction is
 * a round trip on MySQL/MariaDB, made while the snippet's row is locked). Resolves to the bytes the snippet's revisions
 * grew by (negative when the thinning freed more).
 */
export async function insertRevision(
  store: RevisionPolicy,
  tx: Tx,
  snippetId: number,
  n: number,
  saved: Date,
  fields: SnippetFields,
): Promise<number> {
  const bytes = revisionBytes(fields);
  await tx.insert(INSERT_REVISION, [snippetId, n, saved, ...SAVED_NAMES.map((f) => fields[f]), bytes]);
  const { revisionsKeep: keep, revisionsDaily: daily } = store;
  if (keep === 0 || n <= keep) return bytes;
  const left = n - keep;
  if (daily === 0) return bytes - (await dropUpTo(tx, snippetId, left));
  // `left`, the one after it (kept: it is among the newest) and the daily ones below: a history thinned by every save
  // holds at most SNIPPET_REVISIONS_DAILY + 2 rows there, so a full window means more may lie past it (a history made
  // before this policy, or under a larger SNIPPET_REVISIONS_DAILY).
  const window = daily + 3;
  const rows = await tx.selectForUpdate<{ n: number; saved: string | Date; bytes: number }>(
    `SELECT n, saved, bytes FROM snippet_revisions WHERE snippet_id = ? AND n <= ? ORDER BY n DESC LIMIT ${window}`,
    [snippetId, left + 1],
  );
  const row = (m: number) => rows.find((r) => Number(r.n) === m);
  const day = (m: number) => {
    const at = row(m)?.saved;
    return at && isoOf(at).slice(0, 10);
  };
  // The same day as the next one means `left` is not its day's last: it goes.
  const dropLeft = day(left) !== undefined && day(left) === day(left + 1);
  // Past the maximum: the oldest daily revisions go, every one at or below the first past it.
  const older = rows.filter((r) => Number(r.n) <= left && !(dropLeft && Number(r.n) === left));
  const cut = older.length > daily ? Number(older[daily]!.n) : 0;
  if (!dropLeft && !cut) return bytes;
  let freed = dropLeft ? Number(row(left)!.bytes) : 0;
  if (cut)
    freed +=
      rows.length < window
        ? older.slice(daily).reduce((sum, r) => sum + Number(r.bytes), 0)
        : await bytesUpTo(tx, snippetId, cut);
  // n = 0 and n <= 0 match no revision (they are numbered from 1): one statement text for every case.
  await tx.change('DELETE FROM snippet_revisions WHERE snippet_id = ? AND (n = ? OR n <= ?)', [
    snippetId,
    dropLeft ? left : 0,
    cut,
  ]);
  return bytes - freed;
}

/** The bytes of every revision numbered `n` or lower, locked. */
async function bytesUpTo(tx: Tx, snippetId: number, n: number): Promise<number> {
  const [row] = await tx.selectForUpdate<{ bytes: number | null }>(
    'SELECT SUM(bytes) AS bytes FROM snippet_revisions WHERE snippet_id = ? AND n <= ?',
    [snippetId, n],
  );
  return Number(row?.bytes ?? 0);
}

/** Deletes every revision numbered `n` or lower; the bytes they held. */
async function dropUpTo(tx: Tx, snippetId: number, n: number): Promise<number> {
  const bytes = await bytesUpTo(tx, snippetId, n);
  await tx.change('DELETE FROM snippet_revisions WHERE snippet_id = ? AND n <= ?', [snippetId, n]);
  return bytes;
}

/** The bytes every revision of a snippet holds (at most SNIPPET_REVISIONS_KEEP + SNIPPET_REVISIONS_DAILY rows). */
export async function snippetBytes(tx: Tx, snippetId: number): Promise<number> {
  const [row] = await tx.selectForUpdate<{ bytes: number | null }>(
    'SELECT SUM(bytes) AS bytes FROM snippet_revisions WHERE snippet_id = ?',
    [snippetId],
  );
  return Number(row?.bytes ?? 0);
}
