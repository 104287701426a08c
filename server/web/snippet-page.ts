// The snippet page people share: the code first, highlighted in the snippet's language and style with linked line
// numbers, under one line of title, owner, language and when it was saved; Copy, Raw, Download, History, and Edit and
// Delete for the owner; the <iframe> to embed it elsewhere (embed-page.ts). The browsable API's answer stays one click away, folded, and whole at `?format=api`.
import type { Request, Response } from 'express';
import { documentLines } from '../../src/highlight';
import type { Snippet } from '../../src/snippets/schema';
import { callerFor } from '../auth/context';
import { urls } from '../http/urls';
import { codeView, splitCode, styleSheet } from './code-view';
import { embedCode } from './embed-page';
import { languageName } from './file-names';
import { escapeHtml, html } from './html';
import { jsonView } from './json-view';
import { layout } from './layout';
import { deleteForm } from './snippet-form';

/** `?format=api` on the page's own URL: the browsable API's page of the same answer. */
export function apiPageHref(req: Request): string {
  const url = new URL(req.originalUrl, 'http://local');
  url.searchParams.set('format', 'api');
  return url.pathname + url.search;
}

export async function snippetPage(req: Request, res: Response, snippet: Snippet): Promise<string> {
  const { id } = snippet;
  const caller = callerFor(req);
  const registry = urls(req);
  const [document, revisions] = await Promise.all([
    caller.snippets.highlighted({ id }),
    caller.snippets.revisions({ id, limit: 1 }),
  ]);
  const latest = revisions.items[0];
  const lines = documentLines(document) ?? splitCode(snippet.code).map(escapeHtml);
  const owner = req.requester?.user?.username === snippet.owner;
  const at = { id };
  const title = snippet.title || `Snippet ${id}`;
  const origin = `${req.protocol}://${req.get('host')}`;
  const content = html`<article class="snippet">
<header class="snippet-head">
<h1>${snippet.title || html`<span class="untitled">${title}</span>`}</h1>
<p class="meta">by <a class="owner" href="${registry.reverse('snippet-list')}?owner=${encodeURIComponent(snippet.owner)}">${snippet.owner}</a>
 · <span class="language">${languageName(snippet.language)}</span> · ${lines.length} ${lines.length === 1 ? 'line' : 'lines'}${
   latest
     ? html` · saved <time datetime="${latest.saved}">${latest.saved.slice(0, 16).replace('T', ' ')} UTC</time> · <a class="revision" href="${registry.reverse('snippet-revisions', at)}">revision ${latest.revision}</a>`
     : ''
 }</p>
<nav class="toolbar" aria-label="Snippet">
<button type="button" id="copy" data-source="${registry.reverse('snippet-raw', at)}" hidden>Copy</button>
<a id="raw-link" class="button" href="${registry.reverse('snippet-raw', at)}">Raw</a>
<a id="download-link" class="button" href="${registry.reverse('snippet-download', at)}" download>Download</a>
<a id="history-link" class="button" href="${registry.reverse('snippet-revisions', at)}">History</a>
<a id="highlight-link" class="button" href="${registry.reverse('snippet-highlight', at)}">Highlighted document</a>
${owner ? html`<a id="edit-link" class="button" href="${registry.reverse('snippet-edit', at)}">Edit</a>` : ''}
<span id="copy-status" role="status" class="status"></span>
</nav>
</header>
${codeView(lines)}
${owner ? deleteForm(res, registry.reverse('snippet-detail', at), registry.reverse('snippet-list')) : ''}
<details class="embed-offer" id="embed"><summary>Embed</summary>
<label for="embed-code">Show this snippet on your own page with this element</label>
<input id="embed-code" type="text" readonly value="${embedCode(`${origin}${registry.reverse('snippet-embed', at)}`, title)}">
<button type="button" id="copy-embed" hidden>Copy embed code</button> <span id="embed-status" role="status" class="status"></span>
</details>
</article>
<details class="api-panel" id="api-panel"><summary>For developers: the API's answer</summary>
<div class="request"><b>GET</b> ${registry.reverse('snippet-detail', at)} · <a id="api-page-link" href="${apiPageHref(req)}">browsable API page</a></div>
<pre class="json">${jsonView(snippet, { ids: 'snippet-detail', ownerIds: new Map(), origin, urls: registry })}</pre>
</details>`;
  return layout(req, res, title, content, styleSheet(snippet.style));
}
