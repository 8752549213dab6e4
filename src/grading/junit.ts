/**
 * The report as JUnit XML (`bwc-emu run --junit FILE`): one test case per rule and per
 * scenario expectation, so a CI system lists each; a rule with findings fails, with every
 * finding and its evidence in the failure's text. Whether the run's exit code fails is
 * `--fail-on`'s business, not this file's.
 */
import type { GradingReport } from './report';

/** The JUnit XML document of `report`. */
export function reportJunit(report: GradingReport): string {
  const cases: string[] = [];
  let failures = 0;
  let skipped = 0;
  for (const rule of report.rules) {
    const findings = report.findings.filter((f) => f.rule === rule.id);
    const name = `${rule.id}: ${rule.title}`;
    if (findings.length === 0) {
      cases.push(testCase('bwc-emu.rules', name));
      continue;
    }
    failures++;
    const text = findings
      .map((f) => {
        const who = `${f.client.remote}${f.client.users.length > 0 ? ` (${f.client.users.join(', ')})` : ''}`;
        const evidence = f.evidence.map((e) => `    ${e.time} #${e.seq} ${JSON.stringify(e)}`).join('\n');
        const more = f.moreEvidence > 0 ? `\n    ... ${f.moreEvidence} more` : '';
        return `[${f.severity}] device ${f.device}, client ${who}: ${f.message}\n  fix: ${f.fix}\n  evidence:\n${evidence}${more}`;
      })
      .join('\n\n');
    const message = `${findings.length} finding${findings.length === 1 ? '' : 's'}: ${findings[0].message}`;
    cases.push(
      testCase(
        'bwc-emu.rules',
        name,
        `<failure type="${rule.severity}" message="${escape(message)}">${escape(text)}</failure>`,
      ),
    );
  }
  for (const e of report.expectations) {
    const name = `${e.name} (${e.that}${e.topic ? ` ${e.topic}` : ''} within ${e.withinMs} ms) on ${e.device}`;
    const took = e.tookMs === undefined ? 'not done' : `took ${e.tookMs} ms`;
    if (e.status === 'held') cases.push(testCase('bwc-emu.expectations', name));
    else if (e.status === 'pending') {
      skipped++;
      cases.push(testCase('bwc-emu.expectations', name, `<skipped message="${escape(`still pending (${took})`)}"/>`));
    } else {
      failures++;
      const message = `broken: ${took}, since ${e.since}`;
      cases.push(testCase('bwc-emu.expectations', name, `<failure type="expectation" message="${escape(message)}"/>`));
    }
  }
  const attributes = `tests="${cases.length}" failures="${failures}" errors="0" skipped="${skipped}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="bwc-emu" ${attributes}>`,
    `  <testsuite name="bwc-emu client grading" ${attributes} timestamp="${report.generatedAt}">`,
    ...cases.map((c) => `    ${c}`),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

function testCase(classname: string, name: string, body = ''): string {
  const open = `<testcase classname="${classname}" name="${escape(name)}" time="0"`;
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
