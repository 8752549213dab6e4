import { reportFails } from '../../../src/grading/grade';
import { reportJunit } from '../../../src/grading/junit';
import type { GradingReport } from '../../../src/grading/report';
import { reportTable } from '../../../src/grading/report-table';
import { RULE_IDS } from '../../../src/grading/rule-catalogue';
import { IO_PORT, JournalBuilder, MOTION, ruleIds, TOKEN_PATH } from './journal-builder';

describe('expectations', () => {
  it('holds "connected" when a session opened in time', () => {
    const b = new JournalBuilder();
    b.at(0).wsOpen('s0'); // before the step: does not count
    b.advance(50).configure('s0', [IO_PORT]);
    const step = b.at(1000).expect('reconnects', 'connected', 10_000);
    const open = b.at(4000).wsOpen('s1');
    b.advance(50).configure('s1', [MOTION]);
    const report = b.grade(b.time(60_000));
    expect(report.expectations).toEqual([
      {
        device: 'DEV1',
        name: 'reconnects',
        that: 'connected',
        topic: undefined,
        since: step.time,
        withinMs: 10_000,
        status: 'held',
        tookMs: 3000,
        evidence: open,
        segment: { index: 1, name: 'segment 1' },
      },
    ]);
    expect(report.summary.expectationsBroken).toBe(0);
  });

  it('breaks "connected" when the session came too late or never', () => {
    const late = new JournalBuilder();
    late.at(0).expect('reconnects', 'connected', 10_000);
    const open = late.at(10_001).wsOpen('s1');
    late.advance(50).configure('s1', [IO_PORT]);
    const lateReport = late.grade(late.time(60_000));
    expect(lateReport.expectations[0]).toMatchObject({ status: 'broken', tookMs: 10_001, evidence: open });
    expect(lateReport.summary.expectationsBroken).toBe(1);

    const never = new JournalBuilder();
    never.at(0).expect('reconnects', 'connected', 10_000);
    expect(never.grade(never.time(10_001)).expectations[0]).toMatchObject({
      status: 'broken',
      tookMs: undefined,
      evidence: undefined,
    });
  });

  it('keeps "connected" pending while there is time, and ignores other devices', () => {
    const b = new JournalBuilder();
    b.at(0).expect('reconnects', 'connected', 10_000);
    b.at(1000).wsOpen('s1', { device: 'DEV2' });
    const report = b.grade(b.time(10_000));
    expect(report.expectations[0]).toMatchObject({ status: 'pending', tookMs: undefined, evidence: undefined });
    expect(report.summary.expectationsBroken).toBe(0);
  });

  it('holds "configured" without a topic on the first successful configure', () => {
    const b = new JournalBuilder();
    b.at(0).wsOpen('s1');
    b.at(1000).expect('configures', 'configured', 5000);
    b.at(2000).configure('s1', ['tns1:Device/'], { error: { code: 2104, message: 'bad' } });
    const good = b.at(3500).configure('s1', [IO_PORT]);
    expect(b.grade(b.time(60_000)).expectations[0]).toMatchObject({
      that: 'configured',
      topic: undefined,
      status: 'held',
      tookMs: 2500,
      evidence: good,
    });
  });

  it('holds "configured" with a topic only on a configure selecting it (aliases resolved)', () => {
    const b = new JournalBuilder();
    b.at(0).expect('motion', 'configured', 5000, MOTION);
    b.at(100).wsOpen('s1');
    b.at(200).configure('s1', [IO_PORT]);
    const report = b.grade(b.time(4000));
    expect(report.expectations[0]).toMatchObject({ topic: MOTION, status: 'pending', tookMs: undefined });
    expect(b.grade(b.time(5001)).expectations[0]).toMatchObject({ status: 'broken', tookMs: undefined });

    const selecting = b.at(4800).configure('s1', [IO_PORT, 'onvif:VideoSource//.']);
    expect(b.grade(b.time(60_000)).expectations[0]).toMatchObject({
      status: 'held',
      tookMs: 4800,
      evidence: selecting,
    });
  });

  it('breaks "configured" with a topic when the configure selecting it came late', () => {
    const b = new JournalBuilder();
    b.at(0).expect('motion', 'configured', 5000, MOTION);
    b.at(100).wsOpen('s1');
    b.at(5100).configure('s1', [MOTION]);
    expect(b.grade(b.time(60_000)).expectations[0]).toMatchObject({ status: 'broken', tookMs: 5100 });
  });
});

