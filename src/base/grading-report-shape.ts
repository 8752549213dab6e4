/**
 * The grading report's shape, declared once: its zod schemas, from which the grader's types
 * (../grading/report) are inferred and the control API's answer and OpenAPI document
 * (../control/report-schemas) are made. It sits here, below both, because control may not
 * import its sibling grading. The severities and the thresholds are declared here too, each a
 * table the schemas, the order and the docs derive from.
 *
 * The schemas take the schema of a rule id and of a journal entry ({@link gradingReportSchemas}):
 * the grader's types have its `RuleId` and the journal's `JournalEntry`, the control API's
 * document any string and the journal entry's schema.
 */
import { z } from 'zod';

/** How bad a finding is, worst first: `error` breaks clients in the field, `warning` wastes or risks, `info` tells. */
export const SEVERITIES = ['error', 'warning', 'info'] as const;

/** The schema of a {@link Severity}. */
export const SeveritySchema = z.enum(SEVERITIES);

/** One of {@link SEVERITIES}. */
export type Severity = z.infer<typeof SeveritySchema>;

/** Each severity's rank, 0 the worst (the order of {@link SEVERITIES}). */
export const SEVERITY_RANK = Object.freeze(
  Object.fromEntries(SEVERITIES.map((severity, rank) => [severity, rank])) as Record<Severity, number>,
);

/** The summary's count of a severity's findings: `errors`, `warnings`, `infos`. */
export type SeverityCount = `${Severity}s`;

/** The summary's field that counts `severity`'s findings. */
export function severityCount(severity: Severity): SeverityCount {
  return `${severity}s`;
}

/** A grading threshold: its default, whether it is a duration (ms, 0 or more) or a count (1 or more), and what it means. */
export interface ThresholdSpec {
  readonly default: number;
  readonly unit: 'ms' | 'count';
  /** For docs/grading.md#thresholds. */
  readonly meaning: string;
}

/** The timings the rules hold the client to, by name (docs/grading.md#thresholds). */
export const THRESHOLDS = {
  minRetryIntervalMs: {
    default: 1000,
    unit: 'ms',
    meaning: 'refused attempts in a row closer than this (median) are "no back-off"',
  },
  minRetryRun: { default: 4, unit: 'count', meaning: 'refused attempts in a row before the back-off is judged' },
  reconnectWithinMs: {
    default: 60_000,
    unit: 'ms',
    meaning:
      'after the device ended its session (or came back from a reboot), the client has a session again within this',
  },
  configureWithinMs: { default: 10_000, unit: 'ms', meaning: 'a new session is configured within this' },
  staleRetryWithinMs: {
    default: 5000,
    unit: 'ms',
    meaning: 'after `stale=true` the request is repeated within this',
  },
  recoverWithinMs: {
    default: 5000,
    unit: 'ms',
    meaning:
      'a request refused for its credentials whose next try got past them within this recovered (`auth-recovered`, an info)',
  },
  stallDetectWithinMs: {
    default: 30_000,
    unit: 'ms',
    meaning: 'a stall whose pings go unanswered is noticed (a new session) within this',
  },
  maxSessionsPerClient: { default: 2, unit: 'count', meaning: 'sessions one client holds on one device at once' },
  pollingWindowMs: {
    default: 60_000,
    unit: 'ms',
    meaning: "the window a client's requests to one CGI method are counted over (`polling`)",
  },
  pollingMaxRequests: {
    default: 60,
    unit: 'count',
    meaning:
      'requests to one CGI method (path and JSON-RPC `method`) one client makes within the window: one a second; a call every few seconds, or a 503 retried with back-off, stays far below',
  },
  minUnusedTokens: {
    default: 3,
    unit: 'count',
    meaning:
      'session tokens a client fetched and never used for a handshake before `token-unused` speaks: one is a client stopping between its fetch and its connect',
  },
  maxRefusedRepeats: {
    default: 2,
    unit: 'count',
    meaning:
      'times a refused request (the same body, the same error answer) may be sent again after its refusal before `refused-repeated` speaks: a retry or two',
  },
} as const satisfies Record<string, ThresholdSpec>;

/** A threshold's name. */
export type ThresholdName = keyof typeof THRESHOLDS;

/** `value` of each threshold, by name, in the table's order. */
function eachThreshold<T>(value: (spec: ThresholdSpec) => T): { [N in ThresholdName]: T } {
  return Object.fromEntries(Object.entries(THRESHOLDS).map(([name, spec]) => [name, value(spec)])) as {
    [N in ThresholdName]: T;
  };
}

/** The thresholds a report applied, by name. */
export const ThresholdsSchema = z.object(eachThreshold(() => z.number()));

/** The thresholds, every one of them given. */
export type GradingThresholds = Readonly<z.infer<typeof ThresholdsSchema>>;

/** The defaults of {@link GradingThresholds}. */
export const DEFAULT_THRESHOLDS: GradingThresholds = Object.freeze(eachThreshold((spec) => spec.default));

