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
import { revisionBytes } from './revisions';
import { assertRoomFor } from './usage';
import type { AuthUser } from '../../requester';
import { select } from '../select';
import { STORED_NAMES, withBooleans, type RawRow } from './columns';
import { writeTransaction, type Tx } from '../transaction';
import { WriteConflict } from '../errors';
import {
  FOR_WRITE,
  savedFieldsOf,
  transactions,
  WRITE_OPS_MODULE,
  type SavedFields,
  type SnippetWrite,
  type StoredSnippet,
  type Indexer,
  type WriteLimits,
  type WriteRefused,
} from './write-ops';

export type { SavedFields, SnippetWrite, StoredSnippet, WriteRefused };

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

type Transactions = typeof transactions;

/**
 * Runs the transaction `op` of write-ops.ts with `args`, in this thread or, as a PortableWork, wherever the engine runs
 * its transactions (src/store/engine.ts).
 */
function run<K extends keyof Transactions>(
  store: Store,
  op: K,
  args: Parameters<Transactions[K]>[1],
): ReturnType<Transactions[K]> {
  const work = transactions[op] as (tx: Tx, a: typeof args, indexer: Indexer) => Promise<unknown>;
  return writeTransaction(store, (tx) => work(tx, args, store.engine), {
    module: WRITE_OPS_MODULE,
    op,
    args,
  }) as ReturnType<Transactions[K]>;
}

const limitsOf = (store: Store): WriteLimits => ({
  quotaBytes: store.quotaBytes,
  revisionsKeep: store.revisionsKeep,
  revisionsDaily: store.revisionsDaily,
});

/** The stored snippet to update or delete: one prepared statement, which leaves out `highlighted` (it can be megabytes). */
export async function snippetForWrite(store: Store, id: number): Promise<StoredSnippet | null> {
  const [row] = await select<RawRow<StoredSnippet>>(store, FOR_WRITE, [id]);
  return row ? withBooleans(row) : null;
}

/**
 * A new snippet of `owner` (the request's user, with the count its credential's lookup read: usage.ts assertRoomFor).
 * `clock` times the revision (ms since the epoch: the runtime's clock, which the revision thinning goes by).
 */
export async function createSnippet(
  store: Store,
  fields: SnippetFields,
  owner: AuthUser,
  clock: () => number = Date.now,
): Promise<StoredSnippet> {
  const saved = { ...DEFAULTS, ...fields } as SavedFields;
  const bytes = revisionBytes(saved);
  const ownerId = owner.id;
  await assertRoomFor(store, owner, bytes);
  const [highlighted, entry] = await Promise.all([
    store.models.Snippet.render(saved),
    store.engine.searchEntry?.(saved.title, saved.code),
  ]);
  const now = new Date(clock());
  return run(store, 'create', { limits: limitsOf(store), saved, highlighted, ownerId, now, entry, bytes });
}

/**
 * Saves `fields` over the stored snippet as a new revision: the fields left out keep their stored values, and
 * `highlighted` is rendered again, before the transaction (a rendering can take the whole highlighting deadline).
 * The transaction (write-ops.ts `save`) judges If-Match on the row it changes; should a field left out have changed
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
    if (rendered?.key !== key) {
      // The search index's entry only for a new title or code: an update of other fields pays nothing for it.
      const textChanges = next.title !== basis.title || next.code !== basis.code;
      const [html, entry] = await Promise.all([
        store.models.Snippet.render(next),
        textChanges ? store.engine.searchEntry?.(next.title, next.code) : undefined,
      ]);
      rendered = { key, html, entry };
    }
    const { html, entry } = rendered;
    const now = new Date(clock());
    const outcome = await run(store, 'save', {
      limits: limitsOf(store),
      from: basis,
      fields,
      next,
      key,
      html,
      entry,
      ifMatch,
      now,
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
 * with If-Match only at a revision it names.
 */
export async function deleteSnippet(
  store: Store,
  read: StoredSnippet,
  ifMatch?: string,
): Promise<'deleted' | WriteRefused> {
  if (!ifMatchAllows(ifMatch, read.revision)) return 'precondition';
  return run(store, 'remove', { limits: limitsOf(store), read, ifMatch });
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
