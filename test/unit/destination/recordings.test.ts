/** The destination's recording log: statuses, totals, how a refusal sticks, and what survives a restart. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clipSeconds, RecordingLog } from '../../../src/destination/recordings';
import { MAX_REFUSALS_KEPT, RefusalFile, refusalFileIn } from '../../../src/destination/refusal-file';
import type { ContainerRecord, ObjectRecord } from '../../../src/destination/store/object-store';
import { createLogger } from '../../../src/base/log';

const NAME = 'officer_1_AABBCCDD1234_20260101T120000Z';

function clip(name: string, bytes: number, start: number, stop: number): ObjectRecord {
  return {
    name,
    etag: '0'.repeat(32),
    bytes,
    contentType: 'video/x-matroska',
    lastModified: 0,
    metadata: { starttime: String(start), stoptime: String(stop) },
    dataFile: 'x.data',
  };
}

function setup(now: () => number = () => 1000) {
  const lines: string[] = [];
  const log = new RecordingLog(now, createLogger({ level: 'info', write: (line) => lines.push(line) }));
  return { log, lines };
}

function stored(name: string, created: number, status: string, objects: ObjectRecord[] = []): ContainerRecord {
  return {
    name,
    created,
    metadata: { status },
    objects: new Map(objects.map((o) => [o.name, o])),
    bytes: objects.reduce((n, o) => n + o.bytes, 0),
  };
}

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'bwc-refusals-'));
  dirs.push(dir);
  return dir;
}

describe('RecordingLog', () => {
  it('counts clips, bytes and seconds, and logs the completion once', () => {
    const { log, lines } = setup();
    expect(log.containerWritten('AUTH_a', NAME, { status: 'Transferring' })).toBe(true);
    log.objectStored('AUTH_a', NAME, clip('1767268800_r.mkv', 100, 1767268800, 1767268830));
    log.objectStored('AUTH_a', NAME, clip('1767268830_r.mkv', 50, 1767268830, 1767268840.5));
    log.objectStored('AUTH_a', NAME, clip('1767268830_r.mkv', 60, 1767268830, 1767268840.5)); // replaced, not added
    log.objectStored('AUTH_a', NAME, { ...clip('bookmark_1_x', 5, 0, 0) });
    log.containerWritten('AUTH_a', NAME, { status: 'Complete' });
    log.containerWritten('AUTH_a', NAME, { status: 'Complete' });
    expect(log.list('AUTH_a')).toEqual([
      expect.objectContaining({
        userId: 'officer_1',
        serial: 'AABBCCDD1234',
        status: 'complete',
        clips: 2,
        bytes: 160,
        durationSeconds: 40.5,
      }),
    ]);
    expect(lines.filter((l) => l.includes('recording complete'))).toHaveLength(1);
    expect(log.list('AUTH_other')).toEqual([]);
  });

  it('counts a clip without a usable start and stop as 0 seconds, as the detail page shows it blank', () => {
    const { log } = setup();
    log.containerWritten('AUTH_a', NAME, {});
    log.objectStored('AUTH_a', NAME, clip('1767268800_a.mkv', 10, 1767268810, 1767268800));
    log.objectStored('AUTH_a', NAME, { ...clip('1767268800_b.mkv', 20, 0, 0), metadata: { starttime: '1767268800' } });
    expect(log.get('AUTH_a', NAME)).toMatchObject({ clips: 2, bytes: 30, durationSeconds: 0 });
    expect(clipSeconds({ starttime: '10', stoptime: '12.5' })).toBe(2.5);
    expect(clipSeconds({ starttime: '10', stoptime: '9' })).toBeUndefined();
    expect(clipSeconds({ stoptime: '9' })).toBeUndefined();
  });

  it('a deleted clip no longer counts; a deleted container takes its recording away, a refused one stays refused', () => {
    const { log } = setup();
    log.containerWritten('AUTH_a', NAME, {});
    log.objectStored('AUTH_a', NAME, clip('1767268800_a.mkv', 10, 1767268800, 1767268810));
    log.objectStored('AUTH_a', NAME, clip('1767268810_b.mkv', 20, 1767268810, 1767268815));
    log.objectDeleted('AUTH_a', NAME, '1767268800_a.mkv');
    expect(log.get('AUTH_a', NAME)).toMatchObject({ clips: 1, bytes: 20, durationSeconds: 5 });
    log.objectDeleted('AUTH_a', NAME, 'not-a-clip.json');
    expect(log.get('AUTH_a', NAME)).toMatchObject({ clips: 1, bytes: 20 });
    log.objectDeleted('AUTH_a', NAME, '1767268810_b.mkv');
    log.containerDeleted('AUTH_a', NAME);
    expect(log.get('AUTH_a', NAME)).toBeUndefined();
    expect(log.list('AUTH_a')).toEqual([]);

    const refused = 'officer_1_AABBCCDD1234_20260101T130000Z';
    log.containerWritten('AUTH_a', refused, {});
    log.refused('AUTH_a', refused, 'clip without duration', 'clip');
    log.containerDeleted('AUTH_a', refused);
    expect(log.get('AUTH_a', refused)).toMatchObject({ status: 'not transferred', clips: 0 });
  });

  it('ignores containers that are not recordings', () => {
    const { log } = setup();
    expect(log.containerWritten('AUTH_a', 'photos', {})).toBe(false);
    expect(log.containerWritten('AUTH_a', 'RejectedContent_UnknownTime_1', {})).toBe(false);
    expect(log.list()).toEqual([]);
  });

  it('keeps a clip refusal even if the client then says Complete', () => {
    const { log } = setup();
    log.containerWritten('AUTH_a', NAME, { status: 'Transferring' });
    log.objectStored('AUTH_a', NAME, clip('1767268800_r.mkv', 100, 1767268800, 1767268830));
    log.refused('AUTH_a', NAME, 'clip without duration', 'clip');
    log.containerWritten('AUTH_a', NAME, { status: 'Complete' });
    expect(log.list()[0]).toMatchObject({
      status: 'not transferred',
      reason: 'clip without duration',
      clips: 1,
      bytes: 100,
    });
  });

  it('lets a container accepted after a refused PUT (say, once the user is registered) start over', () => {
    const { log } = setup();
    log.refused('AUTH_a', NAME, 'user "officer_1" is not registered');
    expect(log.list()[0]).toMatchObject({ status: 'not transferred' });
    log.containerWritten('AUTH_a', NAME, { status: 'Transferring' });
    expect(log.list()[0]).toMatchObject({ status: 'transferring' });
    expect(log.list()[0].reason).toBeUndefined();
  });
});

describe('RecordingLog across a restart', () => {
  const OTHER = 'ghost_AABBCCDD1234_20260101T130000Z';

  it('takes the last activity from the store: the newest of the container and its objects', () => {
    const { log } = setup(() => 9_999_999);
    log.load('AUTH_a', [
      stored(NAME, 5000, 'Transferring', [
        { ...clip('1767268800_r.mkv', 100, 1767268800, 1767268830), lastModified: 7000 },
        { ...clip('bookmark_1_x', 5, 0, 0), lastModified: 8000 },
      ]),
      stored(OTHER, 6000, 'Transferring'),
    ]);
    expect(log.get('AUTH_a', NAME)).toMatchObject({ status: 'transferring', clips: 1, bytes: 100, updated: 8000 });
    expect(log.get('AUTH_a', OTHER)).toMatchObject({ updated: 6000 });
  });

  it('counts any object stored as activity, and a live write at the clock', () => {
    let now = 1000;
    const { log } = setup(() => now);
    log.containerWritten('AUTH_a', NAME, { status: 'Transferring' });
    now = 2000;
    log.objectStored('AUTH_a', NAME, { ...clip('bookmark_1_x', 5, 0, 0) });
    expect(log.get('AUTH_a', NAME)).toMatchObject({ clips: 0, updated: 2000 });
  });

  it('keeps refusals in the file and brings them back, with or without a container', () => {
    const dir = tempDir();
    let now = 1000;
    const first = setup(() => now).log;
    first.keepRefusalsIn(refusalFileIn(dir), ['AUTH_a']);
    first.containerWritten('AUTH_a', NAME, { status: 'Transferring' });
    now = 2000;
    first.refused('AUTH_a', NAME, 'clip 1_r.mkv has no duration', 'clip');
    now = 3000;
    first.refused('AUTH_a', OTHER, 'user "ghost" is not registered');
    first.refused('AUTH_b', OTHER, 'another account');

    const second = setup(() => 99_000).log;
    second.load('AUTH_a', [stored(NAME, 1000, 'Complete')]);
    second.keepRefusalsIn(refusalFileIn(dir), ['AUTH_a']);
    expect(second.list()).toEqual([
      expect.objectContaining({
        container: NAME,
        status: 'not transferred',
        reason: 'clip 1_r.mkv has no duration',
        updated: 2000,
      }),
      expect.objectContaining({
        container: OTHER,
        userId: 'ghost',
        serial: 'AABBCCDD1234',
        triggerOnTime: '2026-01-01T13:00:00.000Z',
        status: 'not transferred',
        reason: 'user "ghost" is not registered',
        clips: 0,
      }),
    ]);
    // Another account's refusal stays in the file but is not shown.
    expect(second.list('AUTH_b')).toEqual([]);
    second.refused('AUTH_a', 'x_Y_20260101T000000Z', 'again');
    expect(new RefusalFile(join(dir, 'refused-recordings.json')).read(createLogger({ level: 'silent' }))).toHaveLength(
      4,
    );
  });

  it('forgets a refused container write once a later one is accepted, in the file too', () => {
    const dir = tempDir();
    const { log } = setup();
    log.keepRefusalsIn(refusalFileIn(dir), ['AUTH_a']);
    log.refused('AUTH_a', NAME, 'user "officer_1" is not registered');
    expect(readFileSync(join(dir, 'refused-recordings.json'), 'utf8')).toContain(NAME);
    log.containerWritten('AUTH_a', NAME, { status: 'Transferring' });
    expect(readFileSync(join(dir, 'refused-recordings.json'), 'utf8')).not.toContain(NAME);

    const again = setup().log;
    again.load('AUTH_a', [stored(NAME, 1000, 'Transferring')]);
    again.keepRefusalsIn(refusalFileIn(dir), ['AUTH_a']);
    expect(again.get('AUTH_a', NAME)).toMatchObject({ status: 'transferring' });
  });

  it('shows a refused container write of an existing recording as not transferred after a restart', () => {
    const dir = tempDir();
    const { log } = setup();
    log.keepRefusalsIn(refusalFileIn(dir), ['AUTH_a']);
    log.containerWritten('AUTH_a', NAME, { status: 'Transferring' });
    log.refused('AUTH_a', NAME, 'TriggerOffTime 1 is before TriggerOnTime 2');
    const again = setup().log;
    again.load('AUTH_a', [stored(NAME, 1000, 'Transferring')]);
    again.keepRefusalsIn(refusalFileIn(dir), ['AUTH_a']);
    expect(again.get('AUTH_a', NAME)).toMatchObject({
      status: 'not transferred',
      reason: 'TriggerOffTime 1 is before TriggerOnTime 2',
    });
  });

  it('reads a missing, broken or partly malformed file as what it can, with a warning', () => {
    const dir = tempDir();
    const lines: string[] = [];
    const logger = createLogger({ level: 'info', write: (line) => lines.push(line) });
    const file = refusalFileIn(dir);
    expect(file.read(logger)).toEqual([]);
    expect(lines).toEqual([]);
    writeFileSync(file.path, '{ not json');
    expect(file.read(logger)).toEqual([]);
    writeFileSync(
      file.path,
      JSON.stringify({
        refusals: [
          { account: 'AUTH_a', container: NAME, reason: 'r', part: 'clip', at: 5 },
          { account: 'AUTH_a', container: NAME, reason: 'r', part: 'nope', at: 5 },
          null,
        ],
      }),
    );
    expect(file.read(logger)).toEqual([{ account: 'AUTH_a', container: NAME, reason: 'r', part: 'clip', at: 5 }]);
    expect(lines.filter((l) => l.includes('"level":40'))).toHaveLength(2);
    for (const json of ['null', '[]', '{}', '5', '{"refusals":{}}']) {
      lines.length = 0;
      writeFileSync(file.path, json);
      expect([json, file.read(logger)]).toEqual([json, []]);
      expect(lines.map((l) => (JSON.parse(l) as { msg: string }).msg)).toEqual([
        'the refused recordings file has no list of refusals; ignored',
      ]);
    }
  });

  it('logs a refusal it cannot keep and goes on', () => {
    const lines: string[] = [];
    const log = new RecordingLog(() => 1, createLogger({ level: 'info', write: (line) => lines.push(line) }));
    const notADir = join(tempDir(), 'a-file');
    writeFileSync(notADir, '');
    log.keepRefusalsIn(new RefusalFile(join(notADir, 'refused.json')), ['AUTH_a']);
    log.refused('AUTH_a', NAME, 'no duration', 'clip');
    expect(log.get('AUTH_a', NAME)).toMatchObject({ status: 'not transferred' });
    expect(lines.some((l) => l.includes('cannot keep the refused recordings'))).toBe(true);
  });

  it(`keeps the newest ${MAX_REFUSALS_KEPT} refusals`, () => {
    const dir = tempDir();
    let now = 0;
    const log = new RecordingLog(() => now, createLogger({ level: 'silent' }));
    const file = refusalFileIn(dir);
    const written: number[] = [];
    const write = file.write.bind(file);
    file.write = (refusals) => {
      written.push(refusals.length);
      if (written.length > MAX_REFUSALS_KEPT) write(refusals);
    };
    log.keepRefusalsIn(file, ['AUTH_a']);
    for (let i = 0; i <= MAX_REFUSALS_KEPT; i++) {
      now = i;
      log.refused('AUTH_a', `u_S_${String(20260101000000 + i).replace(/^(\d{8})/, '$1T')}Z`, `r${i}`);
    }
    expect(Math.max(...written)).toBe(MAX_REFUSALS_KEPT);
    const kept = file.read(createLogger({ level: 'silent' }));
    expect(kept).toHaveLength(MAX_REFUSALS_KEPT);
    expect(kept[0].reason).toBe('r1');
  });
});
