/**
 * Synthetic clips (src/bws/media.ts): exact sizes, deterministic bytes per seed, an
 * MD5 that matches the stream, well-formed Matroska (walked element by element by a
 * parser written here) and MP4 boxes, RangeError for sizes too small to hold the
 * header, and streaming that does not hold the clip in memory.
 */
import { createHash } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import { type ClipSpec, clipHeader, clipMd5, clipStream } from '../../../src/bws/media';
import type { ClipType } from '../../../src/protocol/body-worn';
import { propertyRuns } from '../../helpers/fast-check-config';

const CHUNK = 64 * 1024;

async function collect(spec: ClipSpec): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of clipStream(spec)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The smallest clip of a type: exactly its header. */
const minimum = (type: ClipType): number => clipHeader({ type, bytes: 1 << 20, durationSeconds: 10, seed: 'x' }).length;

// ---------------------------------------------------------------------------
// A small EBML reader: element IDs keep their length marker (as Matroska writes
// them), sizes drop it; an all-ones size ("unknown") is refused, not followed.

interface EbmlElement {
  id: number;
  /** Offset of the element's first byte (its ID). */
  start: number;
  /** Offset of its data. */
  dataStart: number;
  size: number;
  /** Offset just past its data. */
  end: number;
}

function vintLength(first: number, max: number, what: string, at: number): number {
  for (let length = 1; length <= max; length++) if (first & (0x80 >> (length - 1))) return length;
  throw new Error(`bad EBML ${what} at ${at}: first byte 0x${first.toString(16)}`);
}

function readElement(bytes: Buffer, at: number): EbmlElement {
  if (at >= bytes.length) throw new Error(`EBML element expected at ${at}, the data ends at ${bytes.length}`);
  const idLength = vintLength(bytes[at], 4, 'ID', at);
  if (at + idLength > bytes.length) throw new Error(`EBML ID at ${at} runs past the end`);
  const id = bytes.readUIntBE(at, idLength);
  const sizeAt = at + idLength;
  if (sizeAt >= bytes.length) throw new Error(`EBML size expected at ${sizeAt}`);
  const sizeLength = vintLength(bytes[sizeAt], 8, 'size', sizeAt);
  if (sizeAt + sizeLength > bytes.length) throw new Error(`EBML size at ${sizeAt} runs past the end`);
  let size = BigInt(bytes[sizeAt] & (0xff >> sizeLength));
  let allOnes = size === BigInt(0xff >> sizeLength);
  for (let i = 1; i < sizeLength; i++) {
    size = (size << 8n) | BigInt(bytes[sizeAt + i]);
    allOnes &&= bytes[sizeAt + i] === 0xff;
  }
  if (allOnes) throw new Error(`EBML element 0x${id.toString(16)} at ${at} has an unknown size`);
  const dataStart = sizeAt + sizeLength;
  return { id, start: at, dataStart, size: Number(size), end: dataStart + Number(size) };
}

/** Every element from `from` to `to`, back to back; throws on a gap, an overrun or a bad vint. */
function walk(bytes: Buffer, from: number, to: number): EbmlElement[] {
  const found: EbmlElement[] = [];
  let at = from;
  while (at < to) {
    const element = readElement(bytes, at);
    if (element.end > to)
      throw new Error(
        `EBML element 0x${element.id.toString(16)} at ${at} ends at ${element.end}, past its parent's end ${to}`,
      );
    found.push(element);
    at = element.end;
  }
  return found;
}

const EBML = 0x1a45dfa3;
const DOC_TYPE = 0x4282;
const SEGMENT = 0x18538067;
const INFO = 0x1549a966;
const TIMECODE_SCALE = 0x2ad7b1;
const DURATION = 0x4489;
const VOID = 0xec;

function one(elements: EbmlElement[], id: number): EbmlElement {
  const matching = elements.filter((e) => e.id === id);
  if (matching.length !== 1) throw new Error(`expected one element 0x${id.toString(16)}, found ${matching.length}`);
  return matching[0];
}

