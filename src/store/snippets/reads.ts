// Snippets as the API shows them, read straight from the tables a page at a time, owner names joined, `highlighted` never read.
import type { Store } from '../database';
import { select, selectMany } from '../select';
import type { Snippet } from '../../snippets/schema';
import { columnName } from '../../models/columns';
import { SNIPPET_FIELDS, type RawRow } from './columns';
import type { FieldSpec } from '../../schemas/table';
import { PLAIN_LIST, type ListSelection } from './selection';
import type { Bounds } from '../search';
import { PAGE_BYTES, rowBytes, rowsWithin } from '../page-budget';
import { windowOf, type Window } from './scan-window';
import { keyOrder, listOrder, pastKey, whereOf, type Key } from '../keyset';

/** Where each key of the representation comes from: the snippet's column, or the joined owner's username. */
const sqlOf = (name: string, field: FieldSpec) => (field.kind === 'owner' ? 'u.username' : `s.${columnName(name)}`);
const SNIPPET_COLUMNS = SNIPPET_FIELDS.map(([name, field]) => `${sqlOf(name, field)} AS ${name}`).join(', ');
/** The code of a row whose code and title are at most `?` bytes; NULL for a larger one, whose text is not read. */
const CODE_WITHIN = `CASE WHEN ${rowBytes('s')} <= ? THEN s.${columnName('code')} END AS code`;
/** The representation's columns with the code read only within a bound (CODE_WITHIN), for the first read of a page. */
const SNIPPET_COLUMNS_WITHIN = SNIPPET_FIELDS.map(([name, field]) =>
  name === 'code' ? CODE_WITHIN : `${sqlOf(name, field)} AS ${name}`,
).join(', ');
/** The result columns of a page's rows: the representation's and the key's, and the first read's sizes. */
const PAGE_COLUMNS = [...SNIPPET_FIELDS.map(([name]) => name), 'created'];
const SIZED_COLUMNS = [...PAGE_COLUMNS, 'size'];

/** Snippets first, then each one's owner: the list is read in the order of the (created, id) index. */
const SNIPPET_FROM = (store: Store) => `FROM ${store.engine.snippetsWithOwners}`;

type SnippetRow = RawRow<Snippet>;

/** The representation, keys in the spec's order; extra keys of the row (a model's `created`, `highlighted`…) are left out. */
export function toSnippet(row: SnippetRow): Snippet {
  const snippet: Record<string, unknown> = {};
  for (const [name, field] of SNIPPET_FIELDS) snippet[name] = field.kind === 'boolean' ? Boolean(row[name]) : row[name];
  return snippet as Snippet;
}

/** The snippet and the revision it is at, read in one statement: the revision is its ETag, which must name this very body. */
export async function snippetById(
  store: Store,
  id: number,
): Promise<{ snippet: Snippet; revision: number } | undefined> {
  const [row] = await select<SnippetRow & { revision: number }>(
    store,
    `SELECT ${SNIPPET_COLUMNS}, s.revision AS revision ${SNIPPET_FROM(store)} WHERE s.id = ?`,
    [id],
  );
  return row && { snippet: toSnippet(row), revision: Number(row.revision) };
}

/** The bounds of a page with the search index's condition for its `wanted` rows added, when the selection has one. */
async function narrowed(
  selection: ListSelection,
  bounds: Bounds,
  wanted: number,
): Promise<{ where: string[]; params: unknown[] }> {
  if (!selection.index) return bounds;
  const condition = await selection.index.page(bounds, wanted);
  // Each in parentheses: the plain list's position is an OR written bare.
  return {
    where: [...bounds.where.map((w) => `(${w})`), condition.where],
    params: [...bounds.params, ...condition.params],
  };
}

/** The rows after a key in the list's direction, within the selection's conditions. */
function afterKey(selection: ListSelection, after: Key): { where: string[]; params: unknown[] } {
  const past = pastKey(after, selection.descending ? '<' : '>');
  return { where: [...selection.where, past.where], params: [...selection.params, ...past.params] };
}

export class InvalidCursor extends Error {}

