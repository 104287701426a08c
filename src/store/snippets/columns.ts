// The snippet table's fields in SQL: the column each is read from, and the values the drivers return converted back.
import { columnName } from '../../models/columns';
import { SNIPPET_TABLE } from '../../schemas/snippet-table';
import { fieldsOf, isStored, isWritable } from '../../schemas/table';
import type { SnippetFields } from '../../snippets/schema';

/** Every field, in the representation's order. */
export const SNIPPET_FIELDS = fieldsOf(SNIPPET_TABLE);

/** The fields stored in the snippets row (the owner is the owner_id reference). */
export const STORED_NAMES = SNIPPET_FIELDS.filter(([, field]) => isStored(field)).map(([name]) => name);

/** Each field's column, `column AS name` where they differ: a SELECT list whose rows carry the fields' names. */
const selectList = (names: readonly string[]) =>
  names.map((name) => (columnName(name) === name ? name : `${columnName(name)} AS ${name}`)).join(', ');

/** The stored fields, for raw SELECTs whose rows become model instances. */
export const STORED_COLUMNS = selectList(STORED_NAMES);

/**
 * The fields a save writes, in the row and in its revision: every writable one (the id and the owner are the row's
 * own). The INSERTs, the UPDATE and the revisions' SELECTs name these, so a new field of the table is saved and kept in
 * the history with no list of columns to edit (test/acceptance/field-table.test.ts).
 */
export const SAVED_NAMES = SNIPPET_FIELDS.filter(([, field]) => isWritable(field)).map(
  ([name]) => name,
) as (keyof SnippetFields)[];

/** The saved fields' columns, in SAVED_NAMES' order, for an INSERT's or an UPDATE's column list. */
export const SAVED_COLUMNS = SAVED_NAMES.map(columnName);

/** The saved fields, for a SELECT of a row or a revision. */
export const SAVED_SELECT = selectList(SAVED_NAMES);

/** `n` placeholders, for a VALUES list. */
export const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(', ');

const BOOLEANS = SNIPPET_FIELDS.filter(([, field]) => field.kind === 'boolean').map(([name]) => name);

/** A raw row with SQLite's 0/1 (MySQL's TINYINT) for booleans. */
export type RawRow<T> = { [K in keyof T]: T[K] extends boolean ? number | boolean : T[K] };

/** The row's booleans as booleans: raw queries bypass the model's types. */
export function withBooleans<T extends object>(row: RawRow<T>): T {
  const converted: Record<string, unknown> = { ...row };
  for (const name of BOOLEANS) if (name in converted) converted[name] = Boolean(converted[name]);
  return converted as T;
}
