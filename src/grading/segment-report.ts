/**
 * The report of a run made of segments (./segments): the ended segments as they were graded
 * at their end (graded again when the report asks for other thresholds and their entries were
 * kept), the running one graded now, and the counts the dropped ones left. Pure.
 */
import type { JournalEntry } from '../base/journal';
import { gradeSlice } from './grade';
import type { DeviceFacts } from './journal-index';
import type { GradingReport, GradingThresholds } from './report';
import { assembleReport, defaultSegmentName, type GradedSegment, type GradedSlice } from './report-assembly';
import type { GradingSelection } from './report-selection';
import type { CurrentSegment, EndedSegment, SegmentLog } from './segments';

/** Which segments a report covers: every one (the run's report), or the running one only (a test's own check). */
export type SegmentScope = 'all' | 'current';

/** The segment scopes. */
export const SEGMENT_SCOPES: readonly SegmentScope[] = ['all', 'current'];

/** What {@link segmentedReport} reads. */
export interface SegmentedReportInput {
  readonly log: SegmentLog;
  /** The running segment's journal: its entries (every device's), what the journal dropped, the devices' facts. */
  readonly current: {
    readonly entries: readonly JournalEntry[];
    readonly dropped: number;
    readonly devices: readonly DeviceFacts[];
  };
  /** The time of the report, epoch ms. */
  readonly now: number;
  readonly selection: GradingSelection;
  readonly scope: SegmentScope;
  /** The client under test has stopped (see GradingInput.clientStopped): for the running segment. */
  readonly clientStopped?: boolean;
  /** Only the findings, expectations and entries of these devices (every device's when undefined). */
  readonly only: ReadonlySet<string> | undefined;
}

/** The report of the run's segments (or the running one), oldest first. */
export function segmentedReport(input: SegmentedReportInput): GradingReport {
  const { log, selection, only } = input;
  const segments: GradedSegment[] =
    input.scope === 'all' ? log.ended.map((segment) => endedSegment(segment, selection.thresholds, only)) : [];
  const entries = only === undefined ? input.current.entries : input.current.entries.filter((e) => only.has(e.device));
  const running = log.current;
  // A running segment without a name or an entry says nothing, unless it is the only one.
  if (running.name !== undefined || entries.length > 0 || segments.length === 0) {
    const slice = gradeSlice(
      {
        entries,
        dropped: input.current.dropped,
        devices: input.current.devices,
        now: input.now,
        clientStopped: input.clientStopped,
      },
      selection.thresholds,
    );
    segments.push(gradedSegment(running, input.now, false, slice));
  }
  return assembleReport({
    now: input.now,
    thresholds: selection.thresholds,
    rules: selection.rules,
    segments,
    dropped: input.scope === 'all' ? log.droppedFor(only) : undefined,
  });
}

/** An ended segment under `thresholds`: graded again from its entries when they differ from its own and it kept them. */
function endedSegment(
  segment: EndedSegment,
  thresholds: GradingThresholds,
  only: ReadonlySet<string> | undefined,
): GradedSegment {
  const ofDevice = <T extends { device: string }>(items: readonly T[]): T[] =>
    only === undefined ? [...items] : items.filter((item) => only.has(item.device));
  const entries = [...segment.entriesByDevice].reduce(
    (n, [device, count]) => (only === undefined || only.has(device) ? n + count : n),
    0,
  );
  const { graded, journal } = segment;
  if (journal !== undefined && !sameThresholds(graded.thresholds, thresholds)) {
    const input = {
      entries: ofDevice(journal.entries),
      dropped: segment.dropped,
      devices: journal.devices,
      now: segment.to,
    };
    return gradedSegment(segment, segment.to, true, gradeSlice(input, thresholds));
  }
  const slice: GradedSlice = {
    thresholds: graded.thresholds,
    findings: ofDevice(graded.findings),
    expectations: ofDevice(graded.expectations),
    journal: { entries, dropped: segment.dropped },
  };
  return gradedSegment(segment, segment.to, true, slice);
}

/** `segment` as the report assembles it, ending at `to`. */
function gradedSegment(segment: CurrentSegment, to: number, ended: boolean, slice: GradedSlice): GradedSegment {
  const ref = { index: segment.index, name: segment.name ?? defaultSegmentName(segment.index) };
  return { ref, named: segment.name !== undefined, from: segment.from, to, ended, slice };
}

/** Whether two sets of thresholds are the same, name by name. */
function sameThresholds(a: GradingThresholds, b: GradingThresholds): boolean {
  const names = new Set([...Object.keys(a), ...Object.keys(b)]) as Set<keyof GradingThresholds>;
  return [...names].every((name) => a[name] === b[name]);
}
