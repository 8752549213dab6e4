/**
 * The status the recordings page shows, derived at the moment of showing: a
 * transferring recording with no activity for the configured time is `stalled`,
 * so a client that stopped mid-upload stands out from one that is busy. Pure.
 */
import type { RecordingInfo } from '../recordings';

/** A recording's status on the page. */
export type PageStatus = 'complete' | 'transferring' | 'stalled' | 'not transferred';

/** The status on the page at `now`; `stalledAfterMs` of no activity makes a transferring recording stalled. */
export function pageStatus(
  recording: Pick<RecordingInfo, 'status' | 'updated'>,
  now: number,
  stalledAfterMs: number,
): PageStatus {
  if (recording.status === 'transferring' && now - recording.updated >= stalledAfterMs) return 'stalled';
  return recording.status;
}

/** Newest trigger time first; recordings without a valid time last; then by container name. */
export function newestFirst(
  a: Pick<RecordingInfo, 'triggerOnTime' | 'container'>,
  b: Pick<RecordingInfo, 'triggerOnTime' | 'container'>,
): number {
  if (a.triggerOnTime === '' || b.triggerOnTime === '') {
    if (a.triggerOnTime !== b.triggerOnTime) return a.triggerOnTime === '' ? 1 : -1;
  }
  return b.triggerOnTime.localeCompare(a.triggerOnTime) || a.container.localeCompare(b.container);
}

/** The CSS class of a status: `s-not-transferred`. */
export function statusClass(status: PageStatus): string {
  return `s-${status.replace(' ', '-')}`;
}
