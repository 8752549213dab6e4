/** The destination's recording log: statuses, totals, and how a refusal sticks. */
import { RecordingLog } from '../../../src/destination/recordings';
import type { ObjectRecord } from '../../../src/destination/store/object-store';
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

function setup() {
  const lines: string[] = [];
  const log = new RecordingLog(() => 1000, createLogger({ level: 'info', write: (line) => lines.push(line) }));
  return { log, lines };
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
