// The benches' output: rows of cells as a Markdown table with padded columns (the first row is the header).
export function markdownTable(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  return rows.map((row) => '| ' + row.map((c, i) => c.padEnd(widths[i]!)).join(' | ') + ' |').join('\n');
}
