// OPTIONS metadata in DRF's shape: the view, what it renders and parses, and the writes the requester may do.
import { SCOPES } from '../../src/auth/personal-tokens';
import { SNIPPET_TABLE } from '../../src/schemas/snippet-table';
import { fieldsOf, isRequired, isWritable, type FieldSpec } from '../../src/schemas/table';
import { PARSED_MEDIA_TYPES } from '../http/body';
import type { Route } from './routes';

const RENDERED_MEDIA_TYPES = ['application/json', 'text/html'];

type FieldInfo = Record<string, unknown>;

/** DRF's type names; the owner is the tutorial's `ReadOnlyField(source='owner.username')`, which DRF calls a plain `field`. */
const DRF_TYPE: Record<FieldSpec['kind'], string> = {
  id: 'integer',
  owner: 'field',
  string: 'string',
  text: 'string',
  boolean: 'boolean',
  choice: 'choice',
};

/**
 * A field as DRF's SimpleMetadata describes it. `max_length` is the column's, as DRF takes it from the model: a
 * choice shows its choices instead, and a text column has none (code's 100,000 is a limit on input only).
 */
function fieldInfo(field: FieldSpec): FieldInfo {
  const info: FieldInfo = {
    type: DRF_TYPE[field.kind],
    required: isRequired(field),
    read_only: !isWritable(field),
    label: field.label,
  };
  if (field.kind === 'string') info.max_length = field.maxLength;
  if (field.kind === 'choice') info.choices = field.choices.list;
  return info;
}

/** The snippet serializer's fields, from the field table; choices come from the highlighting catalogue, sorted. */
const SNIPPET_FIELDS: Record<string, FieldInfo> = Object.fromEntries(
  fieldsOf(SNIPPET_TABLE).map(([name, field]) => [name, fieldInfo(field)]),
);

/** A personal access token's create fields (src/tokens/schema.ts), as DRF would describe its serializer's. */
const TOKEN_FIELDS: Record<string, FieldInfo> = {
  name: { type: 'string', required: true, read_only: false, label: 'Name', max_length: 100 },
  scopes: {
    type: 'multiple choice',
    required: true,
    read_only: false,
    label: 'Scopes',
    choices: SCOPES.map((s) => ({ value: s, display_name: s })),
  },
  expires_in: { type: 'integer', required: false, read_only: false, label: 'Expires in', min_value: 60 },
};

/** The fields of each write, by the procedure that does it. */
const FIELDS_OF: Record<string, Record<string, FieldInfo>> = {
  'snippets.create': SNIPPET_FIELDS,
  'snippets.update': SNIPPET_FIELDS,
  'tokens.create': TOKEN_FIELDS,
};

export function metadata(route: Route, writableActions: ('POST' | 'PUT')[]): Record<string, unknown> {
  const body: Record<string, unknown> = {
    name: route.viewName,
    description: '',
    renders: RENDERED_MEDIA_TYPES,
    parses: PARSED_MEDIA_TYPES,
  };
  const actions = writableActions.flatMap((m) => {
    const fields = FIELDS_OF[route.procedures[m]?.path ?? ''];
    return fields ? [[m, fields] as const] : [];
  });
  if (actions.length) body.actions = Object.fromEntries(actions);
  return body;
}
