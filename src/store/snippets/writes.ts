// Snippet writes: each save stores the row and its revision in one transaction (docs/api.md "History"); a write with
// If-Match changes the row only while it is still at the revision the tag names, judged on the row locked in that
// transaction.
import { Op } from 'sequelize';
import type { Snippet } from '../../models';
import type { Store } from '../database';
import { ifMatchAllows } from '../../snippets/preconditions';
import { SNIPPET_TABLE } from '../../schemas/snippet-table';
import type { SnippetFields } from '../../snippets/schema';
import { fieldsOf, isWritable } from '../../schemas/table';
import { insertRevision, revisionBytes, snippetBytes } from './revisions';
import { assertRoomFor, charge } from './usage';
import { select } from '../select';
import {
  placeholders,
  SAVED_COLUMNS,
  SAVED_NAMES,
  STORED_COLUMNS,
  STORED_NAMES,
  withBooleans,
  type RawRow,
} from './columns';
import { writeTransaction, type Tx } from '../transaction';
import { WriteConflict } from '../errors';

/** The fields an update may set (the owner comes from the caller, never from input); a create also needs the required ones. */
export type SnippetWrite = Partial<SnippetFields>;

/** Every saved field of a snippet, as stored. */
export type SavedFields = Required<SnippetFields>;

/** The stored snippet a write starts from: its fields, its owner, and the revision it is at. */
export type StoredSnippet = SavedFields & { id: number; ownerId: number; revision: number };

/** Why a conditional write did not happen: If-Match names another revision, or the snippet is gone. */
export type WriteRefused = 'precondition' | 'gone';

/** The representation's stored columns, the owner and the revision, as the model names them. */
const FOR_WRITE = `SELECT ${STORED_COLUMNS}, owner_id AS ownerId, revision FROM snippets WHERE id = ?`;

/** The defaults of the optional fields (the field table's), for a create that omits them. */
const DEFAULTS = Object.fromEntries(
  fieldsOf(SNIPPET_TABLE).flatMap(([name, field]) =>
    isWritable(field) && field.default !== undefined ? [[name, field.default]] : [],
  ),
);

/**
 * How often an update renders again because a field it leaves out was changed by another save meanwhile (its
 * rendering then no longer matches the row): only a crowd of writers changing different fields of one snippet gets
 * past a few.
 */
const MAX_SAVE_TRIES = 20;

/** The stored snippet to update or delete: one prepared statement, which leaves out `highlighted` (it can be megabytes). */
export async function snippetForWrite(store: Store, id: number): Promise<StoredSnippet | null> {
  const [row] = await select<RawRow<StoredSnippet>>(store, FOR_WRITE, [id]);
  return row ? withBooleans(row) : null;
}

const savedFieldsOf = (s: SavedFields): SavedFields =>
  Object.fromEntries(SAVED_NAMES.map((f) => [f, s[f]])) as SavedFields;

const INSERT_SQL = `INSERT INTO snippets (created, ${SAVED_COLUMNS.join(', ')}, highlighted, owner_id, revision) VALUES (${placeholders(SAVED_NAMES.length + 3)}, 1)`;

/** `clock` times the revision (ms since the epoch: the runtime's clock, which the revision thinning goes by). */
export async function createSnippet(
  store: Store,
  fields: SnippetFields,
  ownerId: number,
  clock: () => number = Date.now,
): Promise<StoredSnippet> {
  const saved = { ...DEFAULTS, ...fields } as SavedFields;
  await assertRoomFor(store, ownerId, revisionBytes(saved));
  const [highlighted, entry] = await Promise.all([
    store.models.Snippet.render(saved),
    store.engine.searchEntry?.(saved.title, saved.code),
  ]);
  const now = new Date(clock());
  return writeTransaction(store, async (tx) => {
    // The owner's count first: on MySQL/MariaDB its row lock is then taken before the INSERT's foreign-key check
    // share-locks the same row, which two creates of one user would otherwise both hold and deadlock on.
    await charge(store, tx, ownerId, revisionBytes(saved));
    const id = await tx.insert(INSERT_SQL, [now, ...SAVED_NAMES.map((f) => saved[f]), highlighted, ownerId]);
    // Revision 1 is never thinned: the count above is its size.
    await insertRevision(store, tx, id, 1, now, saved);
    if (entry !== undefined) await store.engine.indexSnippet?.(tx, id, entry);
    return { ...saved, id, ownerId, revision: 1 };
  });
}

/** The row as it is now, read inside the transaction and locked until it ends. */
async function lockedRow(tx: Tx, id: number): Promise<StoredSnippet | null> {
  const [row] = await tx.selectForUpdate<RawRow<StoredSnippet>>(FOR_WRITE, [id]);
  return row ? withBooleans(row) : null;
}

type SaveOutcome = { saved: StoredSnippet } | { refused: WriteRefused } | { stale: StoredSnippet };

const UPDATE_SQL = `UPDATE snippets SET ${SAVED_COLUMNS.map((c) => `${c} = ?`).join(', ')}, highlighted = ?, revision = ? WHERE id = ? AND revision = ?`;

