/**
 * How the recordings page writes numbers and times for people: durations in h/min/s,
 * instants in UTC (`2024-06-01 11:00:00 UTC`) and relative to now (`5 min ago`); sizes
 * come from base/size.ts (`formatBytes`, shared with the upload report). Pure.
 */

/** `1234567` -> `1,234,567 bytes`: the exact size, for a title. */
export function exactBytes(bytes: number): string {
  return `${String(Math.round(bytes)).replace(/\B(?=(\d{3})+(?!\d))/g, ',')} bytes`;
}

/** Seconds as `0 s`, `4.5 s`, `1 min 30 s`, `2 h 5 min`, `3 d 4 h`. */
export function formatSeconds(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '?';
  if (seconds < 10 && !Number.isInteger(seconds)) return `${Math.round(seconds * 10) / 10} s`;
  const whole = Math.round(seconds);
  if (whole < 60) return `${whole} s`;
  const parts: [number, string][] = [
    [Math.floor(whole / 86400), 'd'],
    [Math.floor(whole / 3600) % 24, 'h'],
    [Math.floor(whole / 60) % 60, 'min'],
    [whole % 60, 's'],
  ];
  const first = parts.findIndex(([n]) => n > 0);
  return parts
    .slice(first, first + 2)
    .filter(([n]) => n > 0)
    .map(([n, unit]) => `${n} ${unit}`)
    .join(' ');
}

/** Epoch ms as `2024-06-01 11:00:00 UTC`. */
export function formatUtc(ms: number): string {
  if (!Number.isFinite(ms)) return '?';
  return `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** How long ago `ms` was at `now`: `just now`, `42 s ago`, `5 min ago`, `3 h ago`, `2 d ago`, `in 5 min`. */
export function formatAgo(ms: number, now: number): string {
  const diff = now - ms;
  if (!Number.isFinite(diff)) return '?';
  const abs = Math.abs(diff);
  if (abs < 1000) return 'just now';
  const span = roughSpan(abs);
  return diff > 0 ? `${span} ago` : `in ${span}`;
}

/** A span in its largest whole unit: `42 s`, `5 min`, `3 h`, `2 d`. */
function roughSpan(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  if (seconds < 86400) return `${Math.floor(seconds / 3600)} h`;
  return `${Math.floor(seconds / 86400)} d`;
}

/** A metadata value as sent (URL-encoded UTF-8) in clear; a value that does not decode is shown as it is. */
export function decodeMetadataValue(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
