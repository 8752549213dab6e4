/**
 * The grader: reads the journal and the devices' facts and says what the client under test
 * did wrong (`GET /_emu/report`, `report()`, `bwc-emu run --report/--junit/--fail-on`).
 * Pure: the same journal, facts and time give the same report.
 */
import { EmulatorError } from '../base/errors';
import { SEVERITIES, SEVERITY_RANK, severityCount, THRESHOLDS } from '../base/grading-report-shape';
import type { JournalEntry } from '../base/journal';
import { judgeExpectations } from './expectations';
import { type GradingContext, type Rule, topicFilters } from './grading-context';
import { type DeviceFacts, JournalIndex } from './journal-index';
import { DEFAULT_THRESHOLDS, type Finding, type GradingReport, type GradingThresholds } from './report';
import { assembleReport, firstSegment, type GradedSlice } from './report-assembly';
import { RULE_IDS, type RuleId, type Severity } from './rule-catalogue';
import { AUTH_RULES } from './rules/auth-rules';
import { RECONNECT_RULES } from './rules/reconnect-rules';
import { REFUSAL_RULES } from './rules/refusal-rules';
import { SUBSCRIPTION_RULES } from './rules/subscription-rules';
import { WASTE_RULES } from './rules/waste-rules';

/** Each rule id's function, joined from the rule files' tables: a rule of the catalogue without one is a compile error. */
const RULE_FUNCTION_OF: Readonly<Record<RuleId, Rule>> = {
  ...AUTH_RULES,
  ...RECONNECT_RULES,
  ...REFUSAL_RULES,
  ...SUBSCRIPTION_RULES,
  ...WASTE_RULES,
};

/** Every rule function once, in the catalogue's order (one named at two ids, as auth-failed and auth-recovered, runs once). */
const RULE_FUNCTIONS: readonly Rule[] = [...new Set(RULE_IDS.map((id) => RULE_FUNCTION_OF[id]))];

/** What the grader reads. */
export interface GradingInput {
  /** The journal's entries, oldest first. */
  entries: readonly JournalEntry[];
  /** Entries the bounded journal had pushed out (the report says so). */
  dropped: number;
  devices: readonly DeviceFacts[];
  /** The time of the report, epoch ms. */
  now: number;
  thresholds?: Partial<GradingThresholds>;
  /**
   * The client under test has stopped (its command ended): a window that waits for its next try
   * of a refused request is over, since none can come (see {@link GradingContext.clientStopped}).
   */
  clientStopped?: boolean;
}

/**
 * Grades the client: every rule over the journal, the scenario's expectations, and a summary,
 * as a report of one segment (the emulator's report of several: ./segment-report).
 */
export function grade(input: GradingInput): GradingReport {
  const slice = gradeSlice(input, checkedThresholds(input.thresholds ?? {}));
  return assembleReport({
    now: input.now,
    thresholds: slice.thresholds,
    rules: RULE_IDS,
    segments: [{ ref: firstSegment(), named: false, from: startOf(input), to: input.now, ended: false, slice }],
  });
}

/** Every rule over one journal slice and its expectations, judged at `input.now` under `thresholds`. */
export function gradeSlice(input: Omit<GradingInput, 'thresholds'>, thresholds: GradingThresholds): GradedSlice {
  const devices = new Map(input.devices.map((d) => [d.serial, d]));
  const context: GradingContext = {
    index: new JournalIndex(input.entries),
    devices,
    thresholds,
    now: input.now,
    clientStopped: input.clientStopped === true,
    topicFilter: topicFilters(devices),
  };
  const findings: Finding[] = RULE_FUNCTIONS.flatMap((rule) => rule(context)).sort(
    (a, b) =>
      SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] || (a.evidence[0]?.seq ?? 0) - (b.evidence[0]?.seq ?? 0),
  );
  const expectations = judgeExpectations(context);
  return { thresholds, findings, expectations, journal: { entries: input.entries.length, dropped: input.dropped } };
}

/**
 * Whether a report fails at `failOn`: any finding that severe or worse, or a broken expectation,
 * in any segment (the summary counts the dropped segments' too).
 */
export function reportFails(report: GradingReport, failOn: Severity | 'never'): boolean {
  if (failOn === 'never') return false;
  const worst = SEVERITIES.slice(0, SEVERITY_RANK[failOn] + 1);
  return report.summary.expectationsBroken > 0 || worst.some((severity) => report.summary[severityCount(severity)] > 0);
}

/** `base` (the defaults) with `given` over them; `BAD_OPTION` for an unknown name or a value out of range. */
export function checkedThresholds(
  given: Partial<GradingThresholds>,
  base: GradingThresholds = DEFAULT_THRESHOLDS,
): GradingThresholds {
  for (const [name, value] of Object.entries(given) as [keyof GradingThresholds, unknown][]) {
    if (!Object.hasOwn(DEFAULT_THRESHOLDS, name))
      throw new EmulatorError(
        'BAD_OPTION',
        `no grading threshold "${name}"; thresholds: ${Object.keys(DEFAULT_THRESHOLDS).join(', ')}`,
      );
    if (value === undefined) continue;
    // Counts are whole numbers of 1 or more; durations 0 or more ms.
    const count = THRESHOLDS[name].unit === 'count';
    const valid =
      typeof value === 'number' &&
      Number.isFinite(value) &&
      (count ? Number.isInteger(value) && value >= 1 : value >= 0);
    if (!valid)
      throw new EmulatorError(
        'BAD_OPTION',
        `grading threshold ${name} must be ${count ? 'a whole number of 1 or more' : 'a number of milliseconds, 0 or more'}, not ${typeof value === 'number' ? value : JSON.stringify(value)}`,
      );
  }
  const defined = Object.entries(given).filter(([, value]) => value !== undefined);
  return { ...base, ...Object.fromEntries(defined) };
}

/** When a slice began: its first entry's time, or `now` when it has none. */
function startOf(input: GradingInput): number {
  return input.entries.length > 0 ? Date.parse(input.entries[0].time) : input.now;
}