/** How many findings of each severity, and how many expectations broken. */
export const GradingSummarySchema = z.object({
  ...(Object.fromEntries(SEVERITIES.map((severity) => [severityCount(severity), z.number().int()])) as Record<
    SeverityCount,
    z.ZodNumber
  >),
  expectationsBroken: z.number().int(),
});

/** A segment of a run (from the start or a reset to the next reset), as a finding or an expectation names it. */
export const SegmentRefSchema = z.object({
  /** 1 for the first, counting every reset. */
  index: z.number().int().meta({ description: '1 for the first, counting every reset' }),
  /** The name the test gave (`reset({ segment })`, `POST /_emu/reset?segment=`), else `segment <index>`. */
  name: z.string().meta({ description: 'the name the test gave it, else `segment <index>`' }),
});

/** What a report's or a segment's journal held: entries read, and entries the bounded journal had pushed out before. */
const JournalCountsSchema = z.object({ entries: z.number().int(), dropped: z.number().int() });

/**
 * The report's schemas, for rule ids of `ruleId` and evidence of `entry` (see the file's
 * comment). Each schema once; only ../control/report-schemas makes them at run time.
 */
export function gradingReportSchemas<R extends string, E>(ruleId: z.ZodType<R>, entry: z.ZodType<E>) {
  /** One thing the client did wrong. */
  const Finding = z.object({
    rule: ruleId.meta({ description: 'rule id, documented in docs/grading.md' }),
    severity: SeveritySchema,
    /** Serial of the device it happened on. */
    device: z.string(),
    /** Its address as the device saw it (`unknown` when the socket had none), and the users it tried. */
    client: z.object({ remote: z.string(), users: z.array(z.string()).readonly() }),
    /** One line: what happened, with the measured figures. */
    message: z.string(),
    /** The journal entries that show it, oldest first (at most `MAX_EVIDENCE`). */
    evidence: z.array(entry).readonly(),
    /** Evidence entries left out past `MAX_EVIDENCE`. */
    moreEvidence: z.number().int().meta({ description: 'evidence entries left out' }),
    /** What to change in the client. */
    fix: z.string(),
  });
  /** A scenario `expect:` step and whether the client met it. */
  const Expectation = z.object({
    device: z.string(),
    name: z.string(),
    that: z.enum(['connected', 'configured']),
    topic: z.string().optional(),
    /** When the step ran. */
    since: z.string(),
    withinMs: z.number(),
    /** `held`: done in time; `broken`: the time passed without it; `pending`: there is still time. */
    status: z.enum(['held', 'broken', 'pending']),
    /** How long the client took, when it did. */
    tookMs: z.number().optional(),
    /** The entry that met it, when one did. */
    evidence: entry.optional(),
  });
  /** A rule's verdict over the whole run. */
  const RuleVerdict = z.object({ id: ruleId, severity: SeveritySchema, title: z.string(), findings: z.number().int() });
  /** A segment as the report lists it. */
  const SegmentSummary = SegmentRefSchema.extend({
    named: z.boolean().meta({ description: 'whether the test named it' }),
    from: z.string().meta({ description: 'when it began (the start, or the reset that began it)' }),
    to: z.string().meta({ description: 'when it ended (the reset), or the time of the report while it runs' }),
    /** False for the segment still running. */
    ended: z.boolean(),
    journal: JournalCountsSchema,
    thresholds: ThresholdsSchema.meta({ description: 'the thresholds its findings were judged by' }),
    summary: GradingSummarySchema,
  });
  const ReportFinding = Finding.extend({ segment: SegmentRefSchema });
  const ReportExpectation = Expectation.extend({ segment: SegmentRefSchema });
  /** The whole report (`GET /_emu/report`, `report()`, `bwc-emu run --report`). */
  const Report = z
    .object({
      /** When it was made (the emulator's clock). */
      generatedAt: z.string(),
      /** What the journal held, every segment listed. */
      journal: JournalCountsSchema,
      /** The thresholds asked for (a segment graded under others says so in its own). */
      thresholds: ThresholdsSchema,
      summary: GradingSummarySchema.meta({ description: "every segment's, the dropped segments' included" }),
      /** The rules applied, each with its findings in every segment (the dropped ones' included). */
      rules: z.array(RuleVerdict).readonly().meta({ description: 'the rules applied' }),
      skippedRules: z.array(ruleId).readonly().meta({ description: 'the rules left out (rules=, skipRules=)' }),
      /** The segments graded, oldest first (a reset ends one: docs/grading.md). */
      segments: z.array(SegmentSummary).readonly(),
      droppedSegments: z
        .object({ segments: z.number().int(), summary: GradingSummarySchema })
        .meta({ description: 'the oldest ended segments no longer kept: only their counts are left' }),
      /** Oldest segment first; in a segment, errors first, then by their first evidence. */
      findings: z.array(ReportFinding).readonly(),
      expectations: z.array(ReportExpectation).readonly(),
    })
    .meta({ id: 'Report' });
  return { Finding, Expectation, RuleVerdict, SegmentSummary, ReportFinding, ReportExpectation, Report };
}
