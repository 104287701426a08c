// The snippets' store: every read and write of a snippet and its revisions the procedures make, bound to one database.
// The procedures reach it as ctx.runtime.store.snippets (src/runtime.ts), so a request reads router → this store →
// the engine's driver (src/store/sqlite/, src/store/mysql/).
import type { Store } from '../database';
import type { AuthUser } from '../../requester';
import type { SearchTerms } from '../search';
import type { Revision } from '../../snippets/revision';
import type { SnippetFilters } from '../../snippets/query';
import type { Snippet, SnippetFields, SnippetPage } from '../../snippets/schema';
import { previousCursor, snippetById, snippetOwnerId, snippetPage } from './reads';
import { lastSaved, revisionBelow, revisionOf, revisionsBefore } from './revisions';
import { selectionOf } from './selection';
import {
  createSnippet,
  deleteSnippet,
  highlightedOf,
  snippetForWrite,
  updateSnippet,
  type SnippetWrite,
  type StoredSnippet,
  type WriteRefused,
} from './writes';

export { InvalidCursor, toSnippet } from './reads';
export type { StoredSnippet, WriteRefused } from './writes';

/** A list's filters, its search terms (split once: src/snippets/query.ts) and the rows a search page examines at most. */
export interface ListQuery {
  filters: SnippetFilters;
  terms: SearchTerms;
  scanRows: number;
}

export interface SnippetStore {
  /** Up to `limit` snippets of the list after `cursor`, and the next page's cursor; InvalidCursor for a bad one. */
  page(list: ListQuery, limit: number, cursor?: string): Promise<SnippetPage>;
  /** The cursor of the page before the one `cursor` starts (`{}`: the first page; undefined: none before). */
  previousCursor(list: ListQuery, limit: number, cursor: string): Promise<{ cursor?: string } | undefined>;
  /** The snippet and the revision it is at (its ETag), read in one statement. */
  byId(id: number): Promise<{ snippet: Snippet; revision: number } | undefined>;
  /** The stored highlighted document. */
  highlighted(id: number): Promise<string | undefined>;
  /** The id of the snippet's owner, undefined when there is no such snippet. */
  ownerId(id: number): Promise<number | undefined>;
  /** The stored snippet an update or a delete starts from, `highlighted` left out. */
  forWrite(id: number): Promise<StoredSnippet | null>;
  /** A new snippet of `owner` and its revision 1, in one transaction; `clock` times the revision. */
  create(fields: SnippetFields, owner: AuthUser, clock: () => number): Promise<StoredSnippet>;
  /** `fields` saved over `read` as a new revision, if `ifMatch` allows (src/store/snippets/writes.ts). */
  update(
    read: StoredSnippet,
    fields: SnippetWrite,
    ifMatch: string | undefined,
    clock: () => number,
  ): Promise<StoredSnippet | WriteRefused>;
  /** The snippet and its revisions deleted, if `ifMatch` allows. */
  delete(read: StoredSnippet, ifMatch: string | undefined): Promise<'deleted' | WriteRefused>;
  /** Revision `n` of the snippet. */
  revision(id: number, n: number): Promise<Revision | undefined>;
  /** The newest revision kept below `n`. */
  revisionBelow(id: number, n: number): Promise<Revision | undefined>;
  /** Up to `limit` revisions, newest first, below `before` when given, and whether more follow. */
  revisions(id: number, before: number | undefined, limit: number): Promise<{ items: Revision[]; more: boolean }>;
  /** When each of the snippets `ids` that exist was last saved (its current revision's time), in one statement. */
  lastSaved(ids: readonly number[]): Promise<{ id: number; saved: string }[]>;
}

/** The snippets' store on `db`. */
export function snippetStore(db: Store): SnippetStore {
  const selection = (list: ListQuery) => selectionOf(db, list.filters, list.terms, list.scanRows);
  return {
    page: async (list, limit, cursor) => snippetPage(db, limit, cursor, await selection(list)),
    previousCursor: async (list, limit, cursor) => previousCursor(db, limit, cursor, await selection(list)),
    byId: (id) => snippetById(db, id),
    highlighted: (id) => highlightedOf(db, id),
    ownerId: (id) => snippetOwnerId(db, id),
    forWrite: (id) => snippetForWrite(db, id),
    // Every snippet write waits in the process's line beside reads (src/store/write-line.ts).
    create: (fields, owner, clock) => db.writeLine.run(() => createSnippet(db, fields, owner, clock)),
    update: (read, fields, ifMatch, clock) => db.writeLine.run(() => updateSnippet(db, read, fields, ifMatch, clock)),
    delete: (read, ifMatch) => db.writeLine.run(() => deleteSnippet(db, read, ifMatch)),
    revision: (id, n) => revisionOf(db, id, n),
    revisionBelow: (id, n) => revisionBelow(db, id, n),
    revisions: (id, before, limit) => revisionsBefore(db, id, before, limit),
    lastSaved: (ids) => lastSaved(db, ids),
  };
}
