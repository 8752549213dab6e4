/** Sizes as people write them: `5GiB`, `500MB`, `64k`, `1048576`. */
import { type ErrorInfo, fail, ok, type Result } from './result';

/** The outcome of {@link parseSize}: bytes, or a message naming `flag` that the user can act on. */
export type SizeResult = Result<number, ErrorInfo<'BAD_SIZE'>>;

/** `5GiB`, `500MB`, `1048576` -> bytes; never throws. */
export function parseSize(text: string, flag: string): SizeResult {
  const match = /^(\d+(?:\.\d+)?)\s*(b|k|kb|mb|gb|tb|kib|mib|gib|tib)?$/i.exec(text.trim());
  if (!match) return fail('BAD_SIZE', `${flag} "${text}" is not a size (e.g. 500MB, 2GiB, 1048576)`);
  const units: Record<string, number> = {
    b: 1,
    k: 1024,
    kb: 1e3,
    mb: 1e6,
    gb: 1e9,
    tb: 1e12,
    kib: 1024,
    mib: 1024 ** 2,
    gib: 1024 ** 3,
    tib: 1024 ** 4,
  };
  const bytes = Math.floor(Number(match[1]) * units[(match[2] ?? 'b').toLowerCase()]);
  if (!(bytes > 0)) return fail('BAD_SIZE', `${flag} must be more than 0 bytes`);
  return ok(bytes);
}

/** Sizes as the page and the upload report write them, in powers of 1000 (as disks and networks count). */
const SIZE_UNITS = ['kB', 'MB', 'GB', 'TB', 'PB'];

/** `999 B`, `1.5 kB`, `12 kB`, `340 MB`, `2.1 GB`: three significant digits at most. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '?';
  if (bytes < 1000) return `${Math.round(bytes)} B`;
  let value = bytes;
  let unit = -1;
  while (value >= 999.5 && unit < SIZE_UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value < 9.95 ? value.toFixed(1) : Math.round(value)} ${SIZE_UNITS[unit]}`;
}