/** What a Matroska clip holds, read back by walking it from byte 0 to its last byte. */
function readMatroska(bytes: Buffer): {
  docType: string;
  timecodeScale: number;
  durationTicks: number;
  segment: EbmlElement;
  voidElement: EbmlElement;
  topLevel: number[];
  inSegment: number[];
} {
  const top = walk(bytes, 0, bytes.length);
  const ebml = one(top, EBML);
  const docType = one(walk(bytes, ebml.dataStart, ebml.end), DOC_TYPE);
  const segment = one(top, SEGMENT);
  const children = walk(bytes, segment.dataStart, segment.end);
  const info = one(children, INFO);
  const infoChildren = walk(bytes, info.dataStart, info.end);
  const scale = one(infoChildren, TIMECODE_SCALE);
  const duration = one(infoChildren, DURATION);
  if (duration.size !== 8 && duration.size !== 4) throw new Error(`Duration is a float of ${duration.size} bytes`);
  return {
    docType: bytes.subarray(docType.dataStart, docType.end).toString('latin1'),
    timecodeScale: bytes.readUIntBE(scale.dataStart, scale.size),
    durationTicks: duration.size === 8 ? bytes.readDoubleBE(duration.dataStart) : bytes.readFloatBE(duration.dataStart),
    segment,
    voidElement: one(children, VOID),
    topLevel: top.map((e) => e.id),
    inSegment: children.map((e) => e.id),
  };
}

/** The boxes of an MP4 from byte 0 (32-bit sizes, or 1 + a 64-bit largesize). */
function readBoxes(
  bytes: Buffer,
  total = bytes.length,
): { type: string; start: number; size: number; headerSize: number }[] {
  const boxes = [];
  let at = 0;
  while (at < Math.min(total, bytes.length)) {
    let size = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    let headerSize = 8;
    if (size === 1) {
      size = Number(bytes.readBigUInt64BE(at + 8));
      headerSize = 16;
    }
    if (size < headerSize) throw new Error(`box ${type} at ${at} has size ${size}`);
    boxes.push({ type, start: at, size, headerSize });
    at += size;
  }
  if (at !== total) throw new Error(`boxes end at ${at}, the file at ${total}`);
  return boxes;
}

// ---------------------------------------------------------------------------

describe('clip sizes', () => {
  it.each<ClipType>(['mkv', 'mp4'])('%s: the stream has exactly the requested size (property)', async (type) => {
    const min = minimum(type);
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.integer({ min, max: min + 300 }),
          fc.integer({ min, max: 3 * CHUNK + 100 }),
          fc.constantFrom(CHUNK, CHUNK + 1, CHUNK - 1, 2 * CHUNK, 2 * CHUNK + min),
        ),
        fc.string(),
        async (bytes, seed) => {
          const body = await collect({ type, bytes, durationSeconds: 30, seed });
          expect(body.length).toBe(bytes);
        },
      ),
      propertyRuns(60),
    );
  });

  it.each<[ClipType, number]>([
    ['mkv', 1_000_003],
    ['mp4', 1_000_003],
    ['mkv', 5 * CHUNK],
    ['mp4', 5 * CHUNK],
  ])('%s of %d bytes streams in chunks of at most 64 KiB and exactly that many bytes', async (type, bytes) => {
    let total = 0;
    let largest = 0;
    for await (const chunk of clipStream({ type, bytes, durationSeconds: 5, seed: 's' })) {
      total += (chunk as Buffer).length;
      largest = Math.max(largest, (chunk as Buffer).length);
    }
    expect(total).toBe(bytes);
    expect(largest).toBeLessThanOrEqual(CHUNK);
  });

  it.each<ClipType>(['mkv', 'mp4'])('%s: the smallest clip is its header alone', async (type) => {
    const min = minimum(type);
    const body = await collect({ type, bytes: min, durationSeconds: 1, seed: 'min' });
    expect(body.length).toBe(min);
    expect(body.equals(clipHeader({ type, bytes: min, durationSeconds: 1, seed: 'min' }))).toBe(true);
  });

  it('the header sizes are what the formats need: mp4 ftyp (24) + mdat (8), mkv a fixed header', () => {
    expect(minimum('mp4')).toBe(32);
    // The Matroska header does not depend on the size (8-byte sizes for Segment and Void).
    expect(clipHeader({ type: 'mkv', bytes: 5 * 2 ** 30, durationSeconds: 1, seed: 'a' }).length).toBe(minimum('mkv'));
  });
});

