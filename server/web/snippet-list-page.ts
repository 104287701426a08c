// The list people scan: one row a snippet (title or first line, owner, language, lines, age) with a short preview, or, for
// a search, the lines that matched with the terms marked and linked; the filters above, the pager as the API page's.
import type { Request, Response } from 'express';
import { searchTerms } from '../../src/snippets/query';
import type { Snippet } from '../../src/snippets/schema';
import { callerFor } from '../auth/context';
import { urls } from '../http/urls';
import { age } from './age';
import { marked, matchedLines, preview, splitCode } from './code-view';
import { languageName } from './file-names';
import { html } from './html';
import { layout } from './layout';
import { listFilters } from './list-filters';
import { pager } from './pager';
import { apiPageHref } from './snippet-page';

export async function snippetListPage(req: Request, res: Response, snippets: readonly Snippet[]): Promise<string> {
  const registry = urls(req);
  const asked = new URL(req.originalUrl, 'http://local').searchParams;
  const terms = searchTerms(asked.get('search') ?? undefined);
  // A row's age: when its latest revision was saved (the snippet's representation has no time of its own).
  const caller = callerFor(req);
  const saved = new Map(
    snippets.length
      ? (await caller.snippets.savedTimes({ ids: snippets.map((s) => s.id).join(',') })).items.map((t) => [
          t.id,
          t.saved,
        ])
      : [],
  );
  const now = req.app.locals.runtime.now();
  const rows = snippets.map((s) => {
    const href = registry.reverse('snippet-detail', { id: s.id });
    const lines = splitCode(s.code);
    const name =
      s.title ||
      lines
        .find((l) => l.trim())
        ?.trim()
        .slice(0, 80) ||
      `Snippet ${s.id}`;
    return html`<li class="snippet-row" id="snippet-${s.id}">
<a class="title" href="${href}">${marked(name, terms)}</a>
<span class="meta">by <a href="${registry.reverse('snippet-list')}?owner=${encodeURIComponent(s.owner)}">${s.owner}</a> · ${languageName(s.language)} · ${lines.length} ${lines.length === 1 ? 'line' : 'lines'}${
      saved.has(s.id) ? html` · ${age(saved.get(s.id)!, now)}` : ''
    }</span>
${matchedLines(lines, terms, href) ?? preview(lines)}</li>`;
  });
  const owner = asked.get('owner');
  const heading = terms.length ? 'Search results' : owner ? `Snippets of ${owner}` : 'Snippets';
  const pages = await pager(req, res, 200);
  const content = html`<h1>${heading}</h1>
${listFilters(req, registry.reverse('snippet-list'))}
${rows.length ? html`<ol class="snippet-rows">${rows}</ol>` : html`<p class="empty">No snippets${terms.length || owner ? ' match' : ' yet'}.</p>`}
${pages}
<p class="api-panel"><a id="api-page-link" href="${apiPageHref(req)}">This list in the browsable API</a></p>`;
  return layout(req, res, heading, content);
}
