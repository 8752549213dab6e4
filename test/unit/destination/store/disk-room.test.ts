/**
 * The storage state of a data directory: a probe at start finds a full disk (read-only,
 * one warning), any other failure fails the start; a write while read-only probes again
 * (one probe shared by the writes waiting), and room found ends read-only mode, after the
 * listeners have run. Writes are simulated: `writeFileAtomic` is a mock.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as atomicFile from '../../../../src/base/atomic-file';
import { ManualClock } from '../../../../src/base/clock';
import type { Logger } from '../../../../src/base/log';
import {
  DiskRoom,
  noRoomCode,
  noRoomMessage,
  PROBE_FILE,
  type NoRoomCode,
} from '../../../../src/destination/store/disk-room';

jest.mock('../../../../src/base/atomic-file', () => {
  const actual = jest.requireActual<typeof atomicFile>('../../../../src/base/atomic-file');
  return { ...actual, writeFileAtomic: jest.fn(actual.writeFileAtomic) };
});
const writeFileAtomic = jest.mocked(atomicFile.writeFileAtomic);
const realWrite = jest.requireActual<typeof atomicFile>('../../../../src/base/atomic-file').writeFileAtomic;

function errno(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: simulated`), { code });
}

/** Makes every probe fail with `code` (or succeed when undefined). */
function disk(code: string | undefined): void {
  writeFileAtomic.mockImplementation((file, content, syncDir) =>
    code ? Promise.reject(errno(code)) : realWrite(file, content, syncDir),
  );
}

let dir: string;
let log: { warn: jest.Mock; info: jest.Mock };
let room: DiskRoom;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'bwc-disk-room-'));
  log = { warn: jest.fn(), info: jest.fn() };
  room = new DiskRoom(dir, new ManualClock(Date.UTC(2026, 0, 1)), log as unknown as Logger);
  writeFileAtomic.mockClear();
  disk(undefined);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('noRoomCode', () => {
  it.each(['ENOSPC', 'EDQUOT', 'EROFS'])('%s is no room', (code) => expect(noRoomCode(errno(code))).toBe(code));
  it.each(['EACCES', 'EIO', undefined])('%s is not', (code) =>
    expect(noRoomCode(code ? errno(code) : new Error())).toBeUndefined(),
  );
  it('needs no error at all', () => expect(noRoomCode(undefined)).toBeUndefined());
});

describe('DiskRoom', () => {
  it('is read-write after a probe that found room, and leaves no probe file', async () => {
    expect(await room.check()).toEqual({ mode: 'read-write' });
    expect(writeFileAtomic).toHaveBeenCalledWith(join(dir, PROBE_FILE), expect.any(Buffer));
    expect(readdirSync(dir)).toEqual([]);
    expect(log.warn).not.toHaveBeenCalled();
  });

  it('removes what a probe cut off by a crash left', async () => {
    writeFileSync(join(dir, PROBE_FILE), 'x');
    writeFileSync(join(dir, `.${PROBE_FILE}.a1b2c3d4e5f6.tmp`), 'x');
    writeFileSync(join(dir, 'refused-recordings.json'), '{}');
    await room.check();
    expect(readdirSync(dir)).toEqual(['refused-recordings.json']);
  });

  it.each(['ENOSPC', 'EDQUOT', 'EROFS'] as NoRoomCode[])('starts read-only on %s, with one warning', async (code) => {
    disk(code);
    expect(await room.check()).toEqual({
      mode: 'read-only',
      reason: code,
      message: noRoomMessage(code),
      since: Date.UTC(2026, 0, 1),
    });
    expect(log.warn).toHaveBeenCalledTimes(1);
    expect(log.warn).toHaveBeenCalledWith(expect.anything(), expect.stringMatching(/read-only until there is room/));
  });

  it('fails the start on any other error (a data directory it may not write)', async () => {
    disk('EACCES');
    await expect(room.check()).rejects.toMatchObject({ code: 'EACCES' });
  });

  it('lets writes through without a probe while read-write', async () => {
    await room.check();
    writeFileAtomic.mockClear();
    expect(await room.ready()).toBe(true);
    expect(writeFileAtomic).not.toHaveBeenCalled();
  });

  it('probes again at each write while read-only, one probe for the writes waiting together', async () => {
    disk('ENOSPC');
    await room.check();
    writeFileAtomic.mockClear();
    expect(await Promise.all([room.ready(), room.ready(), room.ready()])).toEqual([false, false, false]);
    expect(writeFileAtomic).toHaveBeenCalledTimes(1);
    expect(await room.ready()).toBe(false);
    expect(writeFileAtomic).toHaveBeenCalledTimes(2);
    expect(log.warn).toHaveBeenCalledTimes(1);
  });

  it('ends read-only mode once a probe finds room, after the listeners ran', async () => {
    disk('ENOSPC');
    await room.check();
    const order: string[] = [];
    room.whenRoomAgain(async () => {
      await new Promise((done) => setTimeout(done, 5));
      order.push('listener');
    });
    disk(undefined);
    const ready = room.ready().then((go) => order.push(`ready ${go}`));
    await ready;
    expect(order).toEqual(['listener', 'ready true']);
    expect(room.state).toEqual({ mode: 'read-write' });
    expect(log.warn).toHaveBeenLastCalledWith(
      { dataDir: dir, was: 'ENOSPC' },
      'the data directory has room again: writes resume',
    );
  });

  it('stays read-only when the probe fails otherwise, and says so', async () => {
    disk('EROFS');
    await room.check();
    disk('EIO');
    expect(await room.ready()).toBe(false);
    expect(room.state).toMatchObject({ mode: 'read-only', reason: 'EROFS' });
    expect(log.warn).toHaveBeenLastCalledWith(
      expect.objectContaining({ err: 'EIO: simulated' }),
      'cannot probe the data directory: it stays read-only',
    );
  });

  it('noted(): a no-room error turns read-only once (one warning); other errors change nothing', async () => {
    await room.check();
    expect(room.noted(errno('EIO'))).toBeUndefined();
    expect(room.state.mode).toBe('read-write');
    expect(room.noted(errno('EDQUOT'))).toBe('EDQUOT');
    expect(room.noted(errno('ENOSPC'))).toBe('ENOSPC');
    expect(room.state).toMatchObject({ mode: 'read-only', reason: 'EDQUOT' });
    expect(log.warn).toHaveBeenCalledTimes(1);
  });
});
