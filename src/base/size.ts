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
