import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { ManualClock } from '../../../../src/base/clock';
import { Md5WorkerPool, type Md5Job, type Md5WorkerPoolOptions } from '../../../../src/destination/store/md5-pool';
import { ObjectStore } from '../../../../src/destination/store/object-store';
import { createLogger } from '../../../../src/base/log';
import { EmulatorError } from '../../../../src/base/errors';
import { propertyRuns } from '../../../helpers/fast-check-config';

const EMPTY_MD5 = 'd41d8cd98f00b204e9800998ecf8427e';

const md5 = (data: Uint8Array): string => createHash('md5').update(data).digest('hex');

/** Feeds `chunks` one after another, each once the previous one is called back, then digests. */
function hashChunks(job: Md5Job, chunks: Uint8Array[]): Promise<string> {
  return new Promise((resolve, reject) => {
    let index = 0;
    const next = (err: Error | null): void => {
      if (err) return reject(err);
      if (index === chunks.length) {
        job.digest().then(resolve, reject);
        return;
      }
      job.update(chunks[index++], next);
    };
    next(null);
  });
}

/** `data` cut at the given sizes (cycled), the last piece whatever is left. */
function cut(data: Uint8Array, sizes: number[]): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  let offset = 0;
  for (let i = 0; offset < data.length; i++) {
    const size = sizes.length === 0 ? data.length : sizes[i % sizes.length];
    chunks.push(data.subarray(offset, offset + size));
    offset += size;
  }
  return chunks;
}

const pools: Md5WorkerPool[] = [];
function pool(options: Md5WorkerPoolOptions): Md5WorkerPool {
  const created = new Md5WorkerPool(options);
  pools.push(created);
  return created;
}

afterAll(async () => {
  await Promise.all(pools.map((p) => p.close()));
});

describe('Md5WorkerPool digests', () => {
  it('equal node:crypto for any chunking, inline or on a worker', async () => {
    const small = pool({
      size: 2,
      batchBytes: 4096,
      maxJobBytesInFlight: 16384,
      maxWorkerBytesInFlight: 32768,
      inlineBytes: 1000,
    });
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 200_000 }),
        fc.array(fc.integer({ min: 1, max: 70_000 }), { maxLength: 8 }),
        async (data, sizes) => {
          const chunks = cut(data, sizes);
          expect(await hashChunks(small.createJob(), chunks)).toBe(md5(data));
          expect(small.jobs).toBe(0);
        },
      ),
      propertyRuns(60),
    );
  });

  it('equal node:crypto with the default settings, for 1 byte to 20 MiB', async () => {
    const defaults = pool({});
    for (const size of [1, 65_536, 65_537, 1024 * 1024, 20 * 1024 * 1024 + 3]) {
      const data = randomBytes(size);
      expect(await hashChunks(defaults.createJob(), cut(data, [65_536, 16_384, 1_000_000]))).toBe(md5(data));
    }
  });

  it('keep many concurrent jobs apart, each in order', async () => {
    const shared = pool({
      size: 2,
      batchBytes: 64 * 1024,
      maxJobBytesInFlight: 128 * 1024,
      maxWorkerBytesInFlight: 256 * 1024,
      inlineBytes: 0,
    });
    const bodies = Array.from({ length: 60 }, (_, i) => randomBytes(1000 + i * 7919));
    const digests = await Promise.all(
      bodies.map((body, i) => hashChunks(shared.createJob(), cut(body, [1 + (i % 5) * 3001, 17_000]))),
    );
    expect(digests).toEqual(bodies.map(md5));
    expect(shared.threads).toBe(2);
    expect(shared.jobs).toBe(0);
  });

  it('give the MD5 of nothing for an empty body, without starting a worker', async () => {
    for (const inlineBytes of [64 * 1024, 0]) {
      const empty = pool({ inlineBytes });
      expect(await empty.createJob().digest()).toBe(EMPTY_MD5);
      expect(await hashChunks(empty.createJob(), [new Uint8Array(0), new Uint8Array(0)])).toBe(EMPTY_MD5);
      expect(empty.threads).toBe(0);
    }
  });

  it('ignore empty chunks on a worker', async () => {
    const data = randomBytes(5000);
    const worker = pool({ inlineBytes: 0, batchBytes: 1024 });
    const chunks = [data.subarray(0, 10), new Uint8Array(0), data.subarray(10), new Uint8Array(0)];
    expect(await hashChunks(worker.createJob(), chunks)).toBe(md5(data));
    expect(worker.threads).toBe(1);
  });

  it('hash small bodies inline: no worker is started for them', async () => {
    const lazy = pool({ inlineBytes: 64 * 1024 });
    const data = randomBytes(64 * 1024);
    expect(await hashChunks(lazy.createJob(), cut(data, [1000]))).toBe(md5(data));
    expect(lazy.threads).toBe(0);
    const larger = randomBytes(64 * 1024 + 1);
    expect(await hashChunks(lazy.createJob(), cut(larger, [1000]))).toBe(md5(larger));
    expect(lazy.threads).toBe(1);
  });

  it('copy each chunk: the caller may reuse its buffer once called back', async () => {
    const copying = pool({ inlineBytes: 10, batchBytes: 4096 });
    const expected = createHash('md5');
    const buffer = Buffer.alloc(3000);
    const job = copying.createJob();
    for (let i = 0; i < 50; i++) {
      buffer.fill(i);
      expected.update(buffer);
      await new Promise<void>((resolve, reject) => job.update(buffer, (err) => (err ? reject(err) : resolve())));
    }
    expect(await job.digest()).toBe(expected.digest('hex'));
  });
});

