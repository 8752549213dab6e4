/** The report as people read it at the end of `bwc-emu run`: a summary line, then each finding and expectation. */
import { plural } from './grading-context';
import type { GradingReport } from './report';

/** The text of `report`, lines ending in newlines. */
export function reportTable(report: GradingReport): string {
  const { errors, warnings, expectationsBroken } = report.summary;
  const lines = [
    `bwc-emu client report: ${plural(errors, 'error')}, ${plural(warnings, 'warning')}` +
      (report.expectations.length > 0
        ? `, ${expectationsBroken} of ${report.expectations.length} expectations broken`
        : ''),
  ];
  if (report.journal.dropped > 0)
    lines.push(`  (the journal dropped ${report.journal.dropped} older entries: early findings may be missing)`);
  const rows = report.findings.map((f) => [
    f.severity,
    f.rule,
    f.device,
    `${f.client.remote}${f.client.users.length > 0 ? ` ${f.client.users.join(',')}` : ''}`,
    f.message,
  ]);
  if (rows.length > 0) {
    const header = ['severity', 'rule', 'device', 'client', 'finding'];
    const widths = header.slice(0, 4).map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
    const line = (cells: string[]): string =>
      `  ${cells.map((c, i) => (i < 4 ? c.padEnd(widths[i]) : c)).join('  ')}`.trimEnd();
    lines.push(line(header), ...rows.map(line));
  }
  for (const e of report.expectations) {
    const took = e.tookMs === undefined ? '' : ` (took ${e.tookMs} ms)`;
    lines.push(`  expectation ${e.status}: ${e.name} on ${e.device}, ${e.that} within ${e.withinMs} ms${took}`);
  }
  if (rows.length > 0) lines.push('  Each finding, its evidence and its fix: --report FILE, or GET /_emu/report.');
  return `${lines.join('\n')}\n`;
}
