// The transactions of the snippet writes (writes.ts), each a function of its transaction and of plain, cloneable
// arguments: so each runs wherever its engine runs transactions, in this thread or on the SQLite file's writer thread
// (src/store/sqlite/writer-thread.ts), which loads this module by its file name and calls `transactions[op]`.
import type { Engine } from '../engine';
import type { Tx } from '../transaction';
import type { Store } from '../database';
import { OverQuota } from '../../refusal';
import { ifMatchAllows } from '../../snippets/preconditions';
import type { SnippetFields } from '../../snippets/schema';
import { insertRevision, snippetBytes } from './revisions';
import { charge } from './usage';
import { columnName } from '../../models/columns';
import { placeholders, SAVED_COLUMNS, SAVED_NAMES, STORED_COLUMNS, withBooleans, type RawRow } from './columns';

/** This module, as the writer thread loads it. */
export const WRITE_OPS_MODULE = __filename;

/** The fields an update may set (the owner comes from the caller, never from input); a create also needs the required ones. */
export type SnippetWrite = Partial<SnippetFields>;

/** Every saved field of a snippet, as stored. */
export type SavedFields = Required<SnippetFields>;

/** The stored snippet a write starts from: its fields, its owner, and the revision it is at. */
export type StoredSnippet = SavedFields & { id: number; ownerId: number; revision: number };

/** Why a conditional write did not happen: If-Match names another revision, or the snippet is gone. */
export type WriteRefused = 'precondition' | 'gone';

/** The store's settings a save goes by: the quota, and the revisions it keeps. */
export type WriteLimits = Pick<Store, 'quotaBytes' | 'revisionsKeep' | 'revisionsDaily'>;

/** The engine's search index, where the application keeps it (MySQL/MariaDB); SQLite's FTS5 keeps its own by triggers. */
export type Indexer = Pick<Engine, 'searchEntry' | 'indexSnippet'>;

/** The representation's stored columns, the owner and the revision, as the model names them. */
export const FOR_WRITE = `SELECT ${STORED_COLUMNS}, owner_id AS ownerId, revision FROM snippets WHERE id = ?`;

const INSERT_SQL = `INSERT INTO snippets (created, ${SAVED_COLUMNS.join(', ')}, highlighted, owner_id, revision) VALUES (${placeholders(SAVED_NAMES.length + 3)}, 1)`;

const ASSIGNMENTS = `${SAVED_COLUMNS.map((c) => `${c} = ?`).join(', ')}, highlighted = ?`;

const UPDATE_SQL = `UPDATE snippets SET ${ASSIGNMENTS}, revision = ? WHERE id = ? AND revision = ?`;

export const savedFieldsOf = (s: SavedFields): SavedFields =>
  Object.fromEntries(SAVED_NAMES.map((f) => [f, s[f]])) as SavedFields;

/** The row as it is now, read inside the transaction and locked until it ends. */
async function lockedRow(tx: Tx, id: number): Promise<StoredSnippet | null> {
  const [row] = await tx.selectForUpdate<RawRow<StoredSnippet>>(FOR_WRITE, [id]);
  return row ? withBooleans(row) : null;
}

export interface CreateArgs {
  limits: WriteLimits;
  saved: SavedFields;
  highlighted: string;
  ownerId: number;
  now: Date;
  /** The search index's entry (Indexer.searchEntry's), where the engine has one. */
  entry?: string;
  /** The bytes revision 1 takes (revisionBytes). */
  bytes: number;
}

async function create(tx: Tx, a: CreateArgs, indexer?: Indexer): Promise<StoredSnippet> {
  const id = await tx.insert(INSERT_SQL, [a.now, ...SAVED_NAMES.map((f) => a.saved[f]), a.highlighted, a.ownerId]);
  // Revision 1 is never thinned: its size is what the count below adds.
  await insertRevision(a.limits, tx, id, 1, a.now, a.saved);
  if (a.entry !== undefined) await indexer?.indexSnippet?.(tx, id, a.entry);
  // The owner's count last, as a save's: on MySQL/MariaDB its row is locked from here to the COMMIT, and another
  // create of the same user waits for it only that long (migration 0019-user-storage).
  await charge(a.limits, tx, a.ownerId, a.bytes);
  return { ...a.saved, id, ownerId: a.ownerId, revision: 1 };
}

export interface SaveArgs {
  limits: WriteLimits;
  /** The stored snippet the save was rendered from. */
  from: StoredSnippet;
  /** The fields the caller sets, and all the saved fields with them (`key`: their JSON, which `html` renders). */
  fields: SnippetWrite;
  next: SavedFields;
  key: string;
  html: string;
  entry?: string;
  ifMatch?: string;
  now: Date;
}

export type SaveOutcome = { saved: StoredSnippet } | { refused: WriteRefused } | { stale: StoredSnippet };

