/** Markdown tables for the pages generated from code (docs/faults.md, docs/grading.md). */

/** A table cell's text: a `|` would end the cell, so it is escaped. */
export function markdownCell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

/** A table: the header row, its rule, and one row per entry of `rows` (cells escaped). */
export function markdownTable(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const line = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')).replace(/ /g, ''), ...rows.map((r) => line(r.map(markdownCell)))];
}
