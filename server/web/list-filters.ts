// The browsable list's search box and filters: a GET form above the list whose fields read back what the URL asks,
// so a filtered page keeps its query in every link (the pager rewrites only `cursor`).
import type { Request } from 'express';
import { LANGUAGE_CHOICES } from '../../src/highlight';
import { html, type Html } from './html';

/** The query string's values, each key's last one (as the facade reads them). */
function asked(req: Request): URLSearchParams {
  return new URL(req.originalUrl, 'http://local').searchParams;
}

export function listFilters(req: Request, action: string): Html {
  const q = asked(req);
  const value = (name: string) => q.get(name) ?? '';
  const language = value('language');
  const newestFirst = value('ordering') === '-created';
  // Paging parameters other than the cursor stay as asked; a new search starts at the first page.
  const kept = ['limit', 'format'].flatMap((name) =>
    q.has(name) ? [html`<input type="hidden" name="${name}" value="${value(name)}">`] : [],
  );
  return html`<form id="list-filters" class="filters" method="get" action="${action}" role="search">
<label for="filter-search">Search</label><input type="search" id="filter-search" name="search" value="${value('search')}" maxlength="2000" placeholder="text in the title or code">
<label for="filter-owner">Owner</label><input id="filter-owner" name="owner" value="${value('owner')}" placeholder="username">
<label for="filter-language">Language</label><select id="filter-language" name="language"><option value="">any</option>${LANGUAGE_CHOICES.map(
    (c) => html`<option value="${c.value}"${c.value === language ? html` selected` : ''}>${c.display_name}</option>`,
  )}</select>
<label for="filter-ordering">Order</label><select id="filter-ordering" name="ordering"><option value="created"${newestFirst ? '' : html` selected`}>oldest first</option><option value="-created"${newestFirst ? html` selected` : ''}>newest first</option></select>
${kept}<button type="submit">Find</button>
</form>`;
}
