// The language picker of the snippet forms: one option a language (highlight.js's names, sorted), each carrying its
// aliases so the filter finds "Python" by `py` too (static/api.js ranks exact names and aliases first).
import hljs from 'highlight.js';
import { html, type Html } from './html';
import { languageName } from './file-names';

interface LanguageOption {
  value: string;
  label: string;
  aliases: string;
}

const OPTIONS: readonly LanguageOption[] = hljs
  .listLanguages()
  .sort()
  .map((name) => ({
    value: name,
    label: hljs.getLanguage(name)?.name ?? name,
    aliases: (hljs.getLanguage(name)?.aliases ?? []).join(' '),
  }));
const NAMES = new Set(OPTIONS.map((o) => o.value));

/**
 * The select of languages, `selected` chosen; a stored value that is an alias (`py`) is offered as it is, so saving
 * the form keeps it. `detect`: a first option, chosen by default, that leaves the language to the page's guess.
 */
export function languagePicker(id: string, selected: string, detect: boolean): Html {
  const own =
    selected && !NAMES.has(selected)
      ? html`<option value="${selected}" selected>${languageName(selected)} (${selected})</option>`
      : '';
  return html`<label for="${id}">Language</label>
<input type="search" class="choice-filter" data-for="${id}" placeholder="Find a language: name or alias (py, rs, ts…)" aria-label="Find a language by name or alias">
<select id="${id}" name="language">${detect ? html`<option value=""${selected ? '' : html` selected`}>Detect from the code or file name</option>` : ''}${own}${OPTIONS.map(
    (o) =>
      html`<option value="${o.value}"${o.value === selected ? html` selected` : ''} data-aliases="${o.aliases}">${o.label}</option>`,
  )}</select>`;
}
