/**
 * Small pieces of markup the destination's pages share: an instant, a size, a status
 * badge, the link to a container's detail page.
 */
import type { RecordingInfo } from '../recordings';
import { formatBytes } from '../../base/size';
import { exactBytes, formatAgo, formatUtc } from './format';
import { markup, type SafeHtml } from './html';
import type { PageStatus } from './page-status';

/** Link to the detail page of a container. */
export function detailHref(container: string): string {
  return `/recordings/${encodeURIComponent(container)}`;
}

/** Link to an object of a container, through the page (behind the page's login). */
export function objectHref(container: string, object: string): string {
  return `${detailHref(container)}/objects/${object.split('/').map(encodeURIComponent).join('/')}`;
}

/** An instant: UTC date and time, how long ago below it, the exact ISO time in `datetime`. */
export function instant(ms: number, now: number): SafeHtml {
  if (!Number.isFinite(ms)) return markup`unknown`;
  const iso = new Date(ms).toISOString();
  return markup`<time datetime="${iso}" title="${iso}">${formatUtc(ms)}</time><small>${formatAgo(ms, now)}</small>`;
}

/** A readable size with the exact byte count in its title. */
export function size(bytes: number): SafeHtml {
  return markup`<span title="${exactBytes(bytes)}">${formatBytes(bytes)}</span>`;
}

/** The status as a badge, with the refusal's reason or the last activity below it. */
export function statusBadge(recording: RecordingInfo, status: PageStatus, now: number): SafeHtml {
  const note =
    status === 'not transferred'
      ? recording.reason
      : status === 'complete'
        ? undefined
        : `last activity ${formatAgo(recording.updated, now)}`;
  return markup`<span class="badge">${status}</span>${note ? markup`<small>${note}</small>` : ''}`;
}
