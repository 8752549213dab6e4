/**
 * A PUT body reaches its data file byte for byte, whatever its chunks: the part file is
 * written in batches (receive-body.ts), and the record is prepared while the part file is
 * flushed (object-store.ts); nothing is left behind when a PUT stores nothing.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { ManualClock } from '../../../../src/base/clock';
import { createLogger } from '../../../../src/base/log';
import { Md5WorkerPool } from '../../../../src/destination/store/md5-pool';
import { ObjectStore } from '../../../../src/destination/store/object-store';

const KiB = 1024;
const request = { contentType: 'application/octet-stream', metadata: {}, maxBytes: Infinity, quotaLeft: Infinity };
const md5 = (data: Uint8Array): string => createHash('md5').update(data).digest('hex');

/** `data` cut into chunks of the given sizes (cycled). */
function chunks(data: Buffer, sizes: number[]): Buffer[] {
  const out: Buffer[] = [];
  for (let offset = 0, i = 0; offset < data.length; i++) {
    out.push(data.subarray(offset, offset + sizes[i % sizes.length]));
    offset += sizes[i % sizes.length];
  }
  return out;
}

describe('the data file of a PUT', () => {
  let dataDir: string;
  let pool: Md5WorkerPool;
  let store: ObjectStore;
  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'bwc-part-writes-'));
    pool = new Md5WorkerPool({ size: 1 });
    store = new ObjectStore({ dataDir, clock: new ManualClock(), log: createLogger(), md5Workers: pool });
    await store.openAccount('AUTH_test');
    await store.putContainer('AUTH_test', 'clips', {});
  });
  afterEach(async () => {
    await store.close();
    await pool.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const objectsDir = (): string => {
    const account = readdirSync(dataDir).find((f) => f.startsWith('AUTH_test'));
    const container = readdirSync(join(dataDir, account!)).find((f) => f.startsWith('clips'));
    return join(dataDir, account!, container!, 'objects');
  };

  it('holds exactly the bytes sent, for sizes around a write batch and any chunking', async () => {
    const cases: [number, number[]][] = [
      [0, [1]],
      [1, [1]],
      [256 * KiB - 1, [65_536]],
      [256 * KiB, [65_536]],
      [256 * KiB + 1, [100_000, 7]],
      [70_000, [1, 2, 3, 4093]],
      [3 * 1024 * KiB + 7, [65_536, 16_384, 1_000_000, 1]],
    ];
    for (const [size, sizes] of cases) {
      const body = randomBytes(size);
      const name = `o${size}-${sizes.join('-')}`;
      const outcome = await store.putObject('AUTH_test', 'clips', name, Readable.from(chunks(body, sizes)), {
        ...request,
        contentLength: size,
        expectedEtag: md5(body),
      });
      if (!outcome.ok) throw new Error(`${name}: ${outcome.error.message}`);
      const stored = readFileSync(join(objectsDir(), outcome.value.record.dataFile));
      expect({ name, equal: stored.equals(body) }).toEqual({ name, equal: true });
    }
    // Only data files and records: no part file, no temporary record.
    expect(readdirSync(objectsDir()).filter((f) => !/\.(data|json)$/.test(f) || f.startsWith('.'))).toEqual([]);
  });

  it('leaves no part file and no temporary record when the ETag or the length does not match', async () => {
    const body = randomBytes(300 * KiB);
    const wrongEtag = await store.putObject('AUTH_test', 'clips', 'wrong', Readable.from(chunks(body, [65_536])), {
      ...request,
      expectedEtag: md5(Buffer.from('something else')),
    });
    expect(wrongEtag).toMatchObject({ ok: false, error: { code: 'etag-mismatch' } });
    const short = await store.putObject('AUTH_test', 'clips', 'short', Readable.from(chunks(body, [65_536])), {
      ...request,
      contentLength: body.length + 1,
    });
    expect(short).toMatchObject({ ok: false, error: { code: 'length-mismatch' } });
    expect(readdirSync(objectsDir())).toEqual([]);
    expect(store.object('AUTH_test', 'clips', 'wrong')).toBeUndefined();
  });

  it('records the object a later GET finds again after a restart', async () => {
    const body = randomBytes(600 * KiB);
    const outcome = await store.putObject('AUTH_test', 'clips', 'kept', Readable.from(chunks(body, [65_536])), request);
    expect(outcome.ok).toBe(true);
    const again = new ObjectStore({ dataDir, clock: new ManualClock(), log: createLogger(), md5Workers: pool });
    try {
      await again.openAccount('AUTH_test');
      const opened = await again.openObject('AUTH_test', 'clips', 'kept');
      expect(opened?.record.etag).toBe(md5(body));
      const stored = await opened!.file.readFile();
      await opened!.file.close();
      expect(stored.equals(body)).toBe(true);
    } finally {
      await again.close();
    }
  });
});
