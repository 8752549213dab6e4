/** How times and durations read on the page. */

/** `2d 03:04:05` or `03:04:05` for a duration in ms. */
export function duration(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const days = Math.floor(total / 86_400);
  const clock = [Math.floor(total / 3600) % 24, Math.floor(total / 60) % 60, total % 60]
    .map((n) => String(n).padStart(2, '0'))
    .join(':');
  return days > 0 ? `${days}d ${clock}` : clock;
}

/** `12:34:56.789` (local time) of epoch ms or an ISO string; `12:34:56` without `ms` (where room is short). */
export function clockTime(time: number | string, ms = true): string {
  const date = new Date(time);
  if (Number.isNaN(date.getTime())) return String(time);
  const pad = (n: number, width = 2): string => String(n).padStart(width, '0');
  const seconds = `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
  return ms ? `${seconds}.${pad(date.getMilliseconds(), 3)}` : seconds;
}

/** The message of anything thrown. */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** `a=1, b=2` of a message part, empty for none. */
export function pairs(part: Record<string, string> | undefined): string {
  return part
    ? Object.entries(part)
        .map(([k, v]) => `${k}=${v}`)
        .join(', ')
    : '';
}
