// The zod shapes of a field table: the input of a write (writable fields) and the representation (every field, in the table's order).
import { z } from 'zod';
import { booleanField, choice, text } from './fields';
import { notAChoice } from './messages';
import {
  fieldsOf,
  isRequired,
  isWritable,
  type FieldSpec,
  type FieldTable,
  type WritableKey,
  type WritableSpec,
} from './table';

type InputSchema<F> = F extends { kind: 'boolean' } ? typeof booleanField : z.ZodString;
type InputShape<T extends FieldTable> = {
  [K in WritableKey<T>]: T[K] extends { required: true } ? InputSchema<T[K]> : z.ZodOptional<InputSchema<T[K]>>;
};
type OutputSchema<F> = F extends { kind: 'id' }
  ? z.ZodNumber
  : F extends { kind: 'boolean' }
    ? z.ZodBoolean
    : z.ZodString;
type OutputShape<T extends FieldTable> = { [K in keyof T]: OutputSchema<T[K]> };

function inputSchema(field: WritableSpec): z.ZodType {
  switch (field.kind) {
    case 'string':
    case 'text':
      return text(field.maxLength, { blank: field.blank });
    case 'boolean':
      return booleanField;
    case 'choice':
      return choice(field.choices.isValid, notAChoice);
  }
}

function outputSchema(field: FieldSpec): z.ZodType {
  return field.kind === 'id' ? z.number().int() : field.kind === 'boolean' ? z.boolean() : z.string();
}

/** The body of a create or an update: an omitted optional field keeps its default (or stored) value. */
export function inputObject<T extends FieldTable>(table: T): z.ZodObject<InputShape<T>> {
  const shape = fieldsOf(table).flatMap(([name, field]) => {
    if (!isWritable(field)) return [];
    const schema = inputSchema(field);
    return [[name, isRequired(field) ? schema : schema.optional()] as const];
  });
  return z.object(Object.fromEntries(shape)) as unknown as z.ZodObject<InputShape<T>>;
}

/** The representation: exactly the table's keys, in its order. */
export function representationObject<T extends FieldTable>(table: T): z.ZodObject<OutputShape<T>> {
  return z.object(
    Object.fromEntries(fieldsOf(table).map(([name, field]) => [name, outputSchema(field)])),
  ) as unknown as z.ZodObject<OutputShape<T>>;
}
