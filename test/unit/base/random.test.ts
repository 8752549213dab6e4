import { type ByteSource, randomString } from '../../../src/base/random';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A byte source that counts 0, 1, ..., 255, 0, 1, ... across calls: every byte value equally often. */
function cyclingBytes(): ByteSource {
  let next = 0;
  return (size) => Uint8Array.from({ length: size }, () => next++ % 256);
}

/** How often each character of `alphabet` occurs in `text`. */
function counts(text: string, alphabet: string): number[] {
  return [...alphabet].map((c) => text.split(c).length - 1);
}

describe('randomString', () => {
  it('draws every character of a 62-character alphabet equally often from evenly spread bytes', () => {
    // 248 usable byte values (256 - 256 % 62) each 4 times: 992 characters, each of the 62 exactly 16 times.
    const text = randomString(992, ALPHABET, cyclingBytes());
    expect(text).toHaveLength(992);
    expect(counts(text, ALPHABET)).toEqual(new Array<number>(62).fill(16));
  });

  it('stays uniform whatever the alphabet size, also sizes that divide 256', () => {
    for (const alphabet of ['ab', 'abc', '0123456789', '0123456789abcdef', ALPHABET.slice(0, 61)]) {
      const usable = 256 - (256 % alphabet.length);
      const text = randomString(usable * 3, alphabet, cyclingBytes());
      expect(counts(text, alphabet)).toEqual(new Array<number>(alphabet.length).fill((usable * 3) / alphabet.length));
    }
  });

  it('discards bytes past the last whole multiple of the alphabet size and draws again', () => {
    const calls: number[] = [];
    const batches = [[248, 255, 0], [249, 61], [62]];
    const source: ByteSource = (size) => {
      calls.push(size);
      return Uint8Array.from(batches.shift() ?? []);
    };
    expect(randomString(3, ALPHABET, source)).toBe('A9A');
    expect(calls).toEqual([3, 2, 1]);
  });

  it('uses crypto randomness by default, with the requested length and alphabet', () => {
    const text = randomString(32, ALPHABET);
    expect(text).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(randomString(32, ALPHABET)).not.toBe(text);
    expect(randomString(0, ALPHABET)).toBe('');
  });

  it('refuses an empty alphabet or one too large for one byte per draw', () => {
    expect(() => randomString(4, '')).toThrow(RangeError);
    expect(() => randomString(4, 'x'.repeat(257))).toThrow(RangeError);
  });
});
