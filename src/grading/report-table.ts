/** The report as people read it at the end of `bwc-emu run`: a summary line, then each finding and expectation. */
import { plural } from './grading-context';
import type { GradingReport } from './report';

/** The text of `report`, lines ending in newlines. */
export function reportTable(report: GradingReport): string {
  const { errors, warnings, expectationsBroken } = report.summary;
  const dropped = report.droppedSegments;
  // The segment is shown once the run has more than one, or the test named it.
  const segmented = report.segments.length > 1 || report.segments.some((s) => s.named) || dropped.segments > 0;
  const listed = report.segments.length + dropped.segments;
  const lines = [
    `bwc-emu client report: ${plural(errors, 'error')}, ${plural(warnings, 'warning')}` +
      (report.expectations.length > 0
        ? `, ${expectationsBroken} of ${report.expectations.length} expectations broken`
        : '') +
      (segmented ? ` in ${plural(listed, 'segment')}` : ''),
  ];
  if (report.journal.dropped > 0)
    lines.push(`  (the journal dropped ${report.journal.dropped} older entries: early findings may be missing)`);
  if (dropped.segments > 0) {
    const { errors: e, warnings: w, expectationsBroken: b } = dropped.summary;
    lines.push(
      `  (${dropped.segments === 1 ? 'the oldest segment is' : `the ${dropped.segments} oldest segments are`} not listed, only counted: ` +
        `${plural(e, 'error')}, ${plural(w, 'warning')}, ${b} expectations broken)`,
    );
  }
  if (report.skippedRules.length > 0) lines.push(`  (rules not applied: ${report.skippedRules.join(', ')})`);
  const rows = report.findings.map((f) => [
    ...(segmented ? [shortened(f.segment.name)] : []),
    f.severity,
    f.rule,
    f.device,
    `${f.client.remote}${f.client.users.length > 0 ? ` ${f.client.users.join(',')}` : ''}`,
    f.message,
  ]);
  if (rows.length > 0) {
    const header = [...(segmented ? ['segment'] : []), 'severity', 'rule', 'device', 'client', 'finding'];
    const last = header.length - 1;
    const widths = header.slice(0, last).map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
    const line = (cells: string[]): string =>
      `  ${cells.map((c, i) => (i < last ? c.padEnd(widths[i]) : c)).join('  ')}`.trimEnd();
    lines.push(line(header), ...rows.map(line));
  }
  for (const e of report.expectations) {
    const took = e.tookMs === undefined ? '' : ` (took ${e.tookMs} ms)`;
    const where = segmented ? ` [${shortened(e.segment.name)}]` : '';
    lines.push(`  expectation ${e.status}${where}: ${e.name} on ${e.device}, ${e.that} within ${e.withinMs} ms${took}`);
  }
  if (rows.length > 0) lines.push('  Each finding, its evidence and its fix: --report FILE, or GET /_emu/report.');
  return `${lines.join('\n')}\n`;
}

/** Segment names wider than this are cut in the table (the JSON and the JUnit have them whole). */
const SEGMENT_COLUMN = 48;

/** `name`, cut to the column with `…` at the end when longer. */
function shortened(name: string): string {
  return name.length <= SEGMENT_COLUMN ? name : `${name.slice(0, SEGMENT_COLUMN - 1)}…`;
}
