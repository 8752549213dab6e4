/**
 * `Range: bytes=...` read as OpenStack Swift's swob reads it. The example tables are
 * answers measured on a stock Swift 2.30.1 (object of 20 bytes `0123456789abcdefghij`,
 * /tmp/probe.sh and follow-up GETs), or swob's `Range.ranges_for_length` where no
 * answer was measured (empty objects, sets of more than 8 ranges).
 */
import fc from 'fast-check';
import {
  answerRange,
  type ByteRange,
  contentRange,
  parseRangeHeader,
  RANGE_LIMITS,
  rangesForSize,
  type RangeAnswer,
} from '../../../src/protocol/http-range';
import { propertyRuns } from '../../helpers/fast-check-config';

const BODY = '0123456789abcdefghij';
const SIZE = BODY.length;

type Spec = NonNullable<ReturnType<typeof parseRangeHeader>>[number];

/** The bytes of BODY an answer serves (one string per range), or the kind when nothing partial. */
function served(answer: RangeAnswer): string[] | 'whole' | 'unsatisfiable' {
  if (answer.kind !== 'partial') return answer.kind;
  return answer.ranges.map((r) => BODY.slice(r.start, r.end));
}

/** `bytes=0-0,1-1,...` for the given starts. */
function singleBytes(starts: readonly number[]): string {
  return `bytes=${starts.map((s) => `${s}-${s}`).join(',')}`;
}

describe('answerRange: the cases measured on stock Swift 2.30.1 (20-byte object)', () => {
  // [Range header, Swift's status, the bytes served (206), the Content-Range of a single range]
  it.each<[string, number, string[] | 'whole' | 'unsatisfiable', string | undefined]>([
    ['bytes=2-5', 206, ['2345'], 'bytes 2-5/20'],
    ['bytes=-3', 206, ['hij'], 'bytes 17-19/20'],
    ['bytes=15-', 206, ['fghij'], 'bytes 15-19/20'],
    ['bytes=25-30', 416, 'unsatisfiable', undefined],
    ['bytes=5-2', 200, 'whole', undefined],
    ['bytes=abc', 200, 'whole', undefined],
    ['bytes=-0', 416, 'unsatisfiable', undefined],
    ['items=0-1', 200, 'whole', undefined],
    ['bytes=0-0', 206, ['0'], 'bytes 0-0/20'],
    ['bytes=0-1,25-30', 206, ['01'], 'bytes 0-1/20'],
    ['bytes=-25', 206, [BODY], 'bytes 0-19/20'],
    ['bytes= 2 - 5', 206, ['2345'], 'bytes 2-5/20'],
    ['Bytes=2-5', 206, ['2345'], 'bytes 2-5/20'],
    ['bytes=0-5,3-8,4-9,2-7', 416, 'unsatisfiable', undefined],
    ['bytes=19-19', 206, ['j'], 'bytes 19-19/20'],
    ['bytes=20-', 416, 'unsatisfiable', undefined],
    ['bytes=0-1,5-6', 206, ['01', '56'], undefined],
    // Follow-up GETs on the same stock Swift.
    ['BYTES=0-1', 206, ['01'], 'bytes 0-1/20'],
    [' bytes=0-1', 206, ['01'], 'bytes 0-1/20'],
    ['bytes =0-1', 206, ['01'], 'bytes 0-1/20'],
    ['bytes=0-99999999999999999999999', 206, [BODY], 'bytes 0-19/20'],
    ['bytes=-99999999999999999999999', 206, [BODY], 'bytes 0-19/20'],
    ['bytes=,0-1', 200, 'whole', undefined],
    ['bytes=0-1,', 200, 'whole', undefined],
    ['bytes=', 200, 'whole', undefined],
    ['bytes=-', 200, 'whole', undefined],
    ['bytes=--1', 200, 'whole', undefined],
    ['bytes=5', 200, 'whole', undefined],
    ['bytes=0-1-2', 200, 'whole', undefined],
    ['bytes=5-+10', 200, 'whole', undefined],
    ['bytes=0-5,1-2', 206, ['012345', '12'], undefined],
    ['bytes=0-9,1-2,3-4', 206, ['0123456789', '12', '34'], undefined],
    ['bytes=0-5,1-2,2-3', 416, 'unsatisfiable', undefined],
    ['bytes=0-5,1-4,2-3', 416, 'unsatisfiable', undefined],
    ['bytes=1-5,2-6,3-7', 416, 'unsatisfiable', undefined],
    ['bytes=0-0,0-0,0-0', 206, ['0', '0', '0'], undefined],
    ['bytes=1-3,1-3,1-3,1-3', 206, ['123', '123', '123', '123'], undefined],
    ['bytes=0-1,3-4,0-1', 206, ['01', '34', '01'], undefined],
    [singleBytes([0, 1, 2, 3, 4, 6, 5]), 206, ['0', '1', '2', '3', '4', '6', '5'], undefined],
    [singleBytes([0, 1, 2, 3, 4, 5, 7, 6]), 416, 'unsatisfiable', undefined],
  ])('%j: stock Swift 2.30.1 answered %i', (header, status, bytes, range) => {
    const answer = answerRange(header, SIZE);
    expect(served(answer)).toEqual(bytes);
    expect({ whole: 200, partial: 206, unsatisfiable: 416 }[answer.kind]).toBe(status);
    if (range !== undefined && answer.kind === 'partial') expect(contentRange(answer.ranges[0], SIZE)).toBe(range);
  });

  it('an absent or empty header is the whole object', () => {
    expect(answerRange(undefined, SIZE)).toEqual({ kind: 'whole' });
    expect(answerRange('', SIZE)).toEqual({ kind: 'whole' });
  });
});

