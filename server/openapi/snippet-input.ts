// The snippet input schema as documented: the generated shape plus the limits and defaults zod refinements hide from the generator.
import type { SchemaObject } from 'openapi3-ts/oas31';
import { SNIPPET_TABLE } from '../../src/schemas/snippet-table';
import { fieldsOf, isWritable, type WritableSpec } from '../../src/schemas/table';

/** Spec, "Snippet (stored record)": the limits are in characters (code points, as JSON Schema's maxLength counts). */
function fieldDoc(field: WritableSpec): SchemaObject {
  const doc: SchemaObject = {};
  if ('maxLength' in field) doc.maxLength = field.maxLength;
  if ((field.kind === 'string' || field.kind === 'text') && !field.blank) doc.minLength = 1;
  if (field.default !== undefined) doc.default = field.default;
  doc.description = field.description;
  return doc;
}

const FIELD_DOCS: Record<string, SchemaObject> = Object.fromEntries(
  fieldsOf(SNIPPET_TABLE).flatMap(([name, field]) => (isWritable(field) ? [[name, fieldDoc(field)]] : [])),
);

export function snippetInputSchema(generated: SchemaObject): SchemaObject {
  const properties = Object.fromEntries(
    Object.entries(generated.properties ?? {}).map(([name, schema]) => [name, { ...schema, ...FIELD_DOCS[name] }]),
  );
  return {
    ...generated,
    properties,
    description: 'The writable snippet fields; `owner` always comes from the credentials.',
  };
}
