/**
 * `Range: bytes=...` as OpenStack Swift reads it (swob's `Range`): a header with any
 * syntactically invalid part is ignored (the whole object, 200); ranges that start past
 * the end are skipped; none left is 416; a suffix longer than the object is the whole
 * object; "egregious" sets (more than 50 ranges, more than 2 overlaps, 8 or more out of
 * order) are 416 too. Pure: no sockets.
 */

/** A satisfiable range: bytes `start` to `end - 1`. */
export interface ByteRange {
  readonly start: number;
  readonly end: number;
}

/** One `first-last`, `first-` or `-suffix` of the header, before the object's size is known. */
interface RangeSpec {
  readonly first: number | undefined;
  readonly last: number | undefined;
}

/** What to send for a Range header and an object of a given size. */
export type RangeAnswer =
  | { readonly kind: 'whole' }
  | { readonly kind: 'partial'; readonly ranges: readonly ByteRange[] }
  | { readonly kind: 'unsatisfiable' };

/** Swift's limits on one request's ranges (RFC 7233 section 6.1). */
export const RANGE_LIMITS = { maxRanges: 50, maxOverlaps: 2, maxNonAscending: 8 } as const;

const DIGITS = /^\d+$/;

/** The specs of a `bytes=` header, or undefined when it is to be ignored (absent or invalid). */
export function parseRangeHeader(header: string | undefined): RangeSpec[] | undefined {
  if (!header) return undefined;
  const value = header.replace(/ /g, '');
  if (!value.toLowerCase().startsWith('bytes=')) return undefined;
  const specs: RangeSpec[] = [];
  for (const part of value.slice(6).split(',')) {
    const dash = part.indexOf('-');
    if (dash < 0) return undefined;
    const firstText = part.slice(0, dash);
    const lastText = part.slice(dash + 1);
    if ((firstText && !DIGITS.test(firstText)) || (lastText && !DIGITS.test(lastText))) return undefined;
    if (!firstText && !lastText) return undefined;
    const first = firstText ? Number(firstText) : undefined;
    const last = lastText ? Number(lastText) : undefined;
    if (first !== undefined && last !== undefined && last < first) return undefined;
    specs.push({ first, last });
  }
  return specs;
}

/** The satisfiable ranges of `specs` for an object of `size` bytes; [] means 416. */
export function rangesForSize(specs: readonly RangeSpec[], size: number): ByteRange[] {
  const ranges: ByteRange[] = [];
  for (const { first, last } of specs) {
    if (first === undefined) {
      // `-N`: the last N bytes; `-0` asks for nothing.
      if (last === undefined || last === 0) continue;
      ranges.push({ start: Math.max(0, size - last), end: size });
    } else if (first < size) {
      ranges.push({ start: first, end: last === undefined ? size : Math.min(last + 1, size) });
    }
  }
  return egregious(ranges) ? [] : ranges;
}

/** The answer to `header` for an object of `size` bytes. */
export function answerRange(header: string | undefined, size: number): RangeAnswer {
  const specs = parseRangeHeader(header);
  if (!specs) return { kind: 'whole' };
  const ranges = rangesForSize(specs, size);
  if (ranges.length === 0) return { kind: 'unsatisfiable' };
  // A suffix of an empty object: there is no byte to name in Content-Range, so the whole (empty) object.
  if (size === 0) return { kind: 'whole' };
  return { kind: 'partial', ranges };
}

/** `Content-Range` of one range: `bytes 2-5/20`. */
export function contentRange(range: ByteRange, size: number): string {
  return `bytes ${range.start}-${range.end - 1}/${size}`;
}

/** The many-small-or-overlapping range sets Swift refuses to serve. */
function egregious(ranges: readonly ByteRange[]): boolean {
  if (ranges.length > RANGE_LIMITS.maxRanges) return true;
  let overlaps = 0;
  for (let i = 0; i < ranges.length; i++) {
    for (let j = i + 1; j < ranges.length; j++) {
      if (overlap(ranges[i], ranges[j]) && ++overlaps > RANGE_LIMITS.maxOverlaps) return true;
    }
  }
  const ascending = ranges.every((r, i) => i === 0 || !before(r, ranges[i - 1]));
  return !ascending && ranges.length >= RANGE_LIMITS.maxNonAscending;
}

/** Swift's overlap test: an end point of one strictly inside the other. */
function overlap(a: ByteRange, b: ByteRange): boolean {
  return (
    (a.start < b.start && b.start < a.end) ||
    (a.start < b.end && b.end < a.end) ||
    (b.start < a.start && a.start < b.end) ||
    (b.start < a.end && a.end < b.end)
  );
}

/** Tuple order of (start, end), as Python compares the pairs. */
function before(a: ByteRange, b: ByteRange): boolean {
  return a.start < b.start || (a.start === b.start && a.end < b.end);
}