describe('reportFails', () => {
  /** A report with one warning (a filter with a typo). */
  const warning = (): GradingReport => {
    const b = new JournalBuilder();
    b.at(0).wsOpen('s1');
    b.advance(50).configure('s1', ['tns1:VideoSource/MotionAlram']);
    return b.grade(b.time(60_000));
  };
  /** A report with one error (a session never configured). */
  const error = (): GradingReport => {
    const b = new JournalBuilder();
    b.at(0).wsOpen('s1');
    return b.grade(b.time(60_000));
  };
  const broken = (now: number): GradingReport => {
    const b = new JournalBuilder();
    b.at(0).expect('connects', 'connected', 10_000);
    return b.grade(b.time(now));
  };

  it('fails on a warning only at warning or info', () => {
    const report = warning();
    expect(ruleIds(report)).toEqual(['filter-matches-nothing']);
    expect(report.summary).toEqual({ errors: 0, warnings: 1, infos: 0, expectationsBroken: 0 });
    expect(reportFails(report, 'error')).toBe(false);
    expect(reportFails(report, 'warning')).toBe(true);
    expect(reportFails(report, 'info')).toBe(true);
    expect(reportFails(report, 'never')).toBe(false);
  });

  it('fails on an error at every level but never', () => {
    const report = error();
    expect(ruleIds(report)).toEqual(['configure-missing']);
    expect(report.summary).toEqual({ errors: 1, warnings: 0, infos: 0, expectationsBroken: 0 });
    expect(reportFails(report, 'error')).toBe(true);
    expect(reportFails(report, 'warning')).toBe(true);
    expect(reportFails(report, 'never')).toBe(false);
  });

  it('fails on a broken expectation without findings, but not on a pending one', () => {
    const report = broken(20_000);
    expect(report.findings).toEqual([]);
    expect(reportFails(report, 'error')).toBe(true);
    expect(reportFails(report, 'never')).toBe(false);
    expect(reportFails(broken(5000), 'info')).toBe(false);
  });

  it('does not fail an empty journal', () => {
    const report = new JournalBuilder().grade();
    expect(report.findings).toEqual([]);
    expect(report.expectations).toEqual([]);
    expect(reportFails(report, 'info')).toBe(false);
  });
});

describe('a well-behaved client', () => {
  /**
   * Digest with the nonce reused, a token fetched right before each connect, one filter per
   * topic, a stale nonce retried at once, back-off from 2 s doubling through a reboot, a
   * configure after each reconnect, a stall noticed within 30 s.
   */
  const wellBehaved = () => {
    const b = new JournalBuilder();
    const PARAM = '/axis-cgi/param.cgi';
    b.at(0).expect('first connect', 'connected', 5000);
    b.at(0).authRefused({ code: 'NO_CREDENTIALS', path: '/axis-cgi/basicdeviceinfo.cgi' });
    b.at(5).http({ path: '/axis-cgi/basicdeviceinfo.cgi' });
    b.at(100).tokenFetch();
    b.at(150).wsOpen('s1');
    b.at(200).configure('s1', [IO_PORT, MOTION]);
    b.at(1000).notification('s1', IO_PORT);
    b.at(2000).notification('s1', MOTION);
    b.at(20_000).http({ path: PARAM });
    b.at(31_000).authRefused({ code: 'STALE_NONCE', path: PARAM, stale: true });
    b.at(31_005).http({ path: PARAM });
    // A reboot: the device ends the session and refuses logins for 20 s.
    b.at(40_000).expect('back after reboot', 'connected', 60_000);
    b.at(40_000).expect('motion after reboot', 'configured', 60_000, MOTION);
    b.at(40_000).fault('reboot', 'start', { durationMs: 20_000 });
    b.at(40_000).deviceClose('s1', { code: 1012, reason: 'device restarting' });
    for (const at of [42_000, 44_000, 48_000, 56_000]) {
      b.at(at).authRefused({ code: 'REJECTING', path: TOKEN_PATH, scheme: undefined, user: undefined });
      b.at(at + 5).authRefused({ code: 'REJECTING', path: TOKEN_PATH, scheme: 'digest' });
    }
    b.at(60_000).fault('reboot', 'end');
    b.at(72_000).authRefused({ code: 'NO_CREDENTIALS', path: TOKEN_PATH });
    b.at(72_005).tokenFetch();
    b.at(72_100).wsOpen('s2');
    b.at(72_150).configure('s2', [IO_PORT, MOTION]);
    // A stall without pongs, noticed after 10 s.
    b.at(100_000).fault('stall', 'on', { pings: false });
    b.at(110_000).wsClose('s2', { by: 'client', code: 4000, reason: 'no pong' });
    b.at(110_050).tokenFetch();
    b.at(110_100).wsOpen('s3');
    b.at(110_150).configure('s3', [IO_PORT, MOTION]);
    b.at(140_000).fault('stall', 'off');
    b.at(141_000).notification('s3', IO_PORT);
    return b;
  };

  it('gets zero findings and holds every expectation', () => {
    const b = wellBehaved();
    const report = b.grade(b.time(300_000));
    expect(report.findings).toEqual([]);
    expect(report.summary).toEqual({ errors: 0, warnings: 0, infos: 0, expectationsBroken: 0 });
    expect(report.rules.map((r) => r.findings)).toEqual(RULE_IDS.map(() => 0));
    expect(report.expectations.map((e) => [e.name, e.status, e.tookMs])).toEqual([
      ['first connect', 'held', 150],
      ['back after reboot', 'held', 32_100],
      ['motion after reboot', 'held', 32_150],
    ]);
    expect(reportFails(report, 'info')).toBe(false);
  });

  it('is the baseline: the same journal with a fast retry loop is caught', () => {
    const b = wellBehaved();
    for (const at of [200_000, 200_100, 200_200, 200_300]) b.at(at).wsRefused();
    expect(ruleIds(b.grade(b.time(300_000)))).toEqual(['reconnect-no-backoff']);
  });
});

