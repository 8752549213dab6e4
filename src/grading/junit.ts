/**
 * The report as JUnit XML (`bwc-emu run --junit FILE`): a test suite per segment of the run (a
 * reset ends one: a test, when the tests reset between them), named as the segment; in it a
 * test case per rule applied and per scenario expectation, classname the segment's name, so a
 * CI system lists what every test's client did. A rule with findings fails, with every finding
 * and its evidence in the failure's text. Segments the emulator no longer keeps are one test
 * case, failed when they had findings. Whether the run's exit code fails is `--fail-on`'s
 * business, not this file's.
 */
import { plural } from './grading-context';
import type { GradingReport, ReportExpectation, ReportFinding, SegmentSummary } from './report';

/** One test suite's cases and counts. */
interface Suite {
  readonly name: string;
  readonly timestamp: string;
  readonly cases: string[];
  failures: number;
  skipped: number;
}

/** The JUnit XML document of `report`. */
export function reportJunit(report: GradingReport): string {
  const suites = report.segments.map((segment) => segmentSuite(report, segment));
  if (report.droppedSegments.segments > 0) suites.push(droppedSuite(report));
  const total = (key: 'failures' | 'skipped'): number => suites.reduce((n, s) => n + s[key], 0);
  const tests = suites.reduce((n, s) => n + s.cases.length, 0);
  const attributes = (cases: number, failures: number, skipped: number): string =>
    `tests="${cases}" failures="${failures}" errors="0" skipped="${skipped}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="bwc-emu" ${attributes(tests, total('failures'), total('skipped'))}>`,
    ...suites.flatMap((s) => [
      `  <testsuite name="${escape(s.name)}" ${attributes(s.cases.length, s.failures, s.skipped)} timestamp="${s.timestamp}">`,
      ...s.cases.map((c) => `    ${c}`),
      '  </testsuite>',
    ]),
    '</testsuites>',
    '',
  ].join('\n');
}

/** The suite of one segment: a case per rule applied, then one per expectation judged in it. */
function segmentSuite(report: GradingReport, segment: SegmentSummary): Suite {
  const suite: Suite = { name: segment.name, timestamp: segment.from, cases: [], failures: 0, skipped: 0 };
  const inSegment = <T extends { segment: { index: number } }>(items: readonly T[]): T[] =>
    items.filter((item) => item.segment.index === segment.index);
  const findings = inSegment(report.findings);
  for (const rule of report.rules) {
    const own = findings.filter((f) => f.rule === rule.id);
    const name = `${rule.id}: ${rule.title}`;
    if (own.length === 0) {
      suite.cases.push(testCase(segment.name, name));
      continue;
    }
    suite.failures++;
    const message = `${plural(own.length, 'finding')}: ${own[0].message}`;
    const failure = `<failure type="${rule.severity}" message="${escape(message)}">${escape(failureText(own))}</failure>`;
    suite.cases.push(testCase(segment.name, name, failure));
  }
  for (const e of inSegment(report.expectations)) expectationCase(suite, segment.name, e);
  return suite;
}

/** The case of expectation `e`: passed when held, skipped while pending, failed when broken. */
function expectationCase(suite: Suite, classname: string, e: ReportExpectation): void {
  const name = `expectation ${e.name} (${e.that}${e.topic ? ` ${e.topic}` : ''} within ${e.withinMs} ms) on ${e.device}`;
  const took = e.tookMs === undefined ? 'not done' : `took ${e.tookMs} ms`;
  if (e.status === 'held') return void suite.cases.push(testCase(classname, name));
  if (e.status === 'pending') {
    suite.skipped++;
    return void suite.cases.push(
      testCase(classname, name, `<skipped message="${escape(`still pending (${took})`)}"/>`),
    );
  }
  suite.failures++;
  const message = `broken: ${took}, since ${e.since}`;
  suite.cases.push(testCase(classname, name, `<failure type="expectation" message="${escape(message)}"/>`));
}

/** The suite of the segments no longer kept: one case, failed when they had findings or broke an expectation. */
function droppedSuite(report: GradingReport): Suite {
  const { segments, summary } = report.droppedSegments;
  const name = 'older segments';
  const suite: Suite = { name, timestamp: report.generatedAt, cases: [], failures: 0, skipped: 0 };
  const caseName = `${plural(segments, 'segment')} no longer kept (only counted)`;
  const counts = `${plural(summary.errors, 'error')}, ${plural(summary.warnings, 'warning')}, ${plural(summary.infos, 'info')}, ${summary.expectationsBroken} expectations broken`;
  if (summary.errors + summary.warnings + summary.infos + summary.expectationsBroken === 0) {
    suite.cases.push(testCase(name, caseName));
    return suite;
  }
  suite.failures++;
  const text = `${counts} in the oldest segments of the run, let go to bound the memory: only their counts are kept.`;
  const failure = `<failure type="dropped" message="${escape(counts)}">${escape(text)}</failure>`;
  suite.cases.push(testCase(name, caseName, failure));
  return suite;
}

/** Every finding of a rule in a segment, with its client, fix and evidence. */
function failureText(findings: readonly ReportFinding[]): string {
  return findings
    .map((f) => {
      const who = `${f.client.remote}${f.client.users.length > 0 ? ` (${f.client.users.join(', ')})` : ''}`;
      const evidence = f.evidence.map((e) => `    ${e.time} #${e.seq} ${JSON.stringify(e)}`).join('\n');
      const more = f.moreEvidence > 0 ? `\n    ... ${f.moreEvidence} more` : '';
      return `[${f.severity}] device ${f.device}, client ${who}: ${f.message}\n  fix: ${f.fix}\n  evidence:\n${evidence}${more}`;
    })
    .join('\n\n');
}

function testCase(classname: string, name: string, body = ''): string {
  const open = `<testcase classname="${escape(classname)}" name="${escape(name)}" time="0"`;
  return body === '' ? `${open}/>` : `${open}>${body}</testcase>`;
}

/** XML text and attribute escaping; characters XML 1.0 cannot carry become U+FFFD. */
function escape(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}
