// Splitting highlighted HTML into self-contained lines: spans that cross a newline are closed and reopened.
const TAG = /<span[^>]*>|<\/span>/g;

/** The lines of highlight.js output, each with balanced spans, so every line stays with its number. */
export function splitLines(html: string): string[] {
  const lines: string[] = [];
  const open: string[] = [];
  let line = '';
  let last = 0;
  const emitText = (text: string) => {
    const parts = text.split('\n');
    parts.forEach((part, i) => {
      if (i > 0) {
        lines.push(line + '</span>'.repeat(open.length));
        line = open.join('');
      }
      line += part;
    });
  };
  for (const m of html.matchAll(TAG)) {
    emitText(html.slice(last, m.index));
    if (m[0] === '</span>') open.pop();
    else open.push(m[0]);
    line += m[0];
    last = m.index + m[0].length;
  }
  emitText(html.slice(last));
  lines.push(line);
  return lines;
}

/** Pygments' count: a final newline ends the last line rather than starting another. */
export function dropFinalEmptyLine(lines: string[]): string[] {
  return lines.length > 1 && lines[lines.length - 1] === '' ? lines.slice(0, -1) : lines;
}
