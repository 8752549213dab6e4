/**
 * The segments of a run (a reset ends one): what an ended segment keeps, what a report of
 * every segment says, the bound on kept segments and entries, and the JUnit and table of a
 * run of several segments. Journals from the builder; no sockets, no timers.
 */
import { EmulatorError } from '../../../src/base/errors';
import type { JournalEntry } from '../../../src/base/journal';
import { reportFails } from '../../../src/grading/grade';
import { reportJunit } from '../../../src/grading/junit';
import { DEFAULT_THRESHOLDS, type GradingReport } from '../../../src/grading/report';
import { DEFAULT_SELECTION, gradingSelection } from '../../../src/grading/report-selection';
import { reportTable } from '../../../src/grading/report-table';
import { RULE_IDS } from '../../../src/grading/rule-catalogue';
import { type SegmentScope, segmentedReport } from '../../../src/grading/segment-report';
import { SegmentLog } from '../../../src/grading/segments';
import { IO_PORT, JournalBuilder, T0 } from './journal-builder';

/** A session opened `at` ms after the start and never configured: configure-missing once 10 s have passed. */
function unconfigured(b: JournalBuilder, at: number, device = 'DEV1'): JournalEntry[] {
  return [b.at(at).wsOpen(`s${at}`, { device })];
}

/** A session configured with a typo: filter-matches-nothing (a warning) at once. */
function typo(b: JournalBuilder, at: number): JournalEntry[] {
  return [b.at(at).wsOpen(`t${at}`), b.advance(50).configure(`t${at}`, ['tns1:VideoSource/MotionAlram'])];
}

/** Ends the running segment of `log` at `at` ms with `entries`, naming the next `next`. */
function reset(log: SegmentLog, b: JournalBuilder, entries: JournalEntry[], at: number, next?: string): void {
  log.end({ entries, dropped: 0, devices: devices(b), now: T0 + at, thresholds: DEFAULT_THRESHOLDS }, next);
}

/** DEV1 and DEV2, as the builder knows them. */
function devices(b: JournalBuilder) {
  return [b.facts(), b.facts({ serial: 'DEV2' })];
}

/** The report at `at` ms of `log` with `entries` in the running segment. */
function report(
  log: SegmentLog,
  b: JournalBuilder,
  entries: JournalEntry[],
  at: number,
  options: { selection?: typeof DEFAULT_SELECTION; scope?: SegmentScope; only?: string } = {},
): GradingReport {
  return segmentedReport({
    log,
    current: { entries, dropped: 0, devices: devices(b) },
    now: T0 + at,
    selection: options.selection ?? DEFAULT_SELECTION,
    scope: options.scope ?? 'all',
    only: options.only === undefined ? undefined : new Set([options.only]),
  });
}

/** The `[rule, segment name]` of each finding. */
const found = (r: GradingReport): [string, string][] => r.findings.map((f) => [f.rule, f.segment.name]);

