/** The findings as people read them after the upload table, and what the probes left behind. */
import { type ConformanceFinding, failsRun, type SeenRequest } from './finding';

/**
 * The findings as a pass/fail list, one line each (PASS, FAIL, WARN for a failed advisory
 * check, SKIP for one with nothing to judge: "not checked"), and a summary line.
 */
export function formatFindings(findings: ConformanceFinding[], leftBehind: readonly string[] = []): string {
  const width = Math.max(0, ...findings.map((f) => f.id.length));
  return [...findings.map((f) => findingLine(f, width)), summaryLine(findings), ...leftBehindLines(leftBehind)].join(
    '\n',
  );
}

/** What the probes left on the destination, one name a line at the very end, so it can be deleted by hand. */
function leftBehindLines(leftBehind: readonly string[]): string[] {
  if (leftBehind.length === 0) return [];
  return [
    `The destination refused to delete ${leftBehind.length} probe item(s); delete them by hand:`,
    ...leftBehind.map((path) => `  left behind: ${path}`),
  ];
}

/** One finding on one line: its detail is flattened, so the list stays one check per line. */
function findingLine(finding: ConformanceFinding, width: number): string {
  const detail = finding.detail ? `: ${finding.detail.replace(/\s*\n\s*/g, ' ')}` : '';
  return `${mark(finding)}  ${finding.id.padEnd(width)}  ${finding.title}${detail}${requestText(finding.request)}`;
}

/** A failed advisory check warns instead of failing, a check with nothing to judge is skipped: neither fails the run. */
function mark(finding: ConformanceFinding): 'PASS' | 'WARN' | 'FAIL' | 'SKIP' {
  if (finding.passed) return 'PASS';
  if (finding.notChecked) return 'SKIP';
  return finding.advisory ? 'WARN' : 'FAIL';
}

/** ` [PUT /path -> 201]`, so the request that showed a finding can be found in the log. */
function requestText(request: SeenRequest | undefined): string {
  if (!request) return '';
  const status = request.status === undefined ? '' : ` -> ${request.status}`;
  return ` [${request.method} ${request.path}${status}]`;
}

/** `FAIL: 17 passed, 2 failed, 1 not checked, 1 advisory warning (21 checks)`: the verdict first. */
function summaryLine(findings: ConformanceFinding[]): string {
  const failed = findings.filter(failsRun).length;
  const skipped = findings.filter((f) => f.notChecked).length;
  const warned = findings.filter((f) => !f.passed && !f.notChecked && f.advisory).length;
  const passed = findings.filter((f) => f.passed).length;
  const notChecked = skipped ? `, ${skipped} not checked` : '';
  const warnings = warned ? `, ${warned} advisory warning${warned === 1 ? '' : 's'}` : '';
  return `${failed ? 'FAIL' : 'PASS'}: ${passed} passed, ${failed} failed${notChecked}${warnings} (${findings.length} checks)`;
}