/** A small XML well-formedness check: one root, tags nested, attributes quoted, `&` and `<` escaped. */
function checkWellFormed(xml: string): void {
  const declaration = '<?xml version="1.0" encoding="UTF-8"?>\n';
  expect(xml.startsWith(declaration)).toBe(true);
  const body = xml.slice(declaration.length);
  const badAmp = /&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/;
  const tag = /^<(\/?)([A-Za-z_][\w.-]*)((?:\s+[A-Za-z_][\w.-]*="[^"<]*")*)\s*(\/?)>$/;
  const stack: string[] = [];
  let roots = 0;
  for (const token of body.match(/<[^>]*>|[^<]+/g) ?? []) {
    if (!token.startsWith('<')) {
      expect(token).not.toMatch(badAmp);
      expect(token).not.toContain('>');
      if (stack.length === 0) expect(token.trim()).toBe('');
      continue;
    }
    const m = tag.exec(token);
    if (!m) throw new Error(`not a well-formed tag: ${token}`);
    const [, closing, name, attributes, selfClosing] = m;
    expect(attributes).not.toMatch(badAmp);
    if (closing) {
      expect(stack.pop()).toBe(name);
      continue;
    }
    if (stack.length === 0) roots++;
    if (!selfClosing) stack.push(name);
  }
  expect(stack).toEqual([]);
  expect(roots).toBe(1);
}

function unescapeXml(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&gt;/g, '>')
    .replace(/&lt;/g, '<')
    .replace(/&amp;/g, '&');
}