describe('segments', () => {
  it('keeps what a reset ended, and reports every segment with its findings, names and times', () => {
    const b = new JournalBuilder();
    const log = new SegmentLog(T0);
    reset(log, b, unconfigured(b, 0), 15_000, 'test typo');
    const r = report(log, b, typo(b, 20_000), 30_000);
    expect(found(r)).toEqual([
      ['configure-missing', 'segment 1'],
      ['filter-matches-nothing', 'test typo'],
    ]);
    expect(r.findings.map((f) => f.segment)).toEqual([
      { index: 1, name: 'segment 1' },
      { index: 2, name: 'test typo' },
    ]);
    expect(r.summary).toEqual({ errors: 1, warnings: 1, infos: 0, expectationsBroken: 0 });
    expect(
      r.segments.map(({ index, name, named, from, to, ended }) => ({ index, name, named, from, to, ended })),
    ).toEqual([
      { index: 1, name: 'segment 1', named: false, from: iso(0), to: iso(15_000), ended: true },
      { index: 2, name: 'test typo', named: true, from: iso(15_000), to: iso(30_000), ended: false },
    ]);
    expect(r.segments.map((s) => [s.journal.entries, s.summary.errors, s.summary.warnings])).toEqual([
      [1, 1, 0],
      [2, 0, 1],
    ]);
    expect(r.journal).toEqual({ entries: 3, dropped: 0 });
    expect(r.rules.find((v) => v.id === 'configure-missing')?.findings).toBe(1);
    expect(reportFails(r, 'error')).toBe(true);
  });

  it('judges an ended segment as the journal stood at its reset: a window not over then is not judged', () => {
    const b = new JournalBuilder();
    const log = new SegmentLog(T0);
    // Opened 5 s before the reset: its 10 s configure window was not over.
    reset(log, b, unconfigured(b, 10_000), 15_000);
    expect(found(report(log, b, [], 60_000))).toEqual([]);
    // The same session in the running segment is judged at the report's time.
    expect(found(report(new SegmentLog(T0), b, unconfigured(b, 10_000), 60_000))).toEqual([
      ['configure-missing', 'segment 1'],
    ]);
  });

  it('lists a segment without a name or entries only when it is the only one', () => {
    const b = new JournalBuilder();
    const log = new SegmentLog(T0);
    reset(log, b, [], 1000, 'first test'); // before the first test: nothing, no name
    expect(log.ended).toEqual([]);
    expect(report(log, b, [], 2000).segments.map((s) => s.name)).toEqual(['first test']);
    reset(log, b, [], 3000); // a named segment is kept even when its client did nothing
    expect(log.ended.map((s) => s.name)).toEqual(['first test']);
    const r = report(log, b, [], 4000);
    expect(r.segments.map((s) => [s.index, s.name])).toEqual([[2, 'first test']]);
    expect(report(new SegmentLog(T0), b, [], 4000).segments.map((s) => s.name)).toEqual(['segment 1']);
  });

  it("reports the running segment only with scope current, without the dropped segments' counts", () => {
    const b = new JournalBuilder();
    const log = new SegmentLog(T0, 1);
    reset(log, b, unconfigured(b, 0), 15_000, 'two');
    reset(log, b, unconfigured(b, 15_000), 30_000, 'three');
    const r = report(log, b, typo(b, 31_000), 40_000, { scope: 'current' });
    expect(found(r)).toEqual([['filter-matches-nothing', 'three']]);
    expect(r.segments.map((s) => s.index)).toEqual([3]);
    expect(r.droppedSegments).toEqual({
      segments: 0,
      summary: { errors: 0, warnings: 0, infos: 0, expectationsBroken: 0 },
    });
  });

  it('lets the oldest segments go past the capacity, and still counts their findings (of the device asked for)', () => {
    const b = new JournalBuilder();
    const log = new SegmentLog(T0, 2);
    reset(log, b, unconfigured(b, 0, 'DEV2'), 15_000, 'b'); // segment 1, on DEV2
    reset(log, b, unconfigured(b, 15_000), 30_000, 'c');
    reset(log, b, unconfigured(b, 30_000), 45_000, 'd');
    expect(log.ended.map((s) => s.name)).toEqual(['b', 'c']);
    const r = report(log, b, [], 50_000);
    expect(found(r)).toEqual([
      ['configure-missing', 'b'],
      ['configure-missing', 'c'],
    ]);
    expect(r.droppedSegments).toEqual({
      segments: 1,
      summary: { errors: 1, warnings: 0, infos: 0, expectationsBroken: 0 },
    });
    expect(r.summary.errors).toBe(3);
    expect(r.rules.find((v) => v.id === 'configure-missing')?.findings).toBe(3);
    reset(log, b, [], 55_000); // ends 'd' (named, kept though empty), which pushes out 'b' (of DEV1)
    const dev1 = report(log, b, [], 60_000, { only: 'DEV1' });
    expect(found(dev1)).toEqual([['configure-missing', 'c']]);
    expect(dev1.droppedSegments.summary.errors).toBe(1);
    expect(dev1.summary.errors).toBe(2);
    expect(report(log, b, [], 60_000).summary.errors).toBe(3);
    expect(report(log, b, [], 60_000, { only: 'DEV2' }).summary.errors).toBe(1);
  });

  it('grades an ended segment again under other thresholds while it keeps its entries, and says what it applied', () => {
    const b = new JournalBuilder();
    const log = new SegmentLog(T0, 10, 1);
    reset(log, b, unconfigured(b, 0), 15_000, 'second');
    reset(log, b, unconfigured(b, 15_000), 30_000); // keeps these entries; the budget (1) lets the first go
    expect(log.ended.map((s) => s.journal?.entries.length)).toEqual([undefined, 1]);
    const patient = gradingSelection({ thresholds: { configureWithinMs: 20_000 } });
    const r = report(log, b, [], 40_000, { selection: patient });
    // The first keeps its finding as judged at its reset; the second, graded again, has none.
    expect(found(r)).toEqual([['configure-missing', 'segment 1']]);
    expect(r.thresholds.configureWithinMs).toBe(20_000);
    expect(r.segments.map((s) => s.thresholds.configureWithinMs)).toEqual([10_000, 20_000]);
    expect(r.segments[1].journal).toEqual({ entries: 1, dropped: 0 });
    // The same thresholds as at the reset: the kept findings, graded once.
    expect(found(report(log, b, [], 40_000))).toEqual([
      ['configure-missing', 'segment 1'],
      ['configure-missing', 'second'],
    ]);
  });

  it("applies the rule selection to every segment, the dropped ones' counts included", () => {
    const b = new JournalBuilder();
    const log = new SegmentLog(T0, 1);
    reset(log, b, unconfigured(b, 0), 15_000);
    reset(log, b, typo(b, 15_000), 30_000);
    const all = report(log, b, typo(b, 31_000), 40_000);
    expect(all.summary).toEqual({ errors: 1, warnings: 2, infos: 0, expectationsBroken: 0 });
    const skipped = report(log, b, typo(b, 31_000), 40_000, {
      selection: gradingSelection({ skipRules: ['configure-missing'] }),
    });
    expect(skipped.summary).toEqual({ errors: 0, warnings: 2, infos: 0, expectationsBroken: 0 });
    expect(skipped.droppedSegments.summary.errors).toBe(0);
    expect(skipped.skippedRules).toEqual(['configure-missing']);
    expect(skipped.rules.map((v) => v.id)).toEqual(RULE_IDS.filter((id) => id !== 'configure-missing'));
    const only = report(log, b, typo(b, 31_000), 40_000, {
      selection: gradingSelection({ rules: ['configure-missing'] }),
    });
    expect(only.summary).toEqual({ errors: 1, warnings: 0, infos: 0, expectationsBroken: 0 });
    expect(reportFails(only, 'error')).toBe(true);
    expect(only.findings).toEqual([]);
  });

  it('names the running segment, and refuses a bad name without ending the segment', () => {
    const b = new JournalBuilder();
    const log = new SegmentLog(T0);
    expect(log.name('tests/test_a.py::test_one[param-1] ✓')).toEqual({
      index: 1,
      name: 'tests/test_a.py::test_one[param-1] ✓',
      from: T0,
    });
    for (const bad of ['', '   ', 'two\nlines', 'tab\there', 'x'.repeat(201), 'nul\u0000', 'line\u2028sep']) {
      expect(() => log.name(bad)).toThrow(EmulatorError);
      expect(() => reset(log, b, unconfigured(b, 0), 15_000, bad)).toThrow(/^a segment name /);
    }
    expect(() => log.name('x'.repeat(200))).not.toThrow();
    expect(log.current.index).toBe(1);
    expect(log.ended).toEqual([]);
  });

  it('refuses a capacity that is not a whole number of 1 or more', () => {
    for (const capacity of [0, 1.5, Number.NaN])
      expect(() => new SegmentLog(T0, capacity)).toThrow('segmentCapacity must be a whole number from 1 to 100000');
  });
});

