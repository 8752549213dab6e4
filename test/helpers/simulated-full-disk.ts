/**
 * A full disk without a full disk, for tests on any machine: while `simulatedDisk.full`
 * names an error (`ENOSPC`, `EDQUOT`, `EROFS`), every atomic file write
 * (`src/base/atomic-file`: records, `account.json`, the storage probe) and every part
 * file written through {@link openWriteOnSimulatedDisk} fails with it, the way a full
 * tmpfs fails them: files and directories can still be made, their bytes cannot be written.
 *
 * A test file installs it with
 * `jest.mock('../../src/base/atomic-file', () => jest.requireActual<typeof SimulatedDisk>('../helpers/simulated-full-disk').atomicFileOnSimulatedDisk())`
 * (with `import type * as SimulatedDisk from '../helpers/simulated-full-disk'`).
 * Only types are imported at the top, so the mock factory can load this file.
 */
import { createWriteStream, writeFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import type * as AtomicFile from '../../src/base/atomic-file';
import type { NoRoomCode } from '../../src/destination/store/disk-room';
import type { OpenWrite } from '../../src/destination/store/receive-body';

/** The simulated disk: `full` set makes writes fail with that code; `refused` counts the writes refused. */
export const simulatedDisk: { full: NoRoomCode | undefined; refused: string[] } = { full: undefined, refused: [] };

/** The error a write gets on the simulated disk, as node:fs reports it. */
export function noRoomError(code: NoRoomCode, syscall = 'write'): NodeJS.ErrnoException {
  const text = { ENOSPC: 'no space left on device', EDQUOT: 'disk quota exceeded', EROFS: 'read-only file system' };
  return Object.assign(new Error(`${code}: ${text[code]}, ${syscall}`), { code, syscall });
}

/** `src/base/atomic-file` whose `writeFileAtomic` fails while the simulated disk is full (nothing left behind). */
export function atomicFileOnSimulatedDisk(): typeof AtomicFile {
  const actual = jest.requireActual<typeof AtomicFile>('../../src/base/atomic-file');
  return {
    ...actual,
    writeFileAtomic: (file, content, syncDir) => {
      if (simulatedDisk.full) {
        simulatedDisk.refused.push(file);
        return Promise.reject(noRoomError(simulatedDisk.full));
      }
      return actual.writeFileAtomic(file, content, syncDir);
    },
  };
}

/** Part files on the simulated disk: made (as a real open makes them), then every write fails while it is full. */
export const openWriteOnSimulatedDisk: OpenWrite = (path) => {
  const full = simulatedDisk.full;
  if (!full) return createWriteStream(path, { flags: 'wx' });
  simulatedDisk.refused.push(path);
  writeFileSync(path, '', { flag: 'wx' });
  return new Writable({
    write(_chunk, _encoding, callback) {
      callback(noRoomError(full));
    },
  });
};
