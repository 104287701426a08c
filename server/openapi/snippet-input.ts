// The snippet input schema as documented: the generated shape plus the limits and defaults zod refinements hide from the generator.
import type { SchemaObject } from 'openapi3-ts/oas31';
import { MAX_CODE, MAX_TITLE } from '../../src/schemas/snippet';

/** Spec, "Snippet (stored record)": the limits are in characters (code points, as JSON Schema's maxLength counts). */
const FIELD_DOCS: Record<string, SchemaObject> = {
  title: { maxLength: MAX_TITLE, default: '', description: 'May be blank.' },
  code: { maxLength: MAX_CODE, minLength: 1, description: 'The body of the snippet; not blank.' },
  linenos: { default: false, description: 'Line numbers in the highlighted rendering. Forms may send true/false, 1/0, on/off, yes/no.' },
  language: { maxLength: 100, default: 'python', description: 'A supported language name; OPTIONS /snippets/ lists the choices.' },
  style: { maxLength: 100, default: 'friendly', description: 'A supported style name; OPTIONS /snippets/ lists the choices.' },
};

export function snippetInputSchema(generated: SchemaObject): SchemaObject {
  const properties = Object.fromEntries(
    Object.entries(generated.properties ?? {}).map(([name, schema]) => [name, { ...schema, ...FIELD_DOCS[name] }]),
  );
  // Unknown keys (id, owner) are ignored, not refused, so the generator's additionalProperties: false would mislead.
  const { additionalProperties: _closed, ...open } = generated;
  return { ...open, properties, description: 'The writable snippet fields; `owner` always comes from the credentials.' };
}
