// The browsable pages of a snippet's history (docs/api.md "History"): its revisions, each with its diff and, for the
// owner, a restore button; a diff shown highlighted (highlight.js's `diff`, on the differ's workers).
import type { Request, Response } from 'express';
import { callerFor } from '../auth/context';
import type { Revision } from '../../src/snippets/revision';
import type { Urls } from '../http/urls';
import { html, Html, escapeHtml } from './html';

/** The list of revisions as links to each one and its diff, with a restore button for the owner. */
export async function revisionsSection(
  req: Request,
  res: Response,
  reverse: Urls['reverse'],
  id: number,
  revisions: readonly Revision[],
): Promise<Html> {
  if (!revisions.length) return html``;
  const owner = await callerFor(req).snippets.writable({ id });
  const items = revisions.map((r) => {
    const at = { id, n: r.revision };
    const restore = owner
      ? html` <form class="inline restore" method="post" action="${reverse('snippet-revision-restore', at)}">
<input type="hidden" name="csrfmiddlewaretoken" value="${res.locals.csrfToken}"><button type="submit" id="restore-${r.revision}">Restore</button></form>`
      : '';
    return html`<li id="revision-${r.revision}"><a href="${reverse('snippet-revision', at)}">Revision ${r.revision}</a> · saved <time datetime="${r.saved}">${r.saved}</time>
 · ${r.title ? html`“${r.title}” · ` : ''}${r.language} · <a class="diff-link" href="${reverse('snippet-revision-diff', at)}">Diff</a>${restore}</li>`;
  });
  return html`<section class="history"><h2>Revisions</h2><ol class="revisions">${items}</ol></section>`;
}

/** A diff, highlighted as `diff`; past the highlighting deadline, escaped as it is. */
export async function diffView(req: Request, diff: string): Promise<Html> {
  if (!diff) return html`<p class="empty-diff">The code is the same in both revisions.</p>`;
  const highlighted = await req.app.locals.runtime.differ.highlight(diff);
  return html`<pre class="diff hljs"><code class="language-diff">${new Html(highlighted ?? escapeHtml(diff))}</code></pre>`;
}
