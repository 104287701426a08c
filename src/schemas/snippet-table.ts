// The snippet's fields, written once (spec, "Snippet (stored record)"), in the representation's order: everything else derives from this table.
import { isLanguage, isStyle, LANGUAGE_CHOICES, STYLE_CHOICES } from '../highlight';
import type { FieldTable } from './table';

/**
 * Not here: `created` and `highlighted`, which the model keeps (src/models/snippet.ts) but no representation shows
 * (DESIGN §3). A new field is an entry here and a migration that adds its column to `snippets` and, for a writable
 * field, to `snippet_revisions` (every save keeps its writable fields there: src/store/snippets/columns.ts). Proven by
 * test/acceptance/field-table.test.ts (each writable field through POST, GET, PUT, the revisions and a restore) and
 * test/src/schemas/snippet-table.test.ts (both tables have each column).
 */
export const SNIPPET_TABLE = {
  id: { kind: 'id', label: 'ID', readOnly: true },
  owner: { kind: 'owner', label: 'Owner', readOnly: true },
  title: { kind: 'string', label: 'Title', maxLength: 100, blank: true, default: '', description: 'May be blank.' },
  code: {
    kind: 'text',
    label: 'Code',
    maxLength: 100000,
    blank: false,
    required: true,
    description: 'The body of the snippet; not blank.',
  },
  linenos: {
    kind: 'boolean',
    label: 'Linenos',
    default: false,
    description: 'Line numbers in the highlighted rendering. Forms may send true/false, 1/0, on/off, yes/no.',
  },
  language: {
    kind: 'choice',
    label: 'Language',
    maxLength: 100,
    choices: { list: LANGUAGE_CHOICES, isValid: isLanguage },
    default: 'python',
    description: 'A supported language name; OPTIONS /snippets/ lists the choices.',
  },
  style: {
    kind: 'choice',
    label: 'Style',
    maxLength: 100,
    choices: { list: STYLE_CHOICES, isValid: isStyle },
    default: 'friendly',
    description: 'A supported style name; OPTIONS /snippets/ lists the choices.',
  },
} as const satisfies FieldTable;

export type SnippetTable = typeof SNIPPET_TABLE;
