// What a field table is: each field's kind, label, limits, default and choices, from which the shapes, the model and the facade's descriptions are derived.
import type { Choice } from '../highlight';

/** The allowed values of a choice, sorted, and the check of one value against them. */
export interface ChoiceSource {
  list: readonly Choice[];
  isValid: (name: string) => boolean;
}

interface Described {
  /** DRF's label, shown by OPTIONS and the form. */
  label: string;
  /** For the OpenAPI document. */
  description: string;
}

/** A written string is either required (no default) or optional with the default the store fills in. */
type Requirement<T> = { required: true; default?: never } | { required?: false; default: T };

export type FieldSpec =
  /** The primary key, assigned by the store. */
  | { kind: 'id'; label: string; readOnly: true }
  /** The owner's username: filled from the credentials, never from input (spec, "Snippet (stored record)"). */
  | { kind: 'owner'; label: string; readOnly: true }
  /** A VARCHAR of `maxLength` characters (`string`), or a long text limited to `maxLength` on input (`text`). */
  | (Described & { kind: 'string' | 'text'; maxLength: number; blank: boolean } & Requirement<string>)
  | (Described & { kind: 'boolean'; default: boolean })
  /** One of `choices`, stored in a VARCHAR of `maxLength`. */
  | (Described & { kind: 'choice'; maxLength: number; choices: ChoiceSource; default: string });

export type FieldTable = Readonly<Record<string, FieldSpec>>;

export type WritableSpec = Exclude<FieldSpec, { readOnly: true }>;
/** The fields stored in the row itself (the owner is a reference to a user). */
export type StoredSpec = Exclude<FieldSpec, { kind: 'owner' }>;

/** The TypeScript type of a field's value. */
export type FieldValue<F extends FieldSpec> = F extends { kind: 'id' }
  ? number
  : F extends { kind: 'boolean' }
    ? boolean
    : string;

export type WritableKey<T extends FieldTable> = {
  [K in keyof T]: T[K] extends { readOnly: true } ? never : K;
}[keyof T];
export type StoredKey<T extends FieldTable> = { [K in keyof T]: T[K] extends { kind: 'owner' } ? never : K }[keyof T];

export const isWritable = (field: FieldSpec): field is WritableSpec => !('readOnly' in field);
export const isStored = (field: FieldSpec): field is StoredSpec => field.kind !== 'owner';
export const isRequired = (field: FieldSpec): boolean => 'required' in field && field.required === true;

/** The table's entries, typed by name, in the table's order. */
export function fieldsOf<T extends FieldTable>(table: T): [keyof T & string, FieldSpec][] {
  return Object.entries(table) as [keyof T & string, FieldSpec][];
}
