// The snippet form, labelled for people: create (POST, the paste page and the browsable list), edit (PUT) and delete.
import type { Response } from 'express';
import type { Choice } from '../../src/highlight';
import type { SnippetFields } from '../../src/snippets/schema';
import { SNIPPET_TABLE } from '../../src/schemas/snippet-table';
import { fieldsOf, isRequired, isWritable, type WritableSpec } from '../../src/schemas/table';
import { html, type Html } from './html';
import { languagePicker } from './language-picker';

type Values = Required<SnippetFields>;

/** The writable fields of the table, in its order: one input each. */
const FIELDS = fieldsOf(SNIPPET_TABLE).flatMap(([name, field]) => (isWritable(field) ? [[name, field] as const] : []));

/** A new snippet's values: the table's defaults, empty where a field has none. */
const DEFAULTS = Object.fromEntries(FIELDS.map(([name, field]) => [name, field.default ?? ''])) as Values;

function searchableSelect(name: string, label: string, choices: readonly Choice[], selected: string): Html {
  return html`<label for="${name}">${label}</label>
<input type="search" class="choice-filter" data-for="${name}" placeholder="Filter ${label.toLowerCase()}…" aria-label="Filter ${label.toLowerCase()}">
<select id="${name}" name="${name}">${choices.map(
    (c) => html`<option value="${c.value}"${c.value === selected ? html` selected` : ''}>${c.display_name}</option>`,
  )}</select>`;
}

/**
 * The input of one field, by its kind. A browser's maxlength counts UTF-16 units where the spec counts characters,
 * so it is set to twice the limit (an emoji is two units) and the server checks the limit itself.
 */
/** The labels people read; the table's own (`Linenos`) stay those of the API's OPTIONS metadata. */
const LABELS: Record<string, string> = { linenos: 'Show line numbers' };

function input(formId: string, name: string, field: WritableSpec, value: unknown, detect: boolean): Html {
  const id = `${formId}-${name}`;
  const label = LABELS[name] ?? field.label;
  switch (field.kind) {
    case 'string':
      return html`<label for="${id}">${label}</label><input id="${id}" name="${name}"${isRequired(field) ? html` required` : ''} maxlength="${field.maxLength * 2}" value="${String(value)}">`;
    case 'text':
      return html`<label for="${id}">${label}</label><textarea id="${id}" name="${name}" rows="14" spellcheck="false" aria-describedby="${id}-hint"${isRequired(field) ? html` required` : ''} maxlength="${field.maxLength * 2}">${String(value)}</textarea><small id="${id}-hint" class="hint">Ctrl+Enter or ⌘+Enter saves.</small>`;
    case 'boolean':
      // An unchecked box sends nothing: the hidden input sends false, and a checked box's true follows it.
      return html`<input type="hidden" name="${name}" value="false"><label><input type="checkbox" name="${name}" value="true"${value ? html` checked` : ''}> ${label}</label>`;
    case 'choice':
      return name === 'language'
        ? languagePicker(name, String(value), detect)
        : searchableSelect(name, label, field.choices.list, String(value));
  }
}

/** A 400's field map: the messages of each field, `non_field_errors` for the body as a whole (DRF's shape). */
export type FieldErrors = Record<string, string[]>;

/** Messages as DRF's forms show them: a list under the field (or above the fields, for the body as a whole). */
function errorList(messages: readonly string[] | undefined, extraClass = ''): Html {
  return messages?.length
    ? html`<ul class="errorlist${extraClass}">${messages.map((m) => html`<li>${m}</li>`)}</ul>`
    : html``;
}

/** The values a form sent, as its inputs show them again: a box is checked when the last `linenos` sent was true. */
export function submittedValues(body: Record<string, unknown>): Partial<Values> {
  const values: Record<string, unknown> = {};
  for (const [name, field] of FIELDS) {
    const sent = Array.isArray(body[name]) ? (body[name] as unknown[]).at(-1) : body[name];
    if (sent === undefined) continue;
    values[name] = field.kind === 'boolean' ? sent === true || sent === 'true' || sent === 'on' : String(sent);
  }
  return values as Partial<Values>;
}

export function snippetForm(
  res: Response,
  opts: {
    method: 'POST' | 'PUT';
    action: string;
    values?: Partial<Values>;
    errors?: FieldErrors;
    /** The paste page's create form: the language guessed unless chosen, from the code or a file name. */
    paste?: boolean;
    /** Where the page goes after a save sent by script (the edit form). */
    next?: string;
  },
): Html {
  const detect = opts.paste === true;
  const values: Record<string, unknown> = { ...DEFAULTS, ...(detect ? { language: '' } : {}), ...opts.values };
  const errors = opts.errors ?? {};
  const fieldNames = new Set<string>(FIELDS.map(([name]) => name));
  // Messages for no field of the form (the body as a whole, or a field the form does not show) go above the fields.
  const general = Object.entries(errors).flatMap(([name, messages]) => (fieldNames.has(name) ? [] : messages));
  const id = opts.method === 'POST' ? 'create-form' : 'edit-form';
  return html`<form id="${id}" class="api-form" method="post" action="${opts.action}" data-method="${opts.method}"${opts.next ? html` data-next="${opts.next}"` : ''}>
<input type="hidden" name="csrfmiddlewaretoken" value="${res.locals.csrfToken}">
${errorList(general, ' nonfield')}
${FIELDS.map(
  ([
    name,
    field,
  ]) => html`<div class="field" data-field="${name}">${input(id, name, field, values[name], detect)}${errorList(errors[name])}</div>
${
  name === 'title' && detect
    ? html`<div class="field" data-field="filename"><label for="${id}-filename">File name (optional: names the download and tells the language)</label><input id="${id}-filename" name="filename" maxlength="100" placeholder="main.rs"></div>
`
    : ''
}`,
)}<div class="actions"><button type="submit">Save</button></div>
<pre class="form-errors" hidden></pre>
</form>`;
}

/** `next`: where the page goes once the snippet is deleted. */
export function deleteForm(res: Response, action: string, next: string): Html {
  return html`<form id="delete-form" class="api-form" method="post" action="${action}" data-method="DELETE" data-confirm="Delete this snippet?" data-next="${next}">
<input type="hidden" name="csrfmiddlewaretoken" value="${res.locals.csrfToken}">
<button type="submit" class="danger">Delete</button><pre class="form-errors" hidden></pre></form>`;
}
