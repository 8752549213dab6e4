/**
 * The zod schema of `GET /_emu/report`: the grader's report (../grading, made by the emulator
 * layer) as JSON. Declared here, as the journal's is, because control may not import its
 * sibling grading; the compiler checks the two agree (`EmulatorHandle.report` must fit
 * `ControlledEmulator.report`).
 */
import { z } from 'zod';
import { JournalEntrySchema } from './journal-schemas';

const severity = z.enum(['error', 'warning', 'info']);

/** A segment of the run (a reset ends one), as a finding or an expectation names it. */
const SegmentRefSchema = z.object({
  index: z.number().int().meta({ description: '1 for the first, counting every reset' }),
  name: z.string().meta({ description: 'the name the test gave it, else `segment <index>`' }),
});

const SummarySchema = z.object({
  errors: z.number().int(),
  warnings: z.number().int(),
  infos: z.number().int(),
  expectationsBroken: z.number().int(),
});

const FindingSchema = z.object({
  rule: z.string().meta({ description: 'rule id, documented in docs/grading.md' }),
  severity,
  device: z.string(),
  client: z.object({ remote: z.string(), users: z.array(z.string()).readonly() }),
  message: z.string(),
  evidence: z.array(JournalEntrySchema).readonly(),
  moreEvidence: z.number().int().meta({ description: 'evidence entries left out' }),
  fix: z.string(),
  segment: SegmentRefSchema,
});

const ExpectationSchema = z.object({
  device: z.string(),
  name: z.string(),
  that: z.enum(['connected', 'configured']),
  topic: z.string().optional(),
  since: z.string(),
  withinMs: z.number(),
  status: z.enum(['held', 'broken', 'pending']),
  tookMs: z.number().optional(),
  evidence: JournalEntrySchema.optional(),
  segment: SegmentRefSchema,
});

/** The thresholds a report applied, by name (docs/grading.md#thresholds). */
export const ThresholdsSchema = z.object({
  minRetryIntervalMs: z.number(),
  minRetryRun: z.number(),
  reconnectWithinMs: z.number(),
  configureWithinMs: z.number(),
  staleRetryWithinMs: z.number(),
  recoverWithinMs: z.number(),
  stallDetectWithinMs: z.number(),
  maxSessionsPerClient: z.number(),
  pollingWindowMs: z.number(),
  pollingMaxRequests: z.number(),
  minUnusedTokens: z.number(),
  maxRefusedRepeats: z.number(),
});

/** A segment as the report lists it. */
const SegmentSummarySchema = SegmentRefSchema.extend({
  named: z.boolean().meta({ description: 'whether the test named it' }),
  from: z.string().meta({ description: 'when it began (the start, or the reset that began it)' }),
  to: z.string().meta({ description: 'when it ended (the reset), or the time of the report while it runs' }),
  ended: z.boolean(),
  journal: z.object({ entries: z.number().int(), dropped: z.number().int() }),
  thresholds: ThresholdsSchema.meta({ description: 'the thresholds its findings were judged by' }),
  summary: SummarySchema,
});

/** The answer of `GET /_emu/report` (and the shape of `report()`). */
export const ReportSchema = z
  .object({
    generatedAt: z.string(),
    journal: z.object({ entries: z.number().int(), dropped: z.number().int() }),
    thresholds: ThresholdsSchema,
    summary: SummarySchema.meta({ description: "every segment's, the dropped segments' included" }),
    rules: z
      .array(z.object({ id: z.string(), severity, title: z.string(), findings: z.number().int() }))
      .readonly()
      .meta({ description: 'the rules applied' }),
    skippedRules: z.array(z.string()).readonly().meta({ description: 'the rules left out (rules=, skipRules=)' }),
    segments: z.array(SegmentSummarySchema).readonly(),
    droppedSegments: z
      .object({ segments: z.number().int(), summary: SummarySchema })
      .meta({ description: 'the oldest ended segments no longer kept: only their counts are left' }),
    findings: z.array(FindingSchema).readonly(),
    expectations: z.array(ExpectationSchema).readonly(),
  })
  .meta({ id: 'Report' });
