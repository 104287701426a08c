// The browsable pages of a snippet's history (docs/api.md "History"): its revisions, each with its diff and, for the
// owner, a restore button; a diff shown highlighted (highlight.js's `diff`, on the differ's workers), its lines
// compared without their line endings, so a CRLF snippet saved again with LF shows only the lines that changed.
import type { Request, Response } from 'express';
import { clientOf } from '../../src/expensive';
import { Throttled } from '../../src/refusal';
import { callerFor, requestContext } from '../auth/context';
import { labelOf } from '../../src/snippets/history-router';
import type { Revision } from '../../src/snippets/revision';
import type { Urls } from '../http/urls';
import { html, Html, escapeHtml } from './html';

/** The rows of a page that get their added and removed lines counted: a diff each, so a page of `?limit=1000` costs no more. */
const COUNTED_ROWS = 20;

/** The list of revisions as links to each one and its diff, who saved it and what it changed, with a restore button for the owner. */
export async function revisionsSection(
  req: Request,
  res: Response,
  reverse: Urls['reverse'],
  id: number,
  revisions: readonly Revision[],
): Promise<Html> {
  if (!revisions.length) return html``;
  const caller = callerFor(req);
  const last = revisions[revisions.length - 1]!;
  const [owner, { owner: by }, [before]] = await Promise.all([
    caller.snippets.writable({ id }),
    caller.snippets.get({ id }),
    caller.snippets.revisions({ id, cursor: String(last.revision), limit: 1 }).then((page) => page.items),
  ]);
  const changes = await asExpensive(
    req,
    () => Promise.all(revisions.slice(0, COUNTED_ROWS).map((r, i) => changeCounts(req, revisions[i + 1] ?? before, r))),
    [],
  );
  const items = revisions.map((r, i) => {
    const at = { id, n: r.revision };
    const restore = owner
      ? html` <form class="inline restore" method="post" action="${reverse('snippet-revision-restore', at)}">
<input type="hidden" name="csrfmiddlewaretoken" value="${res.locals.csrfToken}"><button type="submit" id="restore-${r.revision}">Restore</button></form>`
      : '';
    const changed = changes[i];
    return html`<li id="revision-${r.revision}"><a href="${reverse('snippet-revision', at)}">Revision ${r.revision}</a> · saved <time datetime="${r.saved}">${r.saved}</time> by ${by}
 · ${r.title ? html`“${r.title}” · ` : ''}${r.language} · ${changed ? html`<span class="changes">+${changed.added} −${changed.removed}</span> · ` : ''}<a class="diff-link" href="${reverse('snippet-revision-diff', at)}">Diff</a>${restore}</li>`;
  });
  return html`<section class="history"><h2>Revisions</h2><ol class="revisions">${items}</ol></section>`;
}

/**
 * The lines a revision added and removed against the one kept before it, their line endings aside (as the diff page
 * shows them): a diff on the differ's workers, under its bounds; null past them (the row then says nothing).
 */
async function changeCounts(
  req: Request,
  before: Revision | undefined,
  revision: Revision,
): Promise<{ added: number; removed: number } | null> {
  // The first kept revision adds every line it has: no diff to run.
  if (!before) return { added: lineCount(revision.code), removed: 0 };
  const patch = await req.app.locals.runtime.differ.diff({
    name: 'code',
    oldCode: before?.code ?? '',
    newCode: revision.code,
    oldLabel: labelOf(before),
    newLabel: labelOf(revision),
    stripTrailingCr: true,
  });
  if (patch === null) return null;
  let added = 0;
  let removed = 0;
  // The hunks only: the file header's `---`/`+++` lines come before the first `@@` (none when nothing changed).
  const hunks = patch.search(/^@@ /m);
  if (hunks < 0) return { added, removed };
  for (const line of patch.slice(hunks).split('\n')) {
    if (line.startsWith('+')) added++;
    else if (line.startsWith('-')) removed++;
  }
  return { added, removed };
}

/** The lines of a code as a diff counts them: a last line without its break counts. */
function lineCount(code: string): number {
  const breaks = code.split('\n').length - 1;
  return code === '' || code.endsWith('\n') ? breaks : breaks + 1;
}

/**
 * A page's own diffs, run as one of the client's expensive requests (src/expensive.ts), as the diff path's are: a
 * client with EXPENSIVE_CONCURRENCY of them in flight gets the page with `fallback` instead, at once, and adds
 * nothing to the differ's pool.
 */
async function asExpensive<T>(req: Request, work: () => Promise<T>, fallback: T): Promise<T> {
  try {
    return await req.app.locals.runtime.expensive.run(clientOf(requestContext(req)), work);
  } catch (err) {
    if (err instanceof Throttled) return fallback;
    throw err;
  }
}

/** Which diff a diff page shows: revision `n` of snippet `id`, from `from` (by default the kept revision before n). */
export interface DiffAt {
  id: number;
  n: number;
  from?: number;
}

/**
 * The diff a person reads: the answer's own when no line holds a CR; otherwise the two revisions diffed again with
 * their lines compared without the CR (jsdiff's stripTrailingCr), on the differ's workers as the answer's was. The
 * answer itself (the text a script gets) stays the diff of the codes as stored.
 */
async function readableDiff(req: Request, at: DiffAt, patch: string): Promise<string | null> {
  if (!patch.includes('\r')) return patch;
  return asExpensive(req, () => diffWithoutCr(req, at), patch);
}

/** The two revisions of `at` diffed again with their lines compared without the CR. */
async function diffWithoutCr(req: Request, at: DiffAt): Promise<string | null> {
  const caller = callerFor(req);
  const to = await caller.snippets.revision({ id: at.id, n: at.n });
  const from =
    at.from === undefined
      ? (await caller.snippets.revisions({ id: at.id, cursor: String(at.n), limit: 1 })).items[0]
      : at.from > 0
        ? await caller.snippets.revision({ id: at.id, n: at.from })
        : undefined;
  return req.app.locals.runtime.differ.diff({
    name: `snippet-${at.id}`,
    oldCode: from?.code ?? '',
    newCode: to.code,
    oldLabel: labelOf(from),
    newLabel: labelOf(to),
    stripTrailingCr: true,
  });
}

/** A diff, highlighted as `diff`; past the highlighting deadline, escaped as it is. */
export async function diffView(req: Request, at: DiffAt, answer: string): Promise<Html> {
  const diff = answer && (await readableDiff(req, at, answer));
  if (diff === null) return html`<p class="empty-diff">These revisions differ too much to be shown here.</p>`;
  if (!/^@@ /m.test(diff))
    return html`<p class="empty-diff">The code is the same in both revisions${answer ? ' but for its line endings' : ''}.</p>`;
  const highlighted = await req.app.locals.runtime.differ.highlight(diff);
  return html`<pre class="diff hljs"><code class="language-diff">${new Html(highlighted ?? escapeHtml(diff))}</code></pre>`;
}
