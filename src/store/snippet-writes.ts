// Snippet writes, through the model so its beforeSave hook renders `highlighted` (DRF's Snippet.save()).
import { Op, type InferAttributes } from 'sequelize';
import type { Snippet } from '../models';
import type { Store } from './database';
import type { SnippetFields } from '../schemas/snippet';
import { select } from './select';
import { STORED_COLUMNS, STORED_NAMES, withBooleans, type RawRow } from './snippet-columns';

/** The fields an update may set (the owner comes from the caller, never from input); a create also needs the required ones. */
export type SnippetWrite = Partial<SnippetFields>;

/** The representation's stored columns and the owner, as the model names them. */
const FOR_WRITE = `SELECT ${STORED_COLUMNS}, owner_id AS ownerId FROM snippets WHERE id = ?`;

/**
 * The stored snippet as an instance to update or destroy, so the hook still runs. It holds the representation's
 * columns only (`highlighted` can be megabytes), read with one prepared statement, where findByPk would also ask
 * SQLite for the table's columns every time.
 */
export async function snippetForWrite(store: Store, id: number): Promise<Snippet | null> {
  const [row] = await select<RawRow<InferAttributes<Snippet>>>(store, FOR_WRITE, [id]);
  return row ? store.models.Snippet.build(withBooleans(row), { isNewRecord: false, raw: true }) : null;
}

export async function createSnippet(store: Store, fields: SnippetFields, ownerId: number): Promise<Snippet> {
  return store.models.Snippet.create({ ...fields, ownerId });
}

export async function updateSnippet(snippet: Snippet, fields: SnippetWrite): Promise<Snippet> {
  snippet.set(fields);
  return snippet.save();
}

export async function deleteSnippet(snippet: Snippet): Promise<void> {
  await snippet.destroy();
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

/** Renders and stores `highlighted` again (the hook runs on save). */
export async function rehighlightSnippet(snippet: Snippet): Promise<void> {
  await snippet.save({ fields: ['highlighted'] });
}
