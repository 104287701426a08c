// The benches' output: rows of cells as a Markdown table with padded columns (the first row is the header).
export function markdownTable(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(3, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => '| ' + cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ') + ' |';
  const [header, ...body] = rows;
  return [line(header!), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}