describe('Md5WorkerPool flow control', () => {
  it('never has more than the bound in flight for a job, and makes the caller wait', async () => {
    const bound = 64 * 1024;
    const slow = pool({
      size: 1,
      batchBytes: 16 * 1024,
      maxJobBytesInFlight: bound,
      maxWorkerBytesInFlight: 1024 * 1024,
      inlineBytes: 0,
    });
    const job = slow.createJob();
    const data = randomBytes(16 * 1024 * 1024);
    const chunks = cut(data, [8192, 40_000, 65_536, 100]);
    let highest = 0;
    let deferred = 0;
    const digest = await new Promise<string>((resolve, reject) => {
      let index = 0;
      const next = (err: Error | null): void => {
        if (err) return reject(err);
        highest = Math.max(highest, job.bytesInFlight);
        if (index === chunks.length) {
          job.digest().then(resolve, reject);
          return;
        }
        let sync = true;
        job.update(chunks[index++], (e) => {
          if (sync) next(e);
          else {
            deferred++;
            next(e);
          }
        });
        sync = false;
        highest = Math.max(highest, job.bytesInFlight);
      };
      next(null);
    });
    expect(digest).toBe(md5(data));
    expect(highest).toBeLessThanOrEqual(bound);
    expect(highest).toBeGreaterThan(0);
    // Copying is far faster than MD5: the producer must have been held back.
    expect(deferred).toBeGreaterThan(0);
    expect(job.bytesInFlight).toBe(0);
  });

  it('bounds what all the jobs of a worker have in flight together', async () => {
    const workerBound = 128 * 1024;
    const shared = pool({
      size: 1,
      batchBytes: 32 * 1024,
      maxJobBytesInFlight: 96 * 1024,
      maxWorkerBytesInFlight: workerBound,
      inlineBytes: 0,
    });
    const jobs = Array.from({ length: 10 }, () => shared.createJob());
    const bodies = jobs.map(() => randomBytes(2 * 1024 * 1024));
    let highest = 0;
    const sample = setInterval(() => {
      highest = Math.max(
        highest,
        jobs.reduce((sum, job) => sum + job.bytesInFlight, 0),
      );
    }, 1);
    try {
      const digests = await Promise.all(
        jobs.map((job, i) =>
          hashChunks(
            {
              get bytesInFlight() {
                return job.bytesInFlight;
              },
              update: (chunk, callback) =>
                job.update(chunk, (err) => {
                  highest = Math.max(
                    highest,
                    jobs.reduce((sum, j) => sum + j.bytesInFlight, 0),
                  );
                  callback(err);
                }),
              digest: () => job.digest(),
              abandon: () => job.abandon(),
            },
            cut(bodies[i], [20_000]),
          ),
        ),
      );
      expect(digests).toEqual(bodies.map(md5));
    } finally {
      clearInterval(sample);
    }
    expect(highest).toBeGreaterThan(0);
    expect(highest).toBeLessThanOrEqual(workerBound);
  });
});