describe('reportJunit and reportTable of several segments', () => {
  /** Segment 1 (let go) and segment 2 with an error each, then `test <typo> & "quotes"` with a warning. */
  const run = (): GradingReport => {
    const b = new JournalBuilder();
    const log = new SegmentLog(T0, 2);
    reset(log, b, unconfigured(b, 0), 15_000);
    reset(log, b, unconfigured(b, 15_000), 30_000, 'test <typo> & "quotes"');
    const typoed = [...typo(b, 31_000), b.at(32_000).notification('t31000', IO_PORT)];
    reset(log, b, typoed, 40_000);
    return report(log, b, [], 45_000);
  };

  it('gives a test suite per segment named as it, a case per rule and expectation, and one for the dropped segments', () => {
    const r = run();
    expect(r.segments.map((s) => s.name)).toEqual(['segment 2', 'test <typo> & "quotes"']);
    const xml = reportJunit(r);
    const suites = [...xml.matchAll(/<testsuite name="([^"]*)" tests="(\d+)" failures="(\d+)"/g)].map((m) =>
      m.slice(1),
    );
    expect(suites).toEqual([
      ['segment 2', String(RULE_IDS.length), '1'],
      ['test &lt;typo&gt; &amp; &quot;quotes&quot;', String(RULE_IDS.length), '1'],
      ['older segments', '1', '1'],
    ]);
    expect(xml).toContain(`<testsuites name="bwc-emu" tests="${2 * RULE_IDS.length + 1}" failures="3"`);
    expect(xml.match(/<testcase classname="segment 2" /g)).toHaveLength(RULE_IDS.length);
    expect(xml).toMatch(
      /<testcase classname="test &lt;typo&gt; &amp; &quot;quotes&quot;" name="filter-matches-nothing: [^"]*" time="0"><failure type="warning"/,
    );
    expect(xml).toMatch(
      /<testcase classname="segment 2" name="configure-missing: [^"]*" time="0"><failure type="error"/,
    );
    expect(xml).toContain(
      '<testcase classname="older segments" name="1 segment no longer kept (only counted)" time="0">' +
        '<failure type="dropped" message="1 error, 0 warnings, 0 infos, 0 expectations broken">',
    );
  });

  it('shows the segment of each finding, and what was let go', () => {
    const table = reportTable(run());
    expect(table).toContain('bwc-emu client report: 2 errors, 1 warning in 3 segments\n');
    expect(table).toContain(
      '  (the oldest segment is not listed, only counted: 1 error, 0 warnings, 0 expectations broken)',
    );
    expect(table).toMatch(/^ {2}segment +severity +rule +device +client +finding$/m);
    expect(table).toMatch(/^ {2}segment 2 +error +configure-missing +DEV1 /m);
    expect(table).toMatch(/^ {2}test <typo> & "quotes" +warning +filter-matches-nothing +DEV1 /m);
  });

  it('shows no segment column for a run without resets', () => {
    const b = new JournalBuilder();
    const table = reportTable(report(new SegmentLog(T0), b, unconfigured(b, 0), 15_000));
    expect(table).toMatch(/^ {2}severity +rule +device +client +finding$/m);
    expect(table).toContain('bwc-emu client report: 1 error, 0 warnings\n');
  });
});

/** The ISO time `ms` after the start. */
function iso(ms: number): string {
  return new Date(T0 + ms).toISOString();
}
