// The code as people read it: highlighted lines, each numbered with a link to itself (`#L12`, which the page marks),
// and the short previews of a list, with the searched terms marked.
import { html, Html } from './html';

/** A list row's preview: a few lines, each cut short, so a page of long snippets stays small. */
export const PREVIEW_LINES = 5;
const PREVIEW_CHARS = 160;

/** `lines`: highlighted HTML, a line each, markup we made (the stored document's, or the code escaped). */
export function codeView(lines: readonly string[]): Html {
  // CR is a line break to an HTML parser: a CRLF snippet's lines would each be followed by an empty one.
  const rows = lines.map(
    (line, i) =>
      html`<span class="row" id="L${i + 1}"><a class="ln" href="#L${i + 1}" aria-label="Line ${i + 1}"></a><span class="lc">${new Html(line.replace(/\r/g, ''))}</span></span>`,
  );
  return html`<div class="code-box"><pre class="code hljs" tabindex="0" aria-label="Code"><code>${rows}</code></pre></div>`;
}

export function splitCode(code: string): string[] {
  const lines = code.split(/\r?\n/);
  return lines.length > 1 && lines.at(-1) === '' ? lines.slice(0, -1) : lines;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `text` escaped, each occurrence of a term (any case) in <mark>. */
export function marked(text: string, terms: readonly string[]): Html {
  const wanted = terms.filter((t) => t.length);
  if (!wanted.length) return html`${text}`;
  const pattern = new RegExp(wanted.map(escapeRegExp).join('|'), 'giu');
  const parts: Html[] = [];
  let last = 0;
  for (const m of text.matchAll(pattern)) {
    if (!m[0]) continue;
    parts.push(html`${text.slice(last, m.index)}<mark>${m[0]}</mark>`);
    last = m.index + m[0].length;
  }
  parts.push(html`${text.slice(last)}`);
  return html`${parts}`;
}

/** A line cut to the preview's width, around the first term it holds. */
function excerpt(line: string, terms: readonly string[]): string {
  if (line.length <= PREVIEW_CHARS) return line;
  const lower = line.toLowerCase();
  const at = Math.min(...terms.map((t) => lower.indexOf(t.toLowerCase())).filter((i) => i >= 0), Infinity);
  const start = Number.isFinite(at) ? Math.max(0, at - 40) : 0;
  return `${start ? '…' : ''}${line.slice(start, start + PREVIEW_CHARS)}…`;
}

/** The first lines of the code, as text. */
export function preview(lines: readonly string[]): Html {
  const shown = lines.slice(0, PREVIEW_LINES).map((l) => excerpt(l, []));
  const more = lines.length > PREVIEW_LINES ? html`\n<span class="more">…</span>` : '';
  return html`<pre class="preview"><code>${shown.join('\n')}${more}</code></pre>`;
}

/** The lines that hold a searched term (the first few), each linking to its line on the snippet page, terms marked. */
export function matchedLines(lines: readonly string[], terms: readonly string[], href: string): Html | undefined {
  const lowered = terms.map((t) => t.toLowerCase()).filter((t) => t.length);
  if (!lowered.length) return undefined;
  const found: Html[] = [];
  for (let i = 0; i < lines.length && found.length < PREVIEW_LINES; i++) {
    const lower = lines[i]!.toLowerCase();
    if (lowered.some((t) => lower.includes(t)))
      found.push(
        html`<li><a href="${href}#L${i + 1}"><span class="lnum">${i + 1}</span> <code>${marked(excerpt(lines[i]!, terms), terms)}</code></a></li>`,
      );
  }
  return found.length ? html`<ol class="matches">${found}</ol>` : undefined;
}

/** The stylesheet of a snippet's style (pages.ts serves every style's). */
export const styleSheet = (style: string) =>
  html`<link rel="stylesheet" href="/themes/${style.split('/').map(encodeURIComponent).join('/')}.css">\n`;
