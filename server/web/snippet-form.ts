// The snippet form of the browsable API: create (POST) on the list, edit (PUT) and delete on a snippet.
import type { Response } from 'express';
import { LANGUAGE_CHOICES, STYLE_CHOICES, type Choice } from '../../src/highlight';
import { MAX_CODE, MAX_TITLE } from '../../src/schemas/snippet';
import { html, type Html } from './html';

interface Values {
  title: string;
  code: string;
  linenos: boolean;
  language: string;
  style: string;
}

const DEFAULTS: Values = { title: '', code: '', linenos: false, language: 'python', style: 'friendly' };

function searchableSelect(name: string, label: string, choices: readonly Choice[], selected: string): Html {
  return html`<div class="field"><label for="${name}">${label}</label>
<input type="search" class="choice-filter" data-for="${name}" placeholder="Filter ${label.toLowerCase()}…" aria-label="Filter ${label.toLowerCase()}">
<select id="${name}" name="${name}">${choices.map(
    (c) => html`<option value="${c.value}"${c.value === selected ? html` selected` : ''}>${c.display_name}</option>`,
  )}</select></div>`;
}

export function snippetForm(res: Response, opts: { method: 'POST' | 'PUT'; action: string; values?: Partial<Values> }): Html {
  const v = { ...DEFAULTS, ...opts.values };
  const id = opts.method === 'POST' ? 'create-form' : 'edit-form';
  return html`<form id="${id}" class="api-form" method="post" action="${opts.action}" data-method="${opts.method}">
<input type="hidden" name="csrfmiddlewaretoken" value="${res.locals.csrfToken}">
<div class="field"><label for="${id}-title">Title</label><input id="${id}-title" name="title" maxlength="${MAX_TITLE}" value="${v.title}"></div>
<div class="field"><label for="${id}-code">Code</label><textarea id="${id}-code" name="code" rows="10" required maxlength="${MAX_CODE * 2}">${v.code}</textarea></div>
<div class="field"><input type="hidden" name="linenos" value="false"><label><input type="checkbox" name="linenos" value="true"${v.linenos ? html` checked` : ''}> Linenos</label></div>
${searchableSelect('language', 'Language', LANGUAGE_CHOICES, v.language)}
${searchableSelect('style', 'Style', STYLE_CHOICES, v.style)}
<div class="actions"><button type="submit">${opts.method}</button></div>
<pre class="form-errors" hidden></pre>
</form>`;
}

export function deleteForm(res: Response, action: string): Html {
  return html`<form id="delete-form" class="api-form" method="post" action="${action}" data-method="DELETE" data-confirm="Delete this snippet?">
<input type="hidden" name="csrfmiddlewaretoken" value="${res.locals.csrfToken}">
<button type="submit" class="danger">DELETE</button><pre class="form-errors" hidden></pre></form>`;
}