describe('answerRange: an empty object (swob ranges_for_length(0))', () => {
  it.each<[string, RangeAnswer['kind']]>([
    // A suffix has bytes to name only when there are bytes: the whole (empty) object, 200.
    ['bytes=-5', 'whole'],
    ['bytes=-1', 'whole'],
    ['bytes=0-', 'unsatisfiable'],
    ['bytes=0-0', 'unsatisfiable'],
    ['bytes=0-10', 'unsatisfiable'],
    ['bytes=-0', 'unsatisfiable'],
    ['bytes=0-0,-5', 'whole'],
    ['bytes=abc', 'whole'],
    ['items=0-1', 'whole'],
  ])('%j is %s', (header, kind) => {
    expect(answerRange(header, 0).kind).toBe(kind);
  });
});

describe('answerRange: egregious range sets are 416 (RFC 7233 section 6.1, swob)', () => {
  it(`more than ${RANGE_LIMITS.maxRanges} ranges is 416, ${RANGE_LIMITS.maxRanges} are served`, () => {
    const starts = (n: number): number[] => Array.from({ length: n }, (_, i) => i);
    expect(answerRange(singleBytes(starts(51)), 100).kind).toBe('unsatisfiable');
    const fifty = answerRange(singleBytes(starts(50)), 100);
    expect(fifty.kind === 'partial' && fifty.ranges).toHaveLength(50);
  });

  it('counts only the satisfiable ranges: 51 asked, one past the end, 50 served', () => {
    const answer = answerRange(singleBytes(Array.from({ length: 51 }, (_, i) => i)), 50);
    expect(answer.kind === 'partial' && answer.ranges).toHaveLength(50);
  });

  it(`more than ${RANGE_LIMITS.maxOverlaps} overlapping pairs is 416; touching and equal ranges do not overlap`, () => {
    expect(answerRange('bytes=0-9,1-2,3-4', SIZE).kind).toBe('partial');
    expect(answerRange('bytes=0-9,1-2,3-4,5-6', SIZE).kind).toBe('unsatisfiable');
    expect(answerRange('bytes=0-4,5-9,10-14,15-19', SIZE).kind).toBe('partial');
    expect(answerRange('bytes=2-3,2-3,2-3,2-3,2-3', SIZE).kind).toBe('partial');
  });

  it(`${RANGE_LIMITS.maxNonAscending} or more ranges out of order is 416; fewer, or in order, are served`, () => {
    expect(answerRange(singleBytes([7, 6, 5, 4, 3, 2, 1, 0]), SIZE).kind).toBe('unsatisfiable');
    expect(answerRange(singleBytes([6, 5, 4, 3, 2, 1, 0]), SIZE).kind).toBe('partial');
    expect(answerRange(singleBytes([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]), SIZE).kind).toBe('partial');
    // Python compares (start, end) tuples: the same start with a shorter end comes first.
    expect(answerRange('bytes=0-1,0-0,2-2,3-3,4-4,5-5,6-6,7-7', SIZE).kind).toBe('unsatisfiable');
    expect(answerRange('bytes=0-0,0-1,2-2,3-3,4-4,5-5,6-6,7-7', SIZE).kind).toBe('partial');
  });
});

describe('parseRangeHeader and rangesForSize', () => {
  it('keeps every syntactically valid spec, satisfiable or not', () => {
    expect(parseRangeHeader('bytes=2-5,-3,15-,25-30')).toEqual([
      { first: 2, last: 5 },
      { first: undefined, last: 3 },
      { first: 15, last: undefined },
      { first: 25, last: 30 },
    ]);
    expect(rangesForSize(parseRangeHeader('bytes=2-5,-3,15-,25-30')!, SIZE)).toEqual([
      { start: 2, end: 6 },
      { start: 17, end: 20 },
      { start: 15, end: 20 },
    ]);
  });

  it('ignores a header with any invalid part', () => {
    for (const header of ['bytes=0-1,x', 'bytes=0-1,5-2', 'bytes=0-1,-', 'bytes=1.5-2', 'bytes=0x1-2', 'bytes=-1-'])
      expect(parseRangeHeader(header)).toBeUndefined();
  });

  it('contentRange names the first and last byte and the size', () => {
    expect(contentRange({ start: 2, end: 6 }, 20)).toBe('bytes 2-5/20');
    expect(contentRange({ start: 0, end: 1 }, 1)).toBe('bytes 0-0/1');
  });
});

