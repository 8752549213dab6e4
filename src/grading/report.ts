/**
 * What the grader produces: findings with their evidence, the rules' verdicts and the
 * scenario's expectations. The shape is declared once, as zod schemas, in
 * ../base/grading-report-shape (the control API answers and documents the same schemas); the
 * types here are inferred from it, with the grader's own rule ids and journal entries, read-only.
 */
import {
  DEFAULT_THRESHOLDS,
  type GradingSummarySchema,
  type GradingThresholds,
  type gradingReportSchemas,
  type SegmentRefSchema,
} from '../base/grading-report-shape';
import type { JournalEntry } from '../base/journal';
import type { z } from 'zod';
import type { RuleId } from './rule-catalogue';

export { DEFAULT_THRESHOLDS, type GradingThresholds };

/** The report's schemas as the grader's types see them: its rule ids, the journal's entries. */
type Shape = ReturnType<typeof gradingReportSchemas<RuleId, JournalEntry>>;

/** A schema's type, read-only. */
type Out<S extends z.ZodType> = Readonly<z.output<S>>;

/** One thing the client did wrong. */
export type Finding = Out<Shape['Finding']>;

/** The client a finding is about: its address and the user names it authenticated (or tried) as. */
export type GradedClient = Finding['client'];

/** Entries a finding carries at most. */
export const MAX_EVIDENCE = 10;

/** A scenario `expect:` step and whether the client met it. */
export type ExpectationResult = Out<Shape['Expectation']>;

/** A rule's verdict over the whole journal. */
export type RuleVerdict = Out<Shape['RuleVerdict']>;

/** The whole report (`GET /_emu/report`, `report()`, `bwc-emu run --report`). */
export type GradingReport = Out<Shape['Report']>;

/** How many findings of each severity, and how many expectations broken. */
export type GradingSummary = Out<typeof GradingSummarySchema>;

/** A segment of a run: from the start or a reset to the next reset (a test, when tests reset between them). */
export type SegmentRef = Out<typeof SegmentRefSchema>;

/** A finding, and the segment it was found in. */
export type ReportFinding = Out<Shape['ReportFinding']>;

/** An expectation, and the segment it was judged in. */
export type ReportExpectation = Out<Shape['ReportExpectation']>;

/** A segment as the report lists it. */
export type SegmentSummary = Out<Shape['SegmentSummary']>;