/**
 * Saves `fields` over the stored snippet as a new revision: the fields left out keep their stored values, and
 * `highlighted` is rendered again, before the transaction (a rendering can take the whole highlighting deadline).
 * The UPDATE names the revision the save started from, so it is also the If-Match check, made by the database with
 * the write itself. When another save came first (the UPDATE changes nothing), the row is read again, locked, inside
 * the same transaction: If-Match is judged on it, and the save goes on top of it. Should a field left out have changed
 * meanwhile, the rendering is stale: it is made again from the row as it now is.
 */
export async function updateSnippet(
  store: Store,
  read: StoredSnippet,
  fields: SnippetWrite,
  ifMatch?: string,
  clock: () => number = Date.now,
): Promise<StoredSnippet | WriteRefused> {
  let basis = read;
  let rendered: { key: string; html: string; entry?: string } | undefined;
  for (let tries = 1; tries <= MAX_SAVE_TRIES; tries++) {
    if (!ifMatchAllows(ifMatch, basis.revision)) return 'precondition';
    const next = { ...savedFieldsOf(basis), ...fields } as SavedFields;
    const key = JSON.stringify(next);
    const textChanges = (from: SavedFields) => next.title !== from.title || next.code !== from.code;
    if (rendered?.key !== key) {
      // The search index's entry only for a new title or code: an update of other fields pays nothing for it.
      const [html, entry] = await Promise.all([
        store.models.Snippet.render(next),
        textChanges(basis) ? store.engine.searchEntry?.(next.title, next.code) : undefined,
      ]);
      rendered = { key, html, entry };
    }
    const { html, entry } = rendered;
    const now = new Date(clock());
    const save = async (tx: Tx, from: StoredSnippet): Promise<boolean> => {
      const revision = from.revision + 1;
      if (!(await tx.change(UPDATE_SQL, [...SAVED_NAMES.map((f) => next[f]), html, revision, from.id, from.revision])))
        return false;
      // The search index, where the engine keeps it, when the text changed (docs/search.md); the entry is worked out
      // here only when another save changed the text under this one, which sets it back to the text it started from.
      const indexed = textChanges(from)
        ? (entry ?? (await store.engine.searchEntry?.(next.title, next.code)))
        : undefined;
      if (indexed !== undefined) await store.engine.indexSnippet?.(tx, from.id, indexed);
      await charge(store, tx, from.ownerId, await insertRevision(store, tx, from.id, revision, now, next));
      return true;
    };
    const from = basis;
    const outcome = await writeTransaction(store, async (tx): Promise<SaveOutcome> => {
      if (await save(tx, from)) return { saved: { ...from, ...next, revision: from.revision + 1 } };
      const current = await lockedRow(tx, from.id);
      if (!current) return { refused: ifMatch === undefined ? 'gone' : 'precondition' };
      if (!ifMatchAllows(ifMatch, current.revision)) return { refused: 'precondition' };
      if (JSON.stringify({ ...savedFieldsOf(current), ...fields }) !== key || !(await save(tx, current)))
        return { stale: current };
      return { saved: { ...current, ...next, revision: current.revision + 1 } };
    });
    if ('saved' in outcome) return outcome.saved;
    if ('refused' in outcome) return outcome.refused;
    basis = outcome.stale;
  }
  // A conflict, which the caller's retry and then a 503 handle as a lost deadlock.
  throw new WriteConflict('a snippet save found its fields changed under it too often');
}

/**
 * Deletes the snippet and, by the foreign key's cascade, its revisions, and gives their bytes back to the owner's quota;
 * with If-Match only at a revision it names. The rows go first: on a full disk the pages they free are what the rest
 * of the transaction writes into.
 */
export async function deleteSnippet(
  store: Store,
  read: StoredSnippet,
  ifMatch?: string,
): Promise<'deleted' | WriteRefused> {
  if (!ifMatchAllows(ifMatch, read.revision)) return 'precondition';
  return writeTransaction(store, async (tx) => {
    const current = await lockedRow(tx, read.id);
    if (!current) return ifMatch === undefined ? 'gone' : 'precondition';
    if (!ifMatchAllows(ifMatch, current.revision)) return 'precondition';
    const bytes = await snippetBytes(tx, current.id);
    await tx.change('DELETE FROM snippets WHERE id = ?', [current.id]);
    await charge(store, tx, current.ownerId, -bytes);
    return 'deleted';
  });
}

/** The stored highlighted document, or undefined. */
export async function highlightedOf(store: Store, id: number): Promise<string | undefined> {
  const [row] = await select<{ highlighted: string }>(store, 'SELECT highlighted FROM snippets WHERE id = ?', [id]);
  return row?.highlighted;
}

/** For re-rendering every snippet: how many have an id above `afterId`, and the next batch of them by id. */
export function countSnippetsAfter(store: Store, afterId: number): Promise<number> {
  return store.models.Snippet.count({ where: { id: { [Op.gt]: afterId } } });
}

export function snippetsAfter(store: Store, afterId: number, limit: number): Promise<Snippet[]> {
  return store.models.Snippet.findAll({
    attributes: [...STORED_NAMES, 'highlighted', 'ownerId'],
    where: { id: { [Op.gt]: afterId } },
    order: [['id', 'ASC']],
    limit,
  });
}

/** Renders and stores `highlighted` again (the hook runs on save); a rendering is not a revision. */
export async function rehighlightSnippet(snippet: Snippet): Promise<void> {
  await snippet.save({ fields: ['highlighted'] });
}