/** Generators of valid specs and the header text for them. */
const offset = fc.nat({ max: 200 });
const spec: fc.Arbitrary<Spec> = fc.oneof(
  fc.tuple(offset, offset).map(([a, b]) => ({ first: Math.min(a, b), last: Math.max(a, b) })),
  offset.map((first) => ({ first, last: undefined })),
  offset.map((last) => ({ first: undefined, last })),
);
const specs = fc.array(spec, { minLength: 1, maxLength: 60 });
const spaces = fc.string({ unit: fc.constant(' '), maxLength: 2 });

/** The header for `list`, with `pad()` spaces wherever swob would remove them. */
function headerOf(list: readonly Spec[], prefix = 'bytes=', pad: () => string = () => ''): string {
  const part = (s: Spec): string => `${pad()}${s.first ?? ''}${pad()}-${pad()}${s.last ?? ''}${pad()}`;
  return `${pad()}${prefix}${list.map(part).join(',')}`;
}

/** Text made mostly of what a Range header is made of, to reach the parser's corners. */
const rangeish = fc.string({
  unit: fc.constantFrom('b', 'y', 't', 'e', 's', 'B', '=', '-', ',', ' ', '0', '1', '5', '9', '+', 'x', '\t'),
  maxLength: 40,
});

describe('properties', () => {
  it('never throws, whatever the header and size', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          rangeish,
          rangeish.map((s) => `bytes=${s}`),
        ),
        fc.nat(1000),
        (header, size) => {
          expect(() => answerRange(header, size)).not.toThrow();
        },
      ),
      propertyRuns(2000),
    );
  });

  it('every range served lies within [0, size), start before end', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          specs.map((s) => headerOf(s)),
          rangeish.map((s) => `bytes=${s}`),
        ),
        fc.nat(250),
        (header, size) => {
          const answer = answerRange(header, size);
          if (answer.kind !== 'partial') return;
          expect(answer.ranges.length).toBeGreaterThan(0);
          for (const { start, end } of answer.ranges) {
            expect(Number.isInteger(start) && Number.isInteger(end)).toBe(true);
            expect(start).toBeGreaterThanOrEqual(0);
            expect(start).toBeLessThan(end);
            expect(end).toBeLessThanOrEqual(size);
          }
        },
      ),
      propertyRuns(2000),
    );
  });

  it('a single bytes=a-b with a <= b < size is exactly [a, b + 1)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e12 }), fc.nat(), fc.nat(), (size, x, y) => {
        const [a, b] = [x % size, y % size].sort((p, q) => p - q) as [number, number];
        const expected: ByteRange[] = [{ start: a, end: b + 1 }];
        expect(answerRange(`bytes=${a}-${b}`, size)).toEqual({ kind: 'partial', ranges: expected });
      }),
      propertyRuns(1000),
    );
  });

  it('a suffix bytes=-n of a non-empty object is its last min(n, size) bytes', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e9 }), fc.integer({ min: 1, max: 2e9 }), (size, n) => {
        expect(answerRange(`bytes=-${n}`, size)).toEqual({
          kind: 'partial',
          ranges: [{ start: Math.max(0, size - n), end: size }],
        });
      }),
      propertyRuns(500),
    );
  });

  it('a header not starting with bytes= (any case, spaces ignored) is the whole object', () => {
    const notBytes = (h: string): boolean => !h.replace(/ /g, '').toLowerCase().startsWith('bytes=');
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          rangeish,
          fc
            .tuple(fc.constantFrom('items=', 'byte=', 'bytes:', 'bits=', 'bytes ', ''), specs)
            .map(([p, s]) => headerOf(s, p)),
        ),
        fc.nat(1000),
        (header, size) => {
          fc.pre(notBytes(header));
          expect(answerRange(header, size)).toEqual({ kind: 'whole' });
        },
      ),
      propertyRuns(1000),
    );
  });

  it('headers built from valid specs (any case, any spaces) parse back to the same specs', () => {
    fc.assert(
      fc.property(
        specs,
        fc.constantFrom('bytes=', 'Bytes=', 'BYTES=', 'bYtEs='),
        fc.infiniteStream(spaces),
        (list, prefix, pads) => {
          const header = headerOf(list, prefix, () => pads.next().value as string);
          expect(parseRangeHeader(header)).toEqual(list);
        },
      ),
      propertyRuns(1000),
    );
  });
});