describe('too small sizes', () => {
  it.each<ClipType>(['mkv', 'mp4'])(
    '%s: clipHeader and clipStream throw RangeError, clipMd5 rejects with it (property)',
    async (type) => {
      const min = minimum(type);
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 0, max: min - 1 }), async (bytes) => {
          const spec = { type, bytes, durationSeconds: 1, seed: 'small' };
          expect(() => clipHeader(spec)).toThrow(RangeError);
          expect(() => clipHeader(spec)).toThrow(
            new RegExp(`a ${type} clip needs at least ${min} bytes, not ${bytes}`),
          );
          expect(() => clipStream(spec)).toThrow(RangeError);
          await expect(clipMd5(spec)).rejects.toThrow(RangeError);
        }),
        propertyRuns(40),
      );
    },
  );
});

describe('determinism', () => {
  it.each<ClipType>(['mkv', 'mp4'])(
    '%s: the same spec gives the same bytes; another seed other bytes (property)',
    async (type) => {
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: minimum(type) + 16, max: 200_000 }),
          fc.string(),
          fc.string(),
          async (bytes, seedA, seedB) => {
            fc.pre(seedA !== seedB);
            const a = await collect({ type, bytes, durationSeconds: 12, seed: seedA });
            const again = await collect({ type, bytes, durationSeconds: 12, seed: seedA });
            const b = await collect({ type, bytes, durationSeconds: 12, seed: seedB });
            expect(again.equals(a)).toBe(true);
            expect(b.equals(a)).toBe(false);
            // Only the payload differs between seeds: the header is the same.
            const header = clipHeader({ type, bytes, durationSeconds: 12, seed: seedA });
            expect(b.subarray(0, header.length).equals(header)).toBe(true);
            expect(b.subarray(header.length).equals(a.subarray(header.length))).toBe(false);
          },
        ),
        propertyRuns(25),
      );
    },
  );

  it('the payload looks random (not zeros, not a short repeat)', async () => {
    const body = await collect({ type: 'mp4', bytes: 4 * CHUNK, durationSeconds: 1, seed: 'entropy' });
    const payload = body.subarray(32);
    const counts = new Array<number>(256).fill(0);
    for (const byte of payload) counts[byte] += 1;
    // About length/256 of each value; none missing, none dominant.
    expect(Math.min(...counts)).toBeGreaterThan(payload.length / 256 / 2);
    expect(Math.max(...counts)).toBeLessThan((payload.length / 256) * 2);
    expect(payload.subarray(0, CHUNK).equals(payload.subarray(CHUNK, 2 * CHUNK))).toBe(false);
  });

  it('a prefix of a longer clip is not reused: the size is part of the header, the payload continues the same keystream', async () => {
    const small = await collect({ type: 'mp4', bytes: 1000, durationSeconds: 1, seed: 'k' });
    const large = await collect({ type: 'mp4', bytes: 2000, durationSeconds: 1, seed: 'k' });
    expect(small.subarray(0, 24).equals(large.subarray(0, 24))).toBe(true); // ftyp
    expect(small.readUInt32BE(24)).toBe(1000 - 24);
    expect(large.readUInt32BE(24)).toBe(2000 - 24);
    expect(large.subarray(32, 1000).equals(small.subarray(32))).toBe(true);
  });
});

describe('clipMd5', () => {
  it.each<ClipType>(['mkv', 'mp4'])('%s: equals the MD5 of the streamed bytes (property)', async (type) => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: minimum(type), max: 3 * CHUNK }),
        fc.string(),
        fc.integer({ min: 1, max: 3600 }),
        async (bytes, seed, durationSeconds) => {
          const spec = { type, bytes, durationSeconds, seed };
          const streamed = createHash('md5')
            .update(await collect(spec))
            .digest('hex');
          expect(await clipMd5(spec)).toBe(streamed);
          expect(await clipMd5(spec)).toMatch(/^[0-9a-f]{32}$/);
        },
      ),
      propertyRuns(30),
    );
  });
});

