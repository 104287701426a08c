// Snippet writes: each save stores the row and its revision in one transaction (docs/api.md "History"); a write with
// If-Match changes the row only while it is still at the revision the tag names, compared by the UPDATE itself.
import { Op } from 'sequelize';
import { renderSnippet, Snippet } from '../models';
import { ifMatchAllows } from '../preconditions';
import { SNIPPET_TABLE } from '../schemas/snippet-table';
import type { SnippetFields } from '../schemas/snippet';
import { fieldsOf, isWritable } from '../schemas/table';
import { insertRevision, REVISION_FIELDS } from './revisions';
import { select } from './select';
import { STORED_COLUMNS, STORED_NAMES, withBooleans, type RawRow } from './snippet-columns';
import { writeTransaction, type Tx } from './transaction';

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
const DEFAULTS = Object.fromEntries(fieldsOf(SNIPPET_TABLE).flatMap(([name, field]) => (isWritable(field) && field.default !== undefined ? [[name, field.default]] : [])));

/**
 * How often an update runs again after another process saved the snippet between its read and its write. Each loss
 * means another save went through, so only a crowd of writers on one snippet gets here; it is then told, as after a
 * deadlock, to try again later.
 */
const MAX_SAVE_TRIES = 20;

/** The stored snippet to update or delete: one prepared statement, which leaves out `highlighted` (it can be megabytes). */
export async function snippetForWrite(id: number): Promise<StoredSnippet | null> {
  const [row] = await select<RawRow<StoredSnippet>>(FOR_WRITE, [id]);
  return row ? withBooleans(row) : null;
}

const savedFieldsOf = (s: SavedFields): SavedFields => Object.fromEntries(REVISION_FIELDS.map((f) => [f, s[f]])) as SavedFields;

export async function createSnippet(fields: SnippetFields, ownerId: number): Promise<StoredSnippet> {
  const saved = { ...DEFAULTS, ...fields } as SavedFields;
  const highlighted = await renderSnippet(saved);
  const now = new Date();
  return writeTransaction(async (tx) => {
    const id = await tx.insert(
      `INSERT INTO snippets (created, ${REVISION_FIELDS.join(', ')}, highlighted, owner_id, revision) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1)`,
      [now, ...REVISION_FIELDS.map((f) => saved[f]), highlighted, ownerId],
    );
    await insertRevision(tx, id, 1, now, saved);
    return { ...saved, id, ownerId, revision: 1 };
  });
}

/** The row as it is now, read inside the transaction (after an UPDATE or DELETE that found it at another revision). */
async function currentRow(tx: Tx, id: number): Promise<StoredSnippet | null> {
  const [row] = await tx.select<RawRow<StoredSnippet>>(FOR_WRITE, [id]);
  return row ? withBooleans(row) : null;
}

/** Thrown when MAX_SAVE_TRIES are lost: a conflict, which the caller's retry and then a 503 handle as a deadlock. */
function crowded(): Error {
  return Object.assign(new Error('a snippet save lost to other saves too often'), { code: 'ER_LOCK_DEADLOCK' });
}

/**
 * Saves `fields` over the stored snippet as a new revision: the fields left out keep their stored values, and
 * `highlighted` is rendered again (before the transaction: a rendering can take the whole highlighting deadline).
 * The UPDATE names the revision it starts from, so a save made meanwhile (by another process) is never overwritten
 * unseen: the write starts again from the row as it now is, and with If-Match is refused when the tag no longer matches.
 */
export async function updateSnippet(read: StoredSnippet, fields: SnippetWrite, ifMatch?: string): Promise<StoredSnippet | WriteRefused> {
  let current = read;
  let rendered: { key: string; html: string } | undefined;
  for (let tries = 1; tries <= MAX_SAVE_TRIES; tries++) {
    if (!ifMatchAllows(ifMatch, current.revision)) return 'precondition';
    const next = { ...savedFieldsOf(current), ...fields } as SavedFields;
    const key = JSON.stringify(next);
    if (rendered?.key !== key) rendered = { key, html: await renderSnippet(next) };
    const { html } = rendered;
    const from = current;
    const revision = from.revision + 1;
    const now = new Date();
    const outcome = await writeTransaction(async (tx): Promise<{ saved: StoredSnippet } | { now: StoredSnippet | null }> => {
      const changed = await tx.change(
        `UPDATE snippets SET ${REVISION_FIELDS.map((f) => `${f} = ?`).join(', ')}, highlighted = ?, revision = ? WHERE id = ? AND revision = ?`,
        [...REVISION_FIELDS.map((f) => next[f]), html, revision, from.id, from.revision],
      );
      if (!changed) return { now: await currentRow(tx, from.id) };
      await insertRevision(tx, from.id, revision, now, next);
      return { saved: { ...from, ...next, revision } };
    });
    if ('saved' in outcome) return outcome.saved;
    if (!outcome.now) return ifMatch === undefined ? 'gone' : 'precondition';
    current = outcome.now;
  }
  throw crowded();
}

/** Deletes the snippet and, by the foreign key's cascade, its revisions; with If-Match only at a revision it names. */
export async function deleteSnippet(read: StoredSnippet, ifMatch?: string): Promise<'deleted' | WriteRefused> {
  if (ifMatch === undefined) {
    const deleted = await writeTransaction((tx) => tx.change('DELETE FROM snippets WHERE id = ?', [read.id]));
    return deleted ? 'deleted' : 'gone';
  }
  let current: StoredSnippet | null = read;
  for (let tries = 1; tries <= MAX_SAVE_TRIES; tries++) {
    if (!current || !ifMatchAllows(ifMatch, current.revision)) return 'precondition';
    const from: StoredSnippet = current;
    const outcome: { deleted: true } | { now: StoredSnippet | null } = await writeTransaction(async (tx) =>
      (await tx.change('DELETE FROM snippets WHERE id = ? AND revision = ?', [from.id, from.revision])) ? { deleted: true } : { now: await currentRow(tx, from.id) },
    );
    if ('deleted' in outcome) return 'deleted';
    current = outcome.now;
  }
  throw crowded();
}

/** The stored highlighted document, or undefined. */
export async function highlightedOf(id: number): Promise<string | undefined> {
  const [row] = await select<{ highlighted: string }>('SELECT highlighted FROM snippets WHERE id = ?', [id]);
  return row?.highlighted;
}

/** For re-rendering every snippet: how many have an id above `afterId`, and the next batch of them by id. */
export function countSnippetsAfter(afterId: number): Promise<number> {
  return Snippet.count({ where: { id: { [Op.gt]: afterId } } });
}

export function snippetsAfter(afterId: number, limit: number): Promise<Snippet[]> {
  return Snippet.findAll({
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
