// Snippets as the API shows them, read straight from the tables: one query per list, owner names joined, `highlighted` never read.
import { isSqlite, type Store } from './database';
import { select } from './select';
import type { Snippet } from '../schemas/snippet';
import { columnName } from '../models/columns';
import { SNIPPET_FIELDS, type RawRow } from './snippet-columns';
import type { FieldSpec } from '../schemas/table';

/** Where each key of the representation comes from: the snippet's column, or the joined owner's username. */
const sqlOf = (name: string, field: FieldSpec) => (field.kind === 'owner' ? 'u.username' : `s.${columnName(name)}`);
const SNIPPET_COLUMNS = SNIPPET_FIELDS.map(([name, field]) => `${sqlOf(name, field)} AS ${name}`).join(', ');
/**
 * Snippets first, then each one's owner: the list is read in the order of the (created, id) index. With few users and
 * many snippets MariaDB's planner read users first and sorted every snippet in a temporary table for each page
 * (44 pages of 100 a second, 7,000 snippets, the server's CPU at 140%); STRAIGHT_JOIN keeps MySQL to the written
 * order, as SQLite's planner already does.
 */
const SNIPPET_JOIN = { sqlite: 'JOIN', mysql: 'STRAIGHT_JOIN' };
const SNIPPET_FROM = (store: Store) => `FROM snippets s ${SNIPPET_JOIN[isSqlite(store) ? 'sqlite' : 'mysql']} users u ON u.id = s.owner_id`;

type SnippetRow = RawRow<Snippet>;

/** The representation, keys in the spec's order; extra keys of the row (a model's `created`, `highlighted`…) are left out. */
export function toSnippet(row: SnippetRow): Snippet {
  const snippet: Record<string, unknown> = {};
  for (const [name, field] of SNIPPET_FIELDS) snippet[name] = field.kind === 'boolean' ? Boolean(row[name]) : row[name];
  return snippet as Snippet;
}

/** The snippet and the revision it is at, read in one statement: the revision is its ETag, which must name this very body. */
export async function snippetById(store: Store, id: number): Promise<{ snippet: Snippet; revision: number } | undefined> {
  const [row] = await select<SnippetRow & { revision: number }>(store, `SELECT ${SNIPPET_COLUMNS}, s.revision AS revision ${SNIPPET_FROM(store)} WHERE s.id = ?`, [id]);
  return row && { snippet: toSnippet(row), revision: Number(row.revision) };
}

export async function allSnippets(store: Store): Promise<Snippet[]> {
  return (await select<SnippetRow>(store, `SELECT ${SNIPPET_COLUMNS} ${SNIPPET_FROM(store)} ORDER BY s.created, s.id`)).map(toSnippet);
}

/** A position in the list: the (created, id) of the last snippet seen. */
interface Key {
  created: string | Date;
  id: number;
}

export class InvalidCursor extends Error {}

export function encodeCursor(key: Key): string {
  const created = key.created instanceof Date ? key.created.toISOString() : key.created;
  return Buffer.from(JSON.stringify([created, key.id])).toString('base64url');
}

function decodeCursor(store: Store, cursor: string): Key {
  try {
    const [created, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (typeof created === 'string' && Number.isSafeInteger(id)) {
      // SQLite keeps the text it was given; MySQL compares DATETIME with a Date.
      return { created: isSqlite(store) ? created : new Date(created), id: id as number };
    }
  } catch {
    // fall through
  }
  throw new InvalidCursor('Invalid cursor');
}

/**
 * Up to `limit` rows of `columns` (which include `s.id`) after a key, in list order, the key of the last one, and
 * whether more follow: one query, which reads one row more. Keyset paging: a page never skips or repeats a snippet,
 * whatever is added meanwhile.
 */
async function rowsAfter<T>(store: Store, columns: string, after: Key | undefined, limit: number): Promise<{ rows: T[]; last?: Key; more: boolean }> {
  const rows = after
    ? await select<T & Key>(
        store,
        `SELECT ${columns}, s.created ${SNIPPET_FROM(store)} WHERE s.created > ? OR (s.created = ? AND s.id > ?) ORDER BY s.created, s.id LIMIT ?`,
        [after.created, after.created, after.id, limit + 1],
      )
    : await select<T & Key>(store, `SELECT ${columns}, s.created ${SNIPPET_FROM(store)} ORDER BY s.created, s.id LIMIT ?`, [limit + 1]);
  const more = rows.length > limit;
  if (more) rows.length = limit;
  const last = rows[rows.length - 1];
  return { rows, last: last && { created: last.created, id: last.id }, more };
}

/** Up to `limit` snippets after a key, the key of the last one, and whether more follow. */
async function snippetsAfter(store: Store, after: Key | undefined, limit: number): Promise<{ items: Snippet[]; last?: Key; more: boolean }> {
  const { rows, last, more } = await rowsAfter<SnippetRow>(store, SNIPPET_COLUMNS, after, limit);
  return { items: rows.map(toSnippet), last, more };
}

/** One page for `?limit=N&cursor=…`; `next` is absent on the last page. */
export async function snippetPage(store: Store, limit: number, cursor?: string): Promise<{ items: Snippet[]; next?: string }> {
  const { items, last, more } = await snippetsAfter(store, cursor ? decodeCursor(store, cursor) : undefined, limit);
  return { items, next: more && last ? encodeCursor(last) : undefined };
}

/**
 * The cursor of the page before the one `cursor` starts, for the browsable list's Previous link: the `limit` snippets
 * up to the cursor's key, read backwards. `{}` when that page is the first one (it has no cursor); undefined when
 * nothing comes before the cursor (the page is the first already). The JSON API has no such link: its paging runs one
 * way, and the previous page is an ordinary forward page from this cursor.
 */
export async function previousCursor(store: Store, limit: number, cursor: string): Promise<{ cursor?: string } | undefined> {
  const key = decodeCursor(store, cursor);
  const rows = await select<Key>(
    store,
    'SELECT s.id, s.created FROM snippets s WHERE s.created < ? OR (s.created = ? AND s.id <= ?) ORDER BY s.created DESC, s.id DESC LIMIT ?',
    [key.created, key.created, key.id, limit + 1],
  );
  if (!rows.length) return undefined;
  const before = rows[limit];
  return before ? { cursor: encodeCursor(before) } : {};
}

/** The id of the snippet's owner, or undefined when there is no such snippet. */
export async function snippetOwnerId(store: Store, id: number): Promise<number | undefined> {
  const [row] = await select<{ owner_id: number }>(store, 'SELECT owner_id FROM snippets WHERE id = ?', [id]);
  return row?.owner_id;
}