/** The key as a cursor; a filtered or reversed list's cursor also carries its filter key (src/snippets/query.ts). */
export function encodeCursor(key: Key, filterKey?: string): string {
  const created = key.created instanceof Date ? key.created.toISOString() : key.created;
  return Buffer.from(JSON.stringify(filterKey ? [created, key.id, filterKey] : [created, key.id])).toString(
    'base64url',
  );
}

function decodeCursor(store: Store, cursor: string): Key {
  try {
    const [created, id, filterKey] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    // The filter key was checked against the request's filters by the input schema.
    if (
      typeof created === 'string' &&
      Number.isSafeInteger(id) &&
      (filterKey === undefined || typeof filterKey === 'string')
    ) {
      return { created: store.engine.cursorTime(created) as string | Date, id: id as number };
    }
  } catch {
    // fall through
  }
  throw new InvalidCursor('Invalid cursor');
}

/**
 * The conditions of a page within `bounds`: a search's narrowed to its window (src/store/snippets/scan-window.ts), then to
 * its index's matches (checked already) or its costly checks; `end` is where its window stops short of the list's end.
 */
async function pageConditions(
  store: Store,
  selection: ListSelection,
  bounds: Bounds,
  wanted: number,
  inclusive: boolean,
): Promise<{ where: string[]; params: unknown[]; end?: Key }> {
  const window: Window | undefined = selection.scan && (await windowOf(store, selection.scan, bounds, inclusive));
  const { where, params } = await narrowed(selection, window?.bounds ?? bounds, wanted);
  if (!window || selection.index) return { where, params, end: window?.end };
  return {
    where: [...where, ...window.check],
    params: [...params, ...window.params],
    end: window.end,
  };
}

/**
 * A search page's rows by the ids its statement of sizes found: its costly checks (each term looked for in the row's
 * lowered text) ran there, and would run again on every row examined up to the last one kept (docs/search.md, "One
 * check a row"). The placeholders come in powers of two, the last id repeated to fill them: a few prepared statements
 * in all (each is kept for the life of its connection, and MariaDB caps a server's count), not one for each page size.
 */
function keptIds(kept: readonly Key[]): { where: string[]; params: unknown[] } {
  const ids = kept.map((r) => r.id);
  const slots = 2 ** Math.ceil(Math.log2(ids.length));
  while (ids.length < slots) ids.push(ids[ids.length - 1]!);
  return { where: [`s.id IN (${ids.map(() => '?').join(', ')})`], params: ids };
}

/** The page's conditions, up to its last kept row (inclusive) in the list's direction. */
function throughKey(where: string[], params: unknown[], last: Key, selection: ListSelection) {
  const through = pastKey(last, selection.descending ? '>' : '<', true);
  return { where: [...where, through.where], params: [...params, ...through.params] };
}

/**
 * Up to `limit` snippets after a key, in list order, no more than PAGE_BYTES of code after the first
 * (src/store/page-budget.ts), the key of the last one, and whether more follow. Keyset paging: a page never skips or
 * repeats a snippet, whatever is added meanwhile. The first statement reads the keys and sizes of the page's rows (one
 * more, to know whether more follow) and, of each row no larger than an even share of PAGE_BYTES, its text: at most
 * PAGE_BYTES in all. When every row that fits the page came with its text (small snippets, the usual page), that is
 * the page; otherwise a second statement reads the rows up to the last key that fits, so that no more text is read
 * than the page holds; a search's second statement reads its rows by their ids, its checks not run again.
 */
