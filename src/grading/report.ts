/** What the grader produces: findings with their evidence, the rules' verdicts and the scenario's expectations. */
import type { JournalEntry } from '../base/journal';
import type { RuleId, Severity } from './rule-catalogue';

/** The client a finding is about: its address and the user names it authenticated (or tried) as. */
export interface GradedClient {
  /** Remote address as the device saw it; `unknown` when the socket had none. */
  readonly remote: string;
  readonly users: readonly string[];
}

/** One thing the client did wrong. */
export interface Finding {
  readonly rule: RuleId;
  readonly severity: Severity;
  /** Serial of the device it happened on. */
  readonly device: string;
  readonly client: GradedClient;
  /** One line: what happened, with the measured figures. */
  readonly message: string;
  /** The journal entries that show it, oldest first (at most {@link MAX_EVIDENCE}). */
  readonly evidence: readonly JournalEntry[];
  /** Evidence entries left out past {@link MAX_EVIDENCE}. */
  readonly moreEvidence: number;
  /** What to change in the client. */
  readonly fix: string;
}

/** Entries a finding carries at most. */
export const MAX_EVIDENCE = 10;

/** A scenario `expect:` step and whether the client met it. */
export interface ExpectationResult {
  readonly device: string;
  readonly name: string;
  readonly that: 'connected' | 'configured';
  readonly topic: string | undefined;
  /** When the step ran. */
  readonly since: string;
  readonly withinMs: number;
  /** `held`: done in time; `broken`: the time passed without it; `pending`: there is still time. */
  readonly status: 'held' | 'broken' | 'pending';
  /** How long the client took, when it did. */
  readonly tookMs: number | undefined;
  /** The entry that met it, when one did. */
  readonly evidence: JournalEntry | undefined;
}

/** A rule's verdict over the whole journal. */
export interface RuleVerdict {
  readonly id: RuleId;
  readonly severity: Severity;
  readonly title: string;
  readonly findings: number;
}

/** The timings the rules hold the client to; every field has a documented default. */
export interface GradingThresholds {
  /** Retries closer than this (median of a run) count as no back-off. Default 1,000 ms. */
  readonly minRetryIntervalMs: number;
  /** Refused attempts in a row before the back-off is judged. Default 4. */
  readonly minRetryRun: number;
  /** The client must have a session again this long after the device ended it (or came back from a reboot). Default 60 s. */
  readonly reconnectWithinMs: number;
  /** A new session must be configured within this. Default 10 s. */
  readonly configureWithinMs: number;
  /** After `stale=true` the request must be repeated within this. Default 5 s. */
  readonly staleRetryWithinMs: number;
  /**
   * A request refused for its credentials whose next try (the HTTP library's re-send with the new
   * challenge, or the client's retry) got past the credentials within this recovered: an info, not
   * an error. Default 5 s.
   */
  readonly recoverWithinMs: number;
  /** A stall with unanswered pings must be noticed (a close or a new session) within this. Default 30 s. */
  readonly stallDetectWithinMs: number;
  /** Sessions one client may hold on one device at once. Default 2. */
  readonly maxSessionsPerClient: number;
  /** The window a client's rate of requests to one CGI method is measured over (`polling`). Default 60 s. */
  readonly pollingWindowMs: number;
  /** Requests to one CGI method one client may make within {@link pollingWindowMs}: one a second. Default 60. */
  readonly pollingMaxRequests: number;
  /** Session tokens fetched and never used before `token-unused` speaks (one is a client stopping). Default 3. */
  readonly minUnusedTokens: number;
  /** Times a refused request may be sent again, unchanged, after its refusal (a retry or two). Default 2. */
  readonly maxRefusedRepeats: number;
}

/** The defaults of {@link GradingThresholds}. */
export const DEFAULT_THRESHOLDS: GradingThresholds = Object.freeze({
  minRetryIntervalMs: 1000,
  minRetryRun: 4,
  reconnectWithinMs: 60_000,
  configureWithinMs: 10_000,
  staleRetryWithinMs: 5000,
  recoverWithinMs: 5000,
  stallDetectWithinMs: 30_000,
  maxSessionsPerClient: 2,
  pollingWindowMs: 60_000,
  pollingMaxRequests: 60,
  minUnusedTokens: 3,
  maxRefusedRepeats: 2,
});

/** The whole report (`GET /_emu/report`, `report()`, `bwc-emu run --report`). */
export interface GradingReport {
  /** When it was made (the emulator's clock). */
  readonly generatedAt: string;
  /** What the journal held: entries read, and entries the bounded journal had pushed out before (every segment listed). */
  readonly journal: { readonly entries: number; readonly dropped: number };
  /** The thresholds asked for (a segment graded under others says so in {@link SegmentSummary.thresholds}). */
  readonly thresholds: GradingThresholds;
  /** Every segment's findings and broken expectations, the dropped segments' included. */
  readonly summary: GradingSummary;
  /** The rules applied, each with its findings in every segment (the dropped ones' included). */
  readonly rules: readonly RuleVerdict[];
  /** The rules left out (`skipRules`, or every rule not in `rules`). */
  readonly skippedRules: readonly RuleId[];
  /** The segments graded, oldest first (a reset ends one: docs/grading.md). */
  readonly segments: readonly SegmentSummary[];
  /** The oldest ended segments no longer kept (the emulator keeps a bounded number): only their counts are left. */
  readonly droppedSegments: { readonly segments: number; readonly summary: GradingSummary };
  /** Oldest segment first; in a segment, errors first, then by their first evidence. */
  readonly findings: readonly ReportFinding[];
  readonly expectations: readonly ReportExpectation[];
}

/** How many findings of each severity, and how many expectations broken. */
export interface GradingSummary {
  readonly errors: number;
  readonly warnings: number;
  readonly infos: number;
  readonly expectationsBroken: number;
}

/** A segment of a run: from the start or a reset to the next reset (a test, when tests reset between them). */
export interface SegmentRef {
  /** 1 for the first, counting every reset. */
  readonly index: number;
  /** The name the test gave (`reset({ segment })`, `POST /_emu/reset?segment=`), else `segment <index>`. */
  readonly name: string;
}

/** A finding, and the segment it was found in. */
export interface ReportFinding extends Finding {
  readonly segment: SegmentRef;
}

/** An expectation, and the segment it was judged in. */
export interface ReportExpectation extends ExpectationResult {
  readonly segment: SegmentRef;
}

/** A segment as the report lists it. */
export interface SegmentSummary extends SegmentRef {
  /** Whether the test named it. */
  readonly named: boolean;
  /** When it began (the start, or the reset that began it). */
  readonly from: string;
  /** When it ended (the reset), or the report's time for the segment still running. */
  readonly to: string;
  /** False for the segment still running. */
  readonly ended: boolean;
  readonly journal: { readonly entries: number; readonly dropped: number };
  /** The thresholds its findings were judged by. */
  readonly thresholds: GradingThresholds;
  readonly summary: GradingSummary;
}
