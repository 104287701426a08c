// OPTIONS metadata in DRF's shape: the view, what it renders and parses, and the writes the requester may do.
import { LANGUAGE_CHOICES, STYLE_CHOICES } from '../../src/highlight';
import { MAX_TITLE } from '../../src/schemas/snippet';
import { PARSED_MEDIA_TYPES } from '../http/body';
import type { Route } from './routes';

const RENDERED_MEDIA_TYPES = ['application/json', 'text/html'];

type FieldInfo = Record<string, unknown>;

/** The snippet serializer's fields as DRF describes them; choices come from the highlighting catalogue, sorted. */
const SNIPPET_FIELDS: Record<string, FieldInfo> = {
  id: { type: 'integer', required: false, read_only: true, label: 'ID' },
  owner: { type: 'field', required: false, read_only: true, label: 'Owner' },
  title: { type: 'string', required: false, read_only: false, label: 'Title', max_length: MAX_TITLE },
  code: { type: 'string', required: true, read_only: false, label: 'Code' },
  linenos: { type: 'boolean', required: false, read_only: false, label: 'Linenos' },
  language: { type: 'choice', required: false, read_only: false, label: 'Language', choices: LANGUAGE_CHOICES },
  style: { type: 'choice', required: false, read_only: false, label: 'Style', choices: STYLE_CHOICES },
};

export function metadata(route: Route, writableActions: ('POST' | 'PUT')[]): Record<string, unknown> {
  const body: Record<string, unknown> = {
    name: route.viewName,
    description: '',
    renders: RENDERED_MEDIA_TYPES,
    parses: PARSED_MEDIA_TYPES,
  };
  if (writableActions.length) body.actions = Object.fromEntries(writableActions.map((m) => [m, SNIPPET_FIELDS]));
  return body;
}
