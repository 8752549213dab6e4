/**
 * The grading of a running emulator: its standing choice of thresholds and rules, and the
 * segments of its run (../grading/segments). A reset ends a segment before the journal is
 * cleared; a report covers every segment kept, or the running one.
 */
import type { Journal } from '../base/journal';
import { EmulatorError } from '../base/errors';
import type { SegmentInfo } from '../control/controlled-emulator';
import { defaultSegmentName } from '../grading/report-assembly';
import type { GradingReport } from '../grading/report';
import { type GradingChoice, gradingSelection, type GradingSelection } from '../grading/report-selection';
import { SEGMENT_SCOPES, type SegmentScope, segmentedReport } from '../grading/segment-report';
import { type CurrentSegment, SegmentLog } from '../grading/segments';
import { deviceFacts } from './device-facts';
import type { RunningDevice } from './running-device';

/** What a report asks for: a grading choice over the standing one, and the segments it covers. */
export type RunReportOptions = GradingChoice & { segments?: SegmentScope; clientStopped?: boolean };

/** The grading of one emulator. */
export interface RunGrading {
  /** The report of the devices `only` (every device when undefined). */
  report(options: RunReportOptions, only: string | undefined): GradingReport;
  /** Ends the running segment as the journal stands now, and begins the next (named `next`). */
  endSegment(next: string | undefined): void;
  /** Names the running segment. */
  nameSegment(name: string): SegmentInfo;
}

/**
 * The grading of `devices` over `journal`: under `standing` unless a report asks otherwise,
 * keeping `segmentCapacity` ended segments (and, to grade them again, as many of their entries
 * as the journal holds).
 */
export function runGrading(
  devices: readonly RunningDevice[],
  journal: Journal,
  standing: GradingSelection,
  segmentCapacity: number | undefined,
): RunGrading {
  const log = new SegmentLog(journal.now(), segmentCapacity, journal.capacity);
  /** The facts of the devices `only` (every device's when undefined). */
  const factsOf = (only: ReadonlySet<string> | undefined) =>
    devices.filter((d) => only === undefined || only.has(d.device.serial)).map(deviceFacts);
  return {
    report: (options, device) => {
      const scope = options.segments ?? 'all';
      if (!SEGMENT_SCOPES.includes(scope))
        throw new EmulatorError(
          'BAD_OPTION',
          `segments must be ${SEGMENT_SCOPES.join(' or ')}, not ${JSON.stringify(scope)}`,
        );
      const only = device === undefined ? undefined : new Set([device]);
      return segmentedReport({
        log,
        current: { entries: journal.entries(), dropped: journal.dropped, devices: factsOf(only) },
        now: journal.now(),
        selection: gradingSelection(options, standing),
        scope,
        only,
        clientStopped: options.clientStopped,
      });
    },
    endSegment: (next) =>
      log.end(
        {
          entries: journal.entries(),
          dropped: journal.dropped,
          devices: factsOf(undefined),
          now: journal.now(),
          thresholds: standing.thresholds,
        },
        next,
      ),
    nameSegment: (name) => segmentInfo(log.name(name)),
  };
}

/** `segment` as the control API answers it. */
function segmentInfo(segment: CurrentSegment): SegmentInfo {
  return {
    index: segment.index,
    name: segment.name ?? defaultSegmentName(segment.index),
    named: segment.name !== undefined,
    from: new Date(segment.from).toISOString(),
  };
}