/**
 * One try of an update (writes.ts updateSnippet): with If-Match, the UPDATE names the revision the save started from,
 * so it is also the If-Match check; without, it names the fields the rendering went by (onTopOfSameFields). When that
 * UPDATE changes nothing, the row is read again, locked, If-Match judged on it, and the save goes on top of it unless a
 * field left out changed meanwhile (`stale`: rendered again by the caller).
 */
async function save(tx: Tx, a: SaveArgs, indexer?: Indexer): Promise<SaveOutcome> {
  const { next, html, entry } = a;
  const textChanges = (from: SavedFields) => next.title !== from.title || next.code !== from.code;
  const onTop = async (from: StoredSnippet): Promise<boolean> => {
    const revision = from.revision + 1;
    if (!(await tx.change(UPDATE_SQL, [...SAVED_NAMES.map((f) => next[f]), html, revision, from.id, from.revision])))
      return false;
    // The search index, where the engine keeps it, when the text changed (docs/search.md); the entry is worked out
    // here only when another save changed the text under this one, which sets it back to the text it started from.
    const indexed = textChanges(from) ? (entry ?? (await indexer?.searchEntry?.(next.title, next.code))) : undefined;
    if (indexed !== undefined) await indexer?.indexSnippet?.(tx, from.id, indexed);
    await charge(a.limits, tx, from.ownerId, await insertRevision(a.limits, tx, from.id, revision, a.now, next));
    return true;
  };
  if (a.ifMatch === undefined) {
    const saved = await onTopOfSameFields(tx, a, indexer);
    if (saved) return { saved };
  } else if (await onTop(a.from)) return { saved: { ...a.from, ...next, revision: a.from.revision + 1 } };
  const current = await lockedRow(tx, a.from.id);
  if (!current) return { refused: a.ifMatch === undefined ? 'gone' : 'precondition' };
  if (!ifMatchAllows(a.ifMatch, current.revision)) return { refused: 'precondition' };
  if (JSON.stringify({ ...savedFieldsOf(current), ...a.fields }) !== a.key || !(await onTop(current)))
    return { stale: current };
  return { saved: { ...current, ...next, revision: current.revision + 1 } };
}

/**
 * A save without If-Match, in one UPDATE that needs no revision read before it: it goes on top of whatever revision
 * the row is at, as long as the fields it leaves out (and the title and code, when the search index's entry was not
 * worked out for a new text) are still those it was rendered from. Under a crowd of saves to one snippet the first
 * UPDATE then goes through, where one naming the revision read before the transaction would find it changed and
 * lock, read and update again, three round trips on MySQL/MariaDB while the row is locked. Undefined when the row is
 * gone or such a field changed (save() then reads it, locked).
 */
async function onTopOfSameFields(tx: Tx, a: SaveArgs, indexer?: Indexer): Promise<StoredSnippet | undefined> {
  const { from, next, html, entry } = a;
  const same = SAVED_NAMES.filter(
    (f) => a.fields[f] === undefined || (entry === undefined && (f === 'title' || f === 'code')),
  );
  // The lengths too: MariaDB's utf8mb4_bin pads with spaces (`'a' = 'a '` holds), and a change of trailing spaces is
  // a change (https://mariadb.com/kb/en/character-set-and-collation-overview/#pad-attribute).
  const where = ['id = ?', ...same.map((f) => `${columnName(f)} = ? AND LENGTH(${columnName(f)}) = LENGTH(?)`)].join(
    ' AND ',
  );
  const revision = await tx.increment('snippets', ASSIGNMENTS, 'revision', where, [
    ...SAVED_NAMES.map((f) => next[f]),
    html,
    from.id,
    ...same.flatMap((f) => [from[f], from[f]]),
  ]);
  if (revision === undefined) return undefined;
  if (entry !== undefined) await indexer?.indexSnippet?.(tx, from.id, entry);
  await charge(a.limits, tx, from.ownerId, await insertRevision(a.limits, tx, from.id, revision, a.now, next));
  return { ...from, ...next, revision };
}

export interface RemoveArgs {
  limits: WriteLimits;
  read: StoredSnippet;
  ifMatch?: string;
}

/** The rows go first: on a full disk the pages they free are what the rest of the transaction writes into. */
async function remove(tx: Tx, a: RemoveArgs): Promise<'deleted' | WriteRefused> {
  const current = await lockedRow(tx, a.read.id);
  if (!current) return a.ifMatch === undefined ? 'gone' : 'precondition';
  if (!ifMatchAllows(a.ifMatch, current.revision)) return 'precondition';
  const bytes = await snippetBytes(tx, current.id);
  await tx.change('DELETE FROM snippets WHERE id = ?', [current.id]);
  await charge(a.limits, tx, current.ownerId, -bytes);
  return 'deleted';
}

/** The transactions by name: what a PortableWork's `op` names (src/store/engine.ts). */
export const transactions = { create, save, remove };

/** The errors of these transactions a caller tells apart by type, built again as such on the main thread (writer-wire.ts). */
export const errorTypes = { OverQuota };