async function snippetsAfter(
  store: Store,
  after: Key | undefined,
  limit: number,
  selection: ListSelection,
): Promise<{ items: Snippet[]; last?: Key; more: boolean }> {
  const { where, params, end } = await pageConditions(
    store,
    selection,
    { ...(after ? afterKey(selection, after) : selection), descending: selection.descending },
    limit + 1,
    true,
  );
  const order = listOrder(selection.descending);
  const share = Math.floor(PAGE_BYTES / (limit + 1));
  const resultOrder = keyOrder(selection.descending, '');
  const sized = await selectMany<SnippetRow & Key & { size: number | string }>(
    store,
    `SELECT ${SNIPPET_COLUMNS_WITHIN}, s.created, ${rowBytes('s')} AS size ${SNIPPET_FROM(store)}${whereOf(where)} ${order} LIMIT ?`,
    [share, ...params, limit + 1],
    SIZED_COLUMNS,
    resultOrder,
    selection.kind,
  );
  const kept = rowsWithin(
    sized.map((r) => r.size),
    limit,
  );
  // A search page whose window ended short of the list hands the rows past it to its cursor: the window's last row.
  if (!kept) return end ? { items: [], last: end, more: true } : { items: [], more: false };
  const lastKept = sized[kept - 1]!;
  const whole = sized.slice(0, kept);
  let rows: (SnippetRow & Key)[] = whole;
  if (whole.some((r) => Number(r.size) > share)) {
    // Some came without their text: a search's rows read again by their ids (its checks not run again), a list's by
    // its conditions up to the last key kept.
    const chosen = selection.scan ? keptIds(whole) : throughKey(where, params, lastKept, selection);
    rows = await selectMany<SnippetRow & Key>(
      store,
      `SELECT ${SNIPPET_COLUMNS}, s.created ${SNIPPET_FROM(store)}${whereOf(chosen.where)} ${order} LIMIT ?`,
      [...chosen.params, kept],
      PAGE_COLUMNS,
      resultOrder,
      selection.kind,
    );
  }
  const last = rows[rows.length - 1];
  // A snippet added or deleted between the two statements moves the page's end: the cursor is the last row sent.
  const more = sized.length > kept || (last !== undefined && Number(last.id) !== Number(lastKept.id));
  const items = rows.map(toSnippet);
  if (!more && end) return { items, last: end, more: true };
  return { items, last: last && { created: last.created, id: last.id }, more };
}

/** One page for `?limit=N&cursor=…`; `next` is absent on the last page. */
export async function snippetPage(
  store: Store,
  limit: number,
  cursor?: string,
  selection: ListSelection = PLAIN_LIST,
): Promise<{ items: Snippet[]; next?: string }> {
  const { items, last, more } = await snippetsAfter(
    store,
    cursor ? decodeCursor(store, cursor) : undefined,
    limit,
    selection,
  );
  return { items, next: more && last ? encodeCursor(last, selection.key) : undefined };
}

/**
 * The cursor of the page before the one `cursor` starts, for the browsable list's Previous link: the `limit` snippets
 * up to the cursor's key (no more than a page's bytes), read backwards. `{}` when that page is the first one (it has
 * no cursor); undefined when nothing comes before the cursor (the page is the first already). The JSON API has no
 * such link: its paging runs one way, and the previous page is an ordinary forward page from this cursor.
 */
export async function previousCursor(
  store: Store,
  limit: number,
  cursor: string,
  selection: ListSelection = PLAIN_LIST,
): Promise<{ cursor?: string } | undefined> {
  const key = decodeCursor(store, cursor);
  // Backwards: the other direction, the cursor's own snippet included.
  const past = pastKey(key, selection.descending ? '>' : '<', true);
  const bounds = {
    where: [...selection.where, past.where],
    params: [...selection.params, ...past.params],
    descending: !selection.descending,
  };
  // A search reads back through one window at most: the first row past it is then the cursor of the page before.
  const { where, params, end } = await pageConditions(store, selection, bounds, limit + 1, false);
  const rows = await select<Key & { size: number | string }>(
    store,
    `SELECT s.id, s.created, ${rowBytes('s')} AS size FROM ${store.engine.snippetsTable}${whereOf(where)} ${listOrder(!selection.descending)} LIMIT ?`,
    [...params, limit + 1],
    selection.kind,
  );
  if (!rows.length && !end) return undefined;
  // The page before holds what fits in a page (PAGE_BYTES), as a page read forwards from its cursor does.
  const before =
    rows[
      rowsWithin(
        rows.map((r) => r.size),
        limit,
      )
    ] ?? end;
  return before ? { cursor: encodeCursor(before, selection.key) } : {};
}

/** The id of the snippet's owner, or undefined when there is no such snippet. */
export async function snippetOwnerId(store: Store, id: number): Promise<number | undefined> {
  const [row] = await select<{ owner_id: number }>(store, 'SELECT owner_id FROM snippets WHERE id = ?', [id]);
  return row?.owner_id;
}
