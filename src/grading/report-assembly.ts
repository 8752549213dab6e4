/**
 * The report made of graded segments: each segment's findings under the rules applied, with
 * the segment they belong to, a summary per segment and for the run (the dropped segments'
 * counts included), and each rule's verdict. Pure.
 */
import { SEVERITIES, type Severity, type SeverityCount, severityCount } from '../base/grading-report-shape';
import type {
  ExpectationResult,
  Finding,
  GradingReport,
  GradingSummary,
  GradingThresholds,
  ReportExpectation,
  ReportFinding,
  SegmentRef,
  SegmentSummary,
} from './report';
import { RULE_IDS, RULES, type RuleId } from './rule-catalogue';

/** What the rules and the expectations made of one journal slice (a segment), before any selection. */
export interface GradedSlice {
  readonly thresholds: GradingThresholds;
  /** Errors first, then by their first evidence. */
  readonly findings: readonly Finding[];
  readonly expectations: readonly ExpectationResult[];
  readonly journal: { readonly entries: number; readonly dropped: number };
}

/** A segment to report: its place in the run, its times (epoch ms) and what its slice graded to. */
export interface GradedSegment {
  readonly ref: SegmentRef;
  readonly named: boolean;
  readonly from: number;
  readonly to: number;
  readonly ended: boolean;
  readonly slice: GradedSlice;
}

/** What the oldest segments left when they were let go: how many, their findings by rule, their broken expectations. */
export interface DroppedTally {
  readonly segments: number;
  readonly findings: ReadonlyMap<RuleId, number>;
  readonly expectationsBroken: number;
}

/** The tally when no segment was dropped. */
export const NOTHING_DROPPED: DroppedTally = Object.freeze({ segments: 0, findings: new Map(), expectationsBroken: 0 });

/** What {@link assembleReport} puts together. */
export interface Assembly {
  /** The time of the report, epoch ms. */
  readonly now: number;
  /** The thresholds asked for. */
  readonly thresholds: GradingThresholds;
  /** The rules applied: the findings of any other rule are left out. */
  readonly rules: readonly RuleId[];
  readonly segments: readonly GradedSegment[];
  readonly dropped?: DroppedTally;
}

/** The name of segment `index` when the test gave it none. */
export function defaultSegmentName(index: number): string {
  return `segment ${index}`;
}

/** The first segment of a run (from its start to the first reset), unnamed. */
export function firstSegment(): SegmentRef {
  return { index: 1, name: defaultSegmentName(1) };
}

/** The report of `assembly`: every segment's findings and expectations, oldest segment first. */
export function assembleReport(assembly: Assembly): GradingReport {
  const applied = new Set(assembly.rules);
  const findings: ReportFinding[] = [];
  const expectations: ReportExpectation[] = [];
  const segments = assembly.segments.map((segment): SegmentSummary => {
    const { ref, slice } = segment;
    const own = slice.findings.filter((f) => applied.has(f.rule)).map((f) => ({ ...f, segment: ref }));
    const judged = slice.expectations.map((e) => ({ ...e, segment: ref }));
    findings.push(...own);
    expectations.push(...judged);
    return {
      ...ref,
      named: segment.named,
      from: new Date(segment.from).toISOString(),
      to: new Date(segment.to).toISOString(),
      ended: segment.ended,
      journal: slice.journal,
      thresholds: slice.thresholds,
      summary: summaryOf(own, judged),
    };
  });
  const dropped = assembly.dropped ?? NOTHING_DROPPED;
  const droppedRules = RULE_IDS.filter((id) => applied.has(id)).map(
    (id) => [id, dropped.findings.get(id) ?? 0] as const,
  );
  const droppedSummary = tallySummary(droppedRules, dropped.expectationsBroken);
  const overall = [summaryOf(findings, expectations), droppedSummary];
  const sum = (key: keyof GradingSummary): number => overall.reduce((n, s) => n + s[key], 0);
  return {
    generatedAt: new Date(assembly.now).toISOString(),
    journal: {
      entries: segments.reduce((n, s) => n + s.journal.entries, 0),
      dropped: segments.reduce((n, s) => n + s.journal.dropped, 0),
    },
    thresholds: assembly.thresholds,
    summary: {
      ...severityCounts((severity) => sum(severityCount(severity))),
      expectationsBroken: sum('expectationsBroken'),
    },
    rules: RULE_IDS.filter((id) => applied.has(id)).map((id) => ({
      id,
      severity: RULES[id].severity,
      title: RULES[id].title,
      findings: findings.filter((f) => f.rule === id).length + (dropped.findings.get(id) ?? 0),
    })),
    skippedRules: RULE_IDS.filter((id) => !applied.has(id)),
    segments,
    droppedSegments: { segments: dropped.segments, summary: droppedSummary },
    findings,
    expectations,
  };
}

/** The summary of `findings` and `expectations`. */
export function summaryOf(findings: readonly Finding[], expectations: readonly ExpectationResult[]): GradingSummary {
  const counts = severityCounts((severity) => findings.filter((f) => f.severity === severity).length);
  return { ...counts, expectationsBroken: expectations.filter((e) => e.status === 'broken').length };
}

/** The summary of findings counted by rule (their severity is the rule's). */
function tallySummary(byRule: readonly (readonly [RuleId, number])[], expectationsBroken: number): GradingSummary {
  const counts = severityCounts((severity) =>
    byRule.filter(([id]) => RULES[id].severity === severity).reduce((n, [, count]) => n + count, 0),
  );
  return { ...counts, expectationsBroken };
}

/** The summary's count of each severity (`errors`, `warnings`, `infos`), in the order of the severities. */
function severityCounts(counted: (severity: Severity) => number): Record<SeverityCount, number> {
  return Object.fromEntries(SEVERITIES.map((severity) => [severityCount(severity), counted(severity)])) as Record<
    SeverityCount,
    number
  >;
}