describe('Matroska clips', () => {
  it('walk as EBML from byte 0 to the end: EBML (matroska), Segment covering the rest, Info with Duration, Void with the payload (property)', async () => {
    const min = minimum('mkv');
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min, max: min + 200_000 }),
        fc.integer({ min: 1, max: 86_400 }),
        fc.string(),
        async (bytes, durationSeconds, seed) => {
          const body = await collect({ type: 'mkv', bytes, durationSeconds, seed });
          const mkv = readMatroska(body);
          expect(mkv.topLevel).toEqual([EBML, SEGMENT]);
          expect(mkv.docType).toBe('matroska');
          // The Segment is the last element and covers every byte after its header.
          expect(mkv.segment.end).toBe(body.length);
          expect(mkv.inSegment).toEqual([INFO, VOID]);
          expect(mkv.timecodeScale).toBe(1_000_000);
          expect(mkv.durationTicks).toBe(durationSeconds * 1000);
          // The Void element carries the payload: everything up to the end of the file.
          expect(mkv.voidElement.end).toBe(body.length);
          expect(mkv.voidElement.size).toBe(bytes - clipHeader({ type: 'mkv', bytes, durationSeconds, seed }).length);
        },
      ),
      propertyRuns(40),
    );
  });

  it('the EBML header declares version 1 and DocType versions', async () => {
    const body = await collect({ type: 'mkv', bytes: 4096, durationSeconds: 3, seed: 'h' });
    const [ebml] = walk(body, 0, body.length);
    const fields = new Map(
      walk(body, ebml.dataStart, ebml.end).map((e) => [e.id, body.readUIntBE(e.dataStart, Math.min(e.size, 6))]),
    );
    expect(fields.get(0x4286)).toBe(1); // EBMLVersion
    expect(fields.get(0x42f7)).toBe(1); // EBMLReadVersion
    expect(fields.get(0x42f2)).toBe(4); // EBMLMaxIDLength
    expect(fields.get(0x42f3)).toBe(8); // EBMLMaxSizeLength
    expect(fields.get(0x4287)).toBeGreaterThanOrEqual(1); // DocTypeVersion
    expect(fields.get(0x4285)).toBeGreaterThanOrEqual(1); // DocTypeReadVersion
  });

  it('the reader used here is strict: a truncated or padded clip does not walk', async () => {
    const body = await collect({ type: 'mkv', bytes: 5000, durationSeconds: 3, seed: 't' });
    expect(() => readMatroska(body)).not.toThrow();
    expect(() => readMatroska(body.subarray(0, body.length - 1))).toThrow(/past/);
    expect(() => readMatroska(Buffer.concat([body, Buffer.from([0x00])]))).toThrow(/bad EBML/);
    const mp4 = await collect({ type: 'mp4', bytes: 100, durationSeconds: 1, seed: 't' });
    expect(() => readBoxes(mp4.subarray(0, 99))).toThrow(/boxes end/);
  });

  it('a fractional duration is written as is (in milliseconds)', async () => {
    const body = await collect({ type: 'mkv', bytes: 1000, durationSeconds: 1.5, seed: 'f' });
    expect(readMatroska(body).durationTicks).toBe(1500);
  });

  it('the header of a clip beyond 4 GiB still sizes the Segment and Void to the end (header only, nothing streamed)', () => {
    const bytes = 5 * 2 ** 30 + 7;
    const header = clipHeader({ type: 'mkv', bytes, durationSeconds: 60, seed: 'big' });
    const top = readElement(header, 0);
    expect(top.id).toBe(EBML);
    const segment = readElement(header, top.end);
    expect(segment.id).toBe(SEGMENT);
    expect(segment.end).toBe(bytes);
    const info = readElement(header, segment.dataStart);
    expect(info.id).toBe(INFO);
    const voidElement = readElement(header, info.end);
    expect(voidElement.id).toBe(VOID);
    expect(voidElement.dataStart).toBe(header.length);
    expect(voidElement.end).toBe(bytes);
  });
});