/** The attributes of the first element named `name` whose text includes `containing`. */
function attributesOf(xml: string, element: string, containing: string): Record<string, string> {
  const tag = xml.split('\n').find((line) => line.includes(containing));
  const m = new RegExp(`<${element}\\s([^>]*)>`).exec(tag ?? '');
  if (!m) throw new Error(`no <${element}> on the line with ${containing}`);
  return Object.fromEntries([...m[1].matchAll(/([\w.-]+)="([^"]*)"/g)].map(([, k, v]) => [k, unescapeXml(v)]));
}

describe('reportJunit and reportTable', () => {
  /** Two rules with findings (one with <, &, quotes and a control character), three expectations. */
  const mixed = () => {
    const b = new JournalBuilder();
    b.at(0).expect('held one', 'connected', 10_000);
    b.at(0).expect('broken one', 'configured', 5000, MOTION);
    b.at(0).authRefused({
      code: 'WRONG_PASSWORD',
      path: '/axis-cgi/param.cgi',
      user: 'o"brien&<co>',
      reason: 'response <mismatch> & "nc" \u0001 bad',
    });
    b.at(1000).wsOpen('s1');
    b.at(50_000).expect('pending one', 'connected', 60_000);
    return b.grade(b.time(60_000), { dropped: 7 });
  };

  it('gives a well-formed document with a test case per rule and per expectation', () => {
    const report = mixed();
    expect(ruleIds(report)).toEqual(['auth-failed', 'configure-missing']);
    expect(report.expectations.map((e) => e.status)).toEqual(['held', 'broken', 'pending']);
    const xml = reportJunit(report);
    checkWellFormed(xml);
    expect(xml.match(/<testcase /g)).toHaveLength(RULE_IDS.length + 3);
    // One segment (no reset): its suite and classname are "segment 1".
    expect(xml.match(/<testcase classname="segment 1" name="[a-z-]+: /g)).toHaveLength(RULE_IDS.length);
    expect(xml.match(/<testcase classname="segment 1" name="expectation /g)).toHaveLength(3);
    expect(xml.match(/<failure /g)).toHaveLength(3);
    expect(xml.match(/<skipped /g)).toHaveLength(1);
    const counts = `tests="${RULE_IDS.length + 3}" failures="3" errors="0" skipped="1"`;
    expect(xml).toContain(`<testsuites name="bwc-emu" ${counts}>`);
    expect(xml).toContain(`<testsuite name="segment 1" ${counts} timestamp="${report.segments[0].from}">`);
  });

  it('fails the test cases of the rules with findings, with the severity and first message', () => {
    const report = mixed();
    const xml = reportJunit(report);
    for (const f of report.findings) {
      const failure = attributesOf(xml, 'failure', `name="${f.rule}: `);
      expect(failure).toEqual({ type: f.severity, message: `1 finding: ${f.message.replace('\u0001', '\uFFFD')}` });
    }
    const quiet = xml.split('\n').find((line) => line.includes('name="slow-consumer: '));
    expect(quiet).toMatch(/^\s*<testcase classname="segment 1" name="slow-consumer: [^"]*" time="0"\/>$/);
    expect(attributesOf(xml, 'failure', 'name="expectation broken one')).toEqual({
      type: 'expectation',
      message: `broken: not done, since ${report.expectations[1].since}`,
    });
    expect(attributesOf(xml, 'skipped', 'name="expectation pending one')).toEqual({
      message: 'still pending (not done)',
    });
  });

  it('escapes <, &, quotes and control characters in messages and evidence', () => {
    const xml = reportJunit(mixed());
    expect(xml).toContain(
      'message="1 finding: 1 request as &quot;o&quot;brien&amp;&lt;co&gt;&quot; refused with WRONG_PASSWORD: ' +
        'response &lt;mismatch&gt; &amp; &quot;nc&quot; \uFFFD bad"',
    );
    expect(xml).not.toContain('<mismatch>');
    expect(xml).not.toContain('\u0001');
    // The evidence (JSON of each entry) is in the failure text, escaped.
    expect(xml).toContain('&quot;code&quot;:&quot;WRONG_PASSWORD&quot;');
  });

  it('gives a table with the summary, every finding by rule id and every expectation', () => {
    const report = mixed();
    const table = reportTable(report);
    const lines = table.split('\n');
    expect(lines[0]).toBe('bwc-emu client report: 2 errors, 0 warnings, 1 of 3 expectations broken');
    expect(lines[1]).toBe('  (the journal dropped 7 older entries: early findings may be missing)');
    expect(lines[2]).toMatch(/^ {2}severity +rule +device +client +finding$/);
    for (const f of report.findings) {
      const row = lines.find((line) => line.includes(` ${f.rule} `));
      expect(row).toBeDefined();
      expect(row).toContain(f.message);
      expect(row).toMatch(new RegExp(`^  ${f.severity} `));
    }
    expect(table).toContain('  expectation held: held one on DEV1, connected within 10000 ms (took 1000 ms)\n');
    expect(table).toContain('  expectation broken: broken one on DEV1, configured within 5000 ms\n');
    expect(table).toContain('  expectation pending: pending one on DEV1, connected within 60000 ms\n');
    expect(table.endsWith('  Each finding, its evidence and its fix: --report FILE, or GET /_emu/report.\n')).toBe(
      true,
    );
  });

  it('gives a one-line table and a passing document for a clean report', () => {
    const report = new JournalBuilder().grade();
    expect(reportTable(report)).toBe('bwc-emu client report: 0 errors, 0 warnings\n');
    const xml = reportJunit(report);
    checkWellFormed(xml);
    expect(xml).not.toContain('<failure');
    expect(xml.match(/<testcase /g)).toHaveLength(RULE_IDS.length);
  });
});
