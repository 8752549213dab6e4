/**
 * Upload progress for people watching. On a terminal: one line redrawn in place
 * (`\r`) with a bar, recordings done, bytes sent and the rate, at most every 100 ms.
 * Elsewhere (CI logs, files): plain lines, one when the upload starts and one per
 * finished recording, never one per chunk of bytes.
 */
import { formatBytes } from '../base/size';
import type { Progress, RecordingReport } from '../index';
import { formatRequest, statusText } from './upload-report';

/** What a finished-recording line shows. */
export type FinishedRecording = Pick<RecordingReport, 'container' | 'status' | 'bytes' | 'seconds'> &
  Partial<Pick<RecordingReport, 'request' | 'probe' | 'retries'>>;

/** Options of {@link createProgressOutput}. */
export interface ProgressOutputOptions {
  write: (text: string) => void;
  /** Redraw one line (a terminal) or print plain lines. */
  isTty: boolean;
  /** Milliseconds, for the throttle and the rate (default `Date.now`; tests pass their own). */
  now?: () => number;
  /** Least time between two redraws on a terminal (default 100 ms). */
  intervalMs?: number;
  /** Characters of the bar (default 24). */
  barWidth?: number;
}

/** Takes progress and finished recordings, writes what fits the output. */
export interface ProgressOutput {
  /** New counts (a `runBodyWornSystem` `onProgress`). */
  update(progress: Progress): void;
  /** A recording finished (a line when not on a terminal). */
  recordingDone(recording: FinishedRecording): void;
  /** The run is over: draws the last state and ends the line on a terminal. */
  finish(): void;
}

/** A progress output for a terminal or for plain lines. */
export function createProgressOutput(options: ProgressOutputOptions): ProgressOutput {
  return options.isTty ? terminalProgress(options) : lineProgress(options);
}

/** `[##########--------------]  42%  1/3 recordings  2.5 MB / 6.0 MB  3.10 MB/s`. */
export function progressLine(progress: Progress, elapsedMs: number, barWidth = 24): string {
  const share =
    progress.bytesTotal > 0
      ? progress.bytesSent / progress.bytesTotal
      : progress.recordingsTotal > 0
        ? progress.recordingsDone / progress.recordingsTotal
        : 1;
  // Retried clips are sent again, so the bytes sent can pass the total.
  const clamped = Math.min(1, Math.max(0, share));
  const filled = Math.round(clamped * barWidth);
  const rate = elapsedMs > 0 ? progress.bytesSent / 1e6 / (elapsedMs / 1000) : 0;
  return [
    `[${'#'.repeat(filled)}${'-'.repeat(barWidth - filled)}]`,
    `${String(Math.floor(clamped * 100)).padStart(3)}%`,
    `${progress.recordingsDone}/${progress.recordingsTotal} recordings`,
    `${formatBytes(progress.bytesSent)} / ${formatBytes(progress.bytesTotal)}`,
    `${rate.toFixed(2)} MB/s`,
  ].join('  ');
}

/** `officer_1_AABBCCDD1234_20261123T101500Z -> transferred, 2.0 MB, 0.31 s` (and the failed request). */
export function finishedLine(recording: FinishedRecording): string {
  const request =
    recording.request && recording.status !== 'transferred' ? ` (${formatRequest(recording.request)})` : '';
  return `${recording.container} -> ${statusText(recording)}, ${formatBytes(recording.bytes)}, ${recording.seconds.toFixed(2)} s${request}`;
}

function terminalProgress(options: ProgressOutputOptions): ProgressOutput {
  const now = options.now ?? Date.now;
  const interval = options.intervalMs ?? 100;
  let started: number | undefined;
  let lastDraw: number | undefined;
  let latest: Progress | undefined;
  let drawn = false;
  let dirty = false;
  const draw = (at: number): void => {
    if (!latest) return;
    lastDraw = at;
    drawn = true;
    dirty = false;
    // \x1b[K clears what a longer earlier line left to the right.
    options.write(`\r${progressLine(latest, at - (started ?? at), options.barWidth)}\x1b[K`);
  };
  return {
    update(progress) {
      const at = now();
      started ??= at;
      latest = progress;
      dirty = true;
      const complete = progress.recordingsDone === progress.recordingsTotal && progress.recordingsTotal > 0;
      if (lastDraw === undefined || at - lastDraw >= interval || complete) draw(at);
    },
    recordingDone() {
      // The bar counts it; the table after the run lists it.
    },
    finish() {
      if (dirty) draw(now());
      if (drawn) options.write('\n');
    },
  };
}

function lineProgress(options: ProgressOutputOptions): ProgressOutput {
  let announced = false;
  return {
    update(progress) {
      if (announced) return;
      announced = true;
      options.write(
        `Uploading ${progress.recordingsTotal} recording${progress.recordingsTotal === 1 ? '' : 's'} (${formatBytes(progress.bytesTotal)})\n`,
      );
    },
    recordingDone(recording) {
      options.write(`${finishedLine(recording)}\n`);
    },
    finish() {
      // Every line is already out.
    },
  };
}