describe('MP4 clips', () => {
  it('are ftyp (isom) then mdat whose size covers the rest (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 32, max: 200_000 }), fc.string(), async (bytes, seed) => {
        const body = await collect({ type: 'mp4', bytes, durationSeconds: 10, seed });
        const boxes = readBoxes(body);
        expect(boxes.map((b) => b.type)).toEqual(['ftyp', 'mdat']);
        expect(boxes[0]).toMatchObject({ start: 0, size: 24 });
        expect(body.toString('latin1', 8, 12)).toBe('isom'); // major brand
        expect(body.toString('latin1', 16, 24)).toBe('isommp41'); // compatible brands
        expect(boxes[1]).toMatchObject({ start: 24, size: bytes - 24, headerSize: 8 });
      }),
      propertyRuns(40),
    );
  });

  it.each([
    [2 ** 32 - 1 + 24, 8], // the largest mdat a 32-bit size holds
    [2 ** 32 + 24, 16], // one more: largesize
    [5 * 2 ** 30, 16],
    [5 * 2 ** 40 + 3, 16],
  ])(
    'clipHeader for %d bytes: mdat header of %d bytes, sized to the end of the file (nothing streamed)',
    (bytes, headerSize) => {
      const header = clipHeader({ type: 'mp4', bytes, durationSeconds: 60, seed: 'big' });
      expect(header.length).toBe(24 + headerSize);
      const boxes = readBoxes(header, bytes);
      expect(boxes.map((b) => b.type)).toEqual(['ftyp', 'mdat']);
      expect(boxes[1]).toMatchObject({ start: 24, size: bytes - 24, headerSize });
      if (headerSize === 16) expect(header.readUInt32BE(24)).toBe(1);
    },
  );
});

describe('memory', () => {
  /** `global.gc`, turned on for this process if Jest did not start Node with --expose-gc. */
  function gc(): () => void {
    setFlagsFromString('--expose-gc');
    return runInNewContext('gc') as () => void;
  }

  it('streaming a 64 MiB clip buffers at most a chunk or two and keeps memory flat', async () => {
    const collectGarbage = gc();
    const bytes = 64 * 1024 * 1024;
    collectGarbage();
    const baseline = process.memoryUsage();
    const used = (m: NodeJS.MemoryUsage) => m.heapUsed + m.arrayBuffers;
    /**
     * What is still held after a collection. V8 frees the memory of collected Buffers on a
     * background thread after the GC, late on a loaded machine (3.8 MiB of 64 KiB chunks was
     * seen still counted): the least of three measurements, each after a GC and a turn of the
     * event loop, is what is really retained (memory awaiting that release only goes down).
     */
    const retained = async (): Promise<number> => {
      let least = Infinity;
      for (let i = 0; i < 3; i++) {
        collectGarbage();
        await new Promise((resolve) => setImmediate(resolve));
        least = Math.min(least, used(process.memoryUsage()));
      }
      return least;
    };
    let peakGrowth = 0;
    let maxBuffered = 0;
    let total = 0;
    let chunks = 0;
    const stream = clipStream({ type: 'mkv', bytes, durationSeconds: 600, seed: 'memory' });
    const hash = createHash('md5');
    for await (const chunk of stream) {
      total += (chunk as Buffer).length;
      hash.update(chunk as Buffer);
      maxBuffered = Math.max(maxBuffered, stream.readableLength);
      if (++chunks % 128 === 0) peakGrowth = Math.max(peakGrowth, (await retained()) - used(baseline));
    }
    expect(total).toBe(bytes);
    expect(maxBuffered).toBeLessThanOrEqual(2 * CHUNK);
    // Holding the clip would add 64 MiB; streaming adds no more than a few chunks.
    expect(peakGrowth).toBeLessThan(8 * 1024 * 1024);
    expect(hash.digest('hex')).toBe(await clipMd5({ type: 'mkv', bytes, durationSeconds: 600, seed: 'memory' }));
  });

  it('a paused consumer makes the stream stop reading ahead', async () => {
    const stream = clipStream({ type: 'mp4', bytes: 64 * 1024 * 1024, durationSeconds: 600, seed: 'paused' });
    let seen = 0;
    stream.on('data', (chunk: Buffer) => {
      seen += chunk.length;
      stream.pause();
    });
    await new Promise((done) => setImmediate(done));
    await new Promise((done) => setImmediate(done));
    // One chunk delivered, at most the high-water mark waiting: nowhere near the 64 MiB.
    expect(seen).toBeLessThanOrEqual(CHUNK);
    expect(stream.readableLength).toBeLessThanOrEqual(2 * CHUNK);
    stream.destroy();
  });
});
