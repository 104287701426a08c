// The stored document, shaped like Pygments' HtmlFormatter(full=True, linenos='table', title=…): everything from the user escaped.
import { dropFinalEmptyLine, splitLines } from './lines';
import { themeCss } from './themes';

export interface HighlightInput {
  code: string;
  language: string;
  style: string;
  title: string;
  linenos: boolean;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' };
export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

const BASE_CSS = `pre { line-height: 125%; margin: 0; }
td.linenos .normal { color: #666666; background-color: transparent; padding-left: 5px; padding-right: 5px; }
.highlighttable { border-spacing: 0; }
.highlighttable td { vertical-align: top; padding: 0; }
.highlight pre, .highlighttable pre { padding: 0.5em; }
`;

/** `bodyHtml` is highlighted (or escaped) code: markup we made, never raw user text. */
export function buildDocument(input: HighlightInput, bodyHtml: string): string {
  const lines = dropFinalEmptyLine(splitLines(bodyHtml));
  const code = `<pre class="hljs"><code>${lines.join('\n')}\n</code></pre>`;
  const block = input.linenos
    ? `<div class="highlight"><table class="highlighttable"><tr><td class="linenos"><div class="linenodiv"><pre>${lines
        .map((_, i) => `<span class="normal">${i + 1}</span>`)
        .join('\n')}</pre></div></td><td class="code"><div>${code}</div></td></tr></table></div>`
    : `<div class="highlight">${code}</div>`;
  const title = escapeHtml(input.title);
  return `<!DOCTYPE html>
<html>
<head>
  <title>${title}</title>
  <meta charset="utf-8">
  <style type="text/css">
${BASE_CSS}${themeCss(input.style)}
  </style>
</head>
<body class="hljs">
${input.title ? `<h2>${title}</h2>\n` : ''}
${block}
</body>
</html>
`;
}

/** The document with the code escaped but not highlighted: same structure, no grammar run. */
export function renderPlain(input: HighlightInput): string {
  return buildDocument(input, escapeHtml(input.code));
}

const CODE_START = '<pre class="hljs"><code>';
const CODE_END = '\n</code></pre>';

/**
 * The highlighted lines of a document `buildDocument` made, each with balanced spans (the snippet page shows them
 * without highlighting again); null when the document is not of that shape. Everything from the user in it is escaped,
 * so the first start marker and the last end marker are ours.
 */
export function documentLines(document: string): string[] | null {
  const start = document.indexOf(CODE_START);
  const end = document.lastIndexOf(CODE_END);
  if (start < 0 || end < start) return null;
  return document.slice(start + CODE_START.length, end).split('\n');
}
