// GET /snippets/<pk>/embed/: a snippet to show inside another site's page (an <iframe>, which the snippet page offers
// to copy): the code highlighted and numbered, one line of title and owner linking back to the snippet page. The only
// pages that may be framed (EMBED_CSP); no form, no script but the theme's, the page CSP otherwise.
import type { Request, Response } from 'express';
import { documentLines } from '../../src/highlight';
import { callerFor } from '../auth/context';
import { urls } from '../http/urls';
import { codeView, splitCode, styleSheet } from './code-view';
import { languageName } from './file-names';
import { escapeHtml, html } from './html';
import { PAGE_CSP } from './pages';

/** The page CSP, but any site may frame it (server/security-headers.ts sends `frame-ancestors 'none'` elsewhere). */
export const EMBED_CSP = PAGE_CSP.replace("frame-ancestors 'none'", 'frame-ancestors *');

/** The <iframe> element a person pastes into their own page to show the snippet at `src` (an absolute URL). */
export const embedCode = (src: string, title: string) =>
  `<iframe src="${escapeHtml(src)}" title="${escapeHtml(title)}" width="100%" height="320" style="border:0" loading="lazy"></iframe>`;

export async function embedPage(req: Request, res: Response): Promise<void> {
  const id = Number(req.params.pk);
  const caller = callerFor(req);
  const [snippet, document] = await Promise.all([caller.snippets.get({ id }), caller.snippets.highlighted({ id })]);
  const lines = documentLines(document) ?? splitCode(snippet.code).map(escapeHtml);
  const title = snippet.title || `Snippet ${id}`;
  const page = urls(req).reverse('snippet-detail', { id });
  res.removeHeader('X-Frame-Options');
  res
    .set('Content-Security-Policy', EMBED_CSP)
    .type('html')
    .send(
      html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title} – Snippets</title>
<link rel="stylesheet" href="/static/api.css">
${styleSheet(snippet.style)}<script src="/static/theme.js"></script>
</head>
<body class="embed">
<main>
<p class="embed-head"><a id="snippet-link" href="${page}" target="_blank" rel="noopener">${title}</a> by ${snippet.owner} · ${languageName(snippet.language)}</p>
${codeView(lines)}
</main>
</body>
</html>
`.value,
    );
}