describe('Md5WorkerPool life cycle', () => {
  it('close() terminates the workers; running jobs fail, later large ones too', async () => {
    const closing = new Md5WorkerPool({ size: 2, inlineBytes: 0 });
    const a = closing.createJob();
    const b = closing.createJob();
    await hashChunks(closing.createJob(), [randomBytes(1000)]);
    await new Promise<void>((resolve) => a.update(randomBytes(1000), () => resolve()));
    await new Promise<void>((resolve) => b.update(randomBytes(1000), () => resolve()));
    expect(closing.threads).toBe(2);
    const pending = expect(a.digest()).rejects.toThrow(/closed/);
    await closing.close();
    expect(closing.threads).toBe(0);
    expect(closing.jobs).toBe(0);
    await pending;
    await expect(b.digest()).rejects.toThrow(/closed/);
    const later = closing.createJob();
    const error = await new Promise<Error | null>((resolve) => later.update(randomBytes(10), resolve));
    expect(error?.message).toMatch(/closed/);
    // Bodies hashed inline do not need a worker.
    const inline = new Md5WorkerPool({ inlineBytes: 100 });
    await inline.close();
    expect(await hashChunks(inline.createJob(), [Buffer.from('abc')])).toBe(md5(Buffer.from('abc')));
  });

  it('lets a job be abandoned mid-flow: no callback, nothing kept, the pool goes on', async () => {
    const abandoning = pool({ size: 1, batchBytes: 16 * 1024, maxJobBytesInFlight: 32 * 1024, inlineBytes: 0 });
    const job = abandoning.createJob();
    let abandoned = false;
    let late = 0;
    // Ten chunks given at once: two fit the bound, eight wait in the job.
    for (let i = 0; i < 10; i++) {
      job.update(randomBytes(16 * 1024), () => {
        if (abandoned) late++;
      });
    }
    expect(job.bytesInFlight).toBe(32 * 1024);
    expect(abandoning.jobs).toBe(1);
    job.abandon();
    abandoned = true;
    expect(abandoning.jobs).toBe(0);
    job.abandon();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(late).toBe(0);
    await expect(job.digest()).rejects.toThrow(/ended/);
    const data = randomBytes(300_000);
    expect(await hashChunks(abandoning.createJob(), cut(data, [10_000]))).toBe(md5(data));
    // An abandoned inline job needs no worker at all.
    const inline = abandoning.createJob();
    inline.update(Buffer.from('x'), () => undefined);
    inline.abandon();
    expect(abandoning.jobs).toBe(0);
  });

  it('a crashed worker fails only its own jobs, and is replaced', async () => {
    const crashing = pool({ size: 2, inlineBytes: 0 });
    const doomed = crashing.createJob();
    const other = crashing.createJob();
    const data = randomBytes(500_000);
    await new Promise<void>((resolve) => doomed.update(randomBytes(1000), () => resolve()));
    await new Promise<void>((resolve) => other.update(data.subarray(0, 1000), () => resolve()));
    expect(crashing.threads).toBe(2);
    crashing.crashWorkerOf(doomed);
    await expect(doomed.digest()).rejects.toThrow(/MD5 worker/);
    expect(crashing.threads).toBe(1);
    expect(await hashChunks(other, [data.subarray(1000)])).toBe(md5(data));
    const error = await new Promise<Error | null>((resolve) => doomed.update(randomBytes(1), resolve));
    expect(error?.message).toMatch(/MD5 worker/);
    expect(await hashChunks(crashing.createJob(), cut(data, [4096]))).toBe(md5(data));
    expect(crashing.jobs).toBe(0);
  });

  it('ends a worker that has had no job for idleMs; the next large body gets a fresh one', async () => {
    const idle = pool({ size: 1, inlineBytes: 0, idleMs: 50 });
    const data = randomBytes(100_000);
    expect(await hashChunks(idle.createJob(), cut(data, [30_000]))).toBe(md5(data));
    expect(idle.threads).toBe(1);
    const deadline = Date.now() + 5_000;
    while (idle.threads > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(idle.threads).toBe(0);
    expect(await hashChunks(idle.createJob(), cut(data, [30_000]))).toBe(md5(data));
    expect(idle.threads).toBe(1);
    expect(() => new Md5WorkerPool({ idleMs: 0 })).toThrow(EmulatorError);
  });

  it('keeps a worker that takes a job before idleMs is over', async () => {
    const busy = pool({ size: 1, inlineBytes: 0, idleMs: 200 });
    const data = randomBytes(50_000);
    for (let i = 0; i < 5; i++) {
      expect(await hashChunks(busy.createJob(), [data])).toBe(md5(data));
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(busy.threads).toBe(1);
    }
  });

  it('rejects bad options', () => {
    expect(() => new Md5WorkerPool({ size: 0 })).toThrow(EmulatorError);
    expect(() => new Md5WorkerPool({ batchBytes: 1.5 })).toThrow(EmulatorError);
    expect(() => new Md5WorkerPool({ inlineBytes: -1 })).toThrow(EmulatorError);
    expect(() => new Md5WorkerPool({ inlineBytes: 0 })).not.toThrow();
  });
});

describe('ObjectStore with MD5 workers', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'bwc-md5-store-'));
  });
  afterEach(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function openStore(md5Workers: Md5WorkerPool): Promise<ObjectStore> {
    const store = new ObjectStore({ dataDir, clock: new ManualClock(), log: createLogger(), md5Workers });
    await store.openAccount('AUTH_test');
    await store.putContainer('AUTH_test', 'clips', {});
    return store;
  }
  const request = { contentType: 'application/octet-stream', metadata: {}, maxBytes: Infinity, quotaLeft: Infinity };
  const objectFiles = (): string[] =>
    readdirSync(dataDir, { recursive: true, encoding: 'utf8' }).filter(
      (f) => f.includes('objects/') && !f.includes('container.json'),
    );

  it('stores the body with the MD5 ETag of exactly its bytes, large or small', async () => {
    const store = await openStore(pool({ size: 1 }));
    for (const size of [0, 10, 200_000, 3 * 1024 * 1024]) {
      const body = randomBytes(size);
      const outcome = await store.putObject(
        'AUTH_test',
        'clips',
        `o${size}`,
        Readable.from(cut(body, [65_536, 1000]), { objectMode: false }),
        { ...request, contentLength: size, expectedEtag: md5(body) },
      );
      expect(outcome.ok && outcome.value.record.etag).toBe(md5(body));
    }
    const wrong = await store.putObject('AUTH_test', 'clips', 'wrong', Readable.from([randomBytes(100_000)]), {
      ...request,
      expectedEtag: EMPTY_MD5,
    });
    expect(wrong).toMatchObject({ ok: false, error: { code: 'etag-mismatch' } });
    expect(objectFiles().filter((f) => f.includes('wrong'))).toEqual([]);
  });

  it('a worker crash mid-upload fails the PUT (an error for a 500), reads the body to its end, stores nothing', async () => {
    const crashing = pool({ size: 1 });
    const jobs: Md5Job[] = [];
    const create = crashing.createJob.bind(crashing);
    crashing.createJob = () => {
      const job = create();
      jobs.push(job);
      return job;
    };
    const store = await openStore(crashing);
    let sent = 0;
    const body = new Readable({
      read() {
        if (sent === 2) crashing.crashWorkerOf(jobs[jobs.length - 1]);
        if (sent === 40) return this.push(null);
        sent++;
        this.push(randomBytes(128 * 1024));
      },
    });
    await expect(store.putObject('AUTH_test', 'clips', 'crashed', body, request)).rejects.toThrow(/MD5 worker/);
    expect(sent).toBe(40);
    expect(objectFiles()).toEqual([]);
    expect(store.object('AUTH_test', 'clips', 'crashed')).toBeUndefined();
    const data = randomBytes(1024 * 1024);
    const outcome = await store.putObject('AUTH_test', 'clips', 'after', Readable.from([data]), request);
    expect(outcome.ok && outcome.value.record.etag).toBe(md5(data));
  });

  it('an aborted upload leaves no file and no job behind', async () => {
    const shared = pool({ size: 1 });
    const store = await openStore(shared);
    let sent = 0;
    const body = new Readable({
      read() {
        if (sent++ === 5) this.destroy(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
        else this.push(randomBytes(256 * 1024));
      },
    });
    const outcome = await store.putObject('AUTH_test', 'clips', 'cut', body, request);
    expect(outcome).toMatchObject({ ok: false, error: { code: 'aborted' } });
    expect(objectFiles()).toEqual([]);
    expect(shared.jobs).toBe(0);
  });

  it('an over-limit body is drained and refused, nothing stored', async () => {
    const store = await openStore(pool({ size: 1 }));
    let sent = 0;
    const body = new Readable({
      read() {
        if (sent === 20) return this.push(null);
        sent++;
        this.push(randomBytes(128 * 1024));
      },
    });
    const outcome = await store.putObject('AUTH_test', 'clips', 'big', body, { ...request, maxBytes: 1024 * 1024 });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'too-large' } });
    expect(sent).toBe(20);
    expect(objectFiles()).toEqual([]);
  });

  it('close() ends the pool the store started itself, not one it was given', async () => {
    const given = pool({ size: 1 });
    const store = await openStore(given);
    await store.putObject('AUTH_test', 'clips', 'x', Readable.from([randomBytes(100_000)]), request);
    await store.close();
    expect(given.threads).toBe(1);
    const own = new ObjectStore({ dataDir, clock: new ManualClock(), log: createLogger() });
    await own.openAccount('AUTH_test');
    const outcome = await own.putObject('AUTH_test', 'clips', 'y', Readable.from([randomBytes(100_000)]), request);
    expect(outcome.ok).toBe(true);
    await own.close();
  });
});
