/**
 * The segments of a run: a reset ends one (a test, when the tests reset between them) and
 * begins the next. An ended segment is graded at its end, as the journal stood then (windows
 * not over by then are not judged), under the emulator's standing thresholds and every rule;
 * what it found is kept, so that a reset never loses a finding. Its entries are kept too
 * while they fit a budget (the journal's capacity, for every ended segment together), so that
 * a report asking for other thresholds can grade it again. The oldest segments beyond the
 * capacity are let go: only their counts by device and rule are left. Pure bookkeeping.
 */
import type { JournalEntry } from '../base/journal';
import { checkedSegmentName } from '../base/segment-name';
import { wholeNumberOption } from '../base/option-checks';
import { gradeSlice } from './grade';
import type { DeviceFacts } from './journal-index';
import type { GradingThresholds } from './report';
import type { DroppedTally, GradedSlice } from './report-assembly';
import type { RuleId } from './rule-catalogue';

/** Ended segments kept by default: a test suite of this many tests is reported whole. */
export const DEFAULT_SEGMENT_CAPACITY = 1000;

/** The largest segment capacity. */
export const MAX_SEGMENT_CAPACITY = 100_000;

/** The segment running now. */
export interface CurrentSegment {
  readonly index: number;
  /** The test's name for it, undefined until one is given. */
  readonly name: string | undefined;
  /** When it began, epoch ms. */
  readonly from: number;
}

/** The journal of a segment as it ends. */
export interface SegmentEnd {
  /** Every entry of the segment, oldest first. */
  readonly entries: readonly JournalEntry[];
  /** Entries the journal pushed out during the segment. */
  readonly dropped: number;
  /** The facts of the devices as they are at the end. */
  readonly devices: readonly DeviceFacts[];
  /** The end, epoch ms. */
  readonly now: number;
  /** The standing thresholds it is graded under. */
  readonly thresholds: GradingThresholds;
}

/** An ended segment as kept. */
export interface EndedSegment extends CurrentSegment {
  readonly to: number;
  /** Its entries by device serial (what a report of some devices counts). */
  readonly entriesByDevice: ReadonlyMap<string, number>;
  /** Entries the journal pushed out during it. */
  readonly dropped: number;
  /** What it was graded to at its end: standing thresholds, every rule, every device. */
  readonly graded: GradedSlice;
  /** Its entries and the facts of their devices, while within the budget: to grade it again. */
  readonly journal: { readonly entries: readonly JournalEntry[]; readonly devices: readonly DeviceFacts[] } | undefined;
}

/** The segments of one emulator's run. */
export class SegmentLog {
  private running: CurrentSegment;
  private readonly kept: EndedSegment[] = [];
  private keptEntries = 0;
  private droppedSegments = 0;
  /** The dropped segments' findings, by device and rule, and their broken expectations by device. */
  private readonly droppedFindings = new Map<string, Map<RuleId, number>>();
  private readonly droppedBroken = new Map<string, number>();

  /**
   * @param start when the run began, epoch ms
   * @param capacity ended segments kept (1 or more)
   * @param entryBudget entries kept for grading again, all ended segments together
   */
  constructor(
    start: number,
    private readonly capacity = DEFAULT_SEGMENT_CAPACITY,
    private readonly entryBudget = 0,
  ) {
    wholeNumberOption('segmentCapacity', capacity, 1, MAX_SEGMENT_CAPACITY);
    this.running = { index: 1, name: undefined, from: start };
  }

  /** The segment running now. */
  get current(): CurrentSegment {
    return this.running;
  }

  /** The ended segments kept, oldest first. */
  get ended(): readonly EndedSegment[] {
    return this.kept;
  }

  /** Names the running segment (`BAD_OPTION` for a bad name); returns it. */
  name(name: string): CurrentSegment {
    this.running = { ...this.running, name: checkedSegmentName(name) };
    return this.running;
  }

  /**
   * Ends the running segment with its journal `end` and begins the next, named `next` when
   * given (checked first: a bad name ends nothing). A segment without a name in which nothing
   * was journaled is not kept: it would only say that nothing happened.
   */
  end(end: SegmentEnd, next?: string): void {
    const name = checkedSegmentName(next);
    const ended = this.running;
    this.running = { index: ended.index + 1, name, from: end.now };
    if (ended.name === undefined && end.entries.length === 0) return;
    const entriesByDevice = new Map<string, number>();
    for (const entry of end.entries) entriesByDevice.set(entry.device, (entriesByDevice.get(entry.device) ?? 0) + 1);
    const serials = new Set(entriesByDevice.keys());
    this.kept.push({
      ...ended,
      to: end.now,
      entriesByDevice,
      dropped: end.dropped,
      graded: gradeSlice(end, end.thresholds),
      journal: { entries: end.entries, devices: end.devices.filter((d) => serials.has(d.serial)) },
    });
    this.keptEntries += end.entries.length;
    this.release();
  }

  /** What the dropped segments left of the devices in `only` (every device when undefined). */
  droppedFor(only: ReadonlySet<string> | undefined): DroppedTally {
    const findings = new Map<RuleId, number>();
    let expectationsBroken = 0;
    for (const [device, byRule] of this.droppedFindings) {
      if (only !== undefined && !only.has(device)) continue;
      for (const [rule, count] of byRule) findings.set(rule, (findings.get(rule) ?? 0) + count);
    }
    for (const [device, count] of this.droppedBroken)
      if (only === undefined || only.has(device)) expectationsBroken += count;
    return { segments: this.droppedSegments, findings, expectationsBroken };
  }

  /** Lets the oldest segments go past the capacity, and the oldest entries past the budget. */
  private release(): void {
    while (this.kept.length > this.capacity) this.drop(this.kept.shift() as EndedSegment);
    for (let i = 0; this.keptEntries > this.entryBudget && i < this.kept.length; i++) {
      const segment = this.kept[i];
      if (segment.journal === undefined) continue;
      this.keptEntries -= segment.journal.entries.length;
      this.kept[i] = { ...segment, journal: undefined };
    }
  }

  /** Counts what `segment` found, and forgets the rest of it. */
  private drop(segment: EndedSegment): void {
    this.droppedSegments++;
    if (segment.journal !== undefined) this.keptEntries -= segment.journal.entries.length;
    for (const f of segment.graded.findings) {
      const byRule = this.droppedFindings.get(f.device) ?? new Map<RuleId, number>();
      byRule.set(f.rule, (byRule.get(f.rule) ?? 0) + 1);
      this.droppedFindings.set(f.device, byRule);
    }
    for (const e of segment.graded.expectations)
      if (e.status === 'broken') this.droppedBroken.set(e.device, (this.droppedBroken.get(e.device) ?? 0) + 1);
  }
}
