/**
 * Whether the data directory takes writes: the store's storage state. A write that fails
 * because the disk is full (ENOSPC), the quota is used up (EDQUOT) or the file system is
 * read-only (EROFS) puts the destination in read-only mode: reads go on, every PUT and POST
 * is answered 507 before its body is read (deletes go on: they free space). A start on
 * such a disk starts read-only.
 *
 * Read-only mode ends by itself: each write that arrives meanwhile first probes the disk
 * (a small file written, fsynced and removed; one probe at a time, shared by the writes
 * waiting for it), and goes ahead once the probe succeeds. So freeing space (or
 * remounting read-write) is enough, no restart; and while the disk stays full the cost is
 * one failed small write per refused request.
 */
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Clock } from '../../base/clock';
import type { Logger } from '../../base/log';
import { writeFileAtomic } from '../../base/atomic-file';

/** The errors that mean "no room to write": full disk, used-up disk quota, read-only file system. */
export const NO_ROOM_CODES = ['ENOSPC', 'EDQUOT', 'EROFS'] as const;

/** One of {@link NO_ROOM_CODES}. */
export type NoRoomCode = (typeof NO_ROOM_CODES)[number];

/** Whether the destination takes writes now; `since` is epoch ms on the destination's clock. */
export type StorageState =
  { mode: 'read-write' } | { mode: 'read-only'; reason: NoRoomCode; message: string; since: number };

/** Name of the probe file in the data directory (removed right after each probe). */
export const PROBE_FILE = '.bwc-emu-room-probe';

/** Bytes the probe writes: one block, so a disk with no block left fails it. */
const PROBE_BYTES = 4096;

/** The no-room code of a file-system error, or undefined for any other error. */
export function noRoomCode(err: unknown): NoRoomCode | undefined {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return (NO_ROOM_CODES as readonly (string | undefined)[]).includes(code) ? (code as NoRoomCode) : undefined;
}

/** The 507 body for a write refused for lack of room: Swift's status text and the reason, in words. */
export function noRoomMessage(reason: NoRoomCode): string {
  const why: Record<NoRoomCode, string> = {
    ENOSPC: 'the disk of the data directory is full',
    EDQUOT: 'the disk quota of the data directory is used up',
    EROFS: 'the data directory is on a read-only file system',
  };
  const until = reason === 'EROFS' ? 'the file system is writable again' : 'there is room';
  return `Insufficient Storage: ${why[reason]}; the destination is read-only until ${until}`;
}

/** The storage state of one data directory, with the probe that ends read-only mode. */
export class DiskRoom {
  private current: StorageState = { mode: 'read-write' };
  private probing: Promise<boolean> | undefined;
  private readonly roomAgain: (() => Promise<void>)[] = [];

  constructor(
    private readonly dataDir: string,
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {}

  /** The state now. */
  get state(): StorageState {
    return this.current;
  }

  /**
   * Probes the disk at start: read-only (with a warning) when it has no room. Another
   * error (say, a data directory that is not writable at all) is thrown: the start fails.
   */
  async check(): Promise<StorageState> {
    await mkdir(this.dataDir, { recursive: true });
    // What a probe cut off by a crash left: the file, or the temporary file writing it.
    for (const name of await readdir(this.dataDir))
      if (name === PROBE_FILE || (name.startsWith(`.${PROBE_FILE}.`) && name.endsWith('.tmp')))
        await rm(join(this.dataDir, name), { force: true });
    const error = await this.probe();
    if (error !== undefined && this.noted(error) === undefined) throw error;
    return this.current;
  }

  /**
   * Calls `listener` each time read-only mode ends (say, to write what could not be
   * written meanwhile); the write that found room waits for it. It must not throw.
   */
  whenRoomAgain(listener: () => Promise<void>): void {
    this.roomAgain.push(listener);
  }

  /**
   * Before a write: true when it may go ahead (read-write, or a probe found room again),
   * false while there is still no room (answer 507).
   */
  async ready(): Promise<boolean> {
    if (this.current.mode === 'read-write') return true;
    this.probing ??= this.probe()
      .then(async (error) => {
        if (error === undefined) {
          const was = this.current;
          this.current = { mode: 'read-write' };
          if (was.mode === 'read-only') {
            this.log.warn(
              { dataDir: this.dataDir, was: was.reason },
              'the data directory has room again: writes resume',
            );
            for (const listener of this.roomAgain) await listener();
          }
          return true;
        }
        if (this.noted(error) === undefined)
          this.log.warn(
            { dataDir: this.dataDir, err: error.message },
            'cannot probe the data directory: it stays read-only',
          );
        return false;
      })
      .finally(() => {
        this.probing = undefined;
      });
    return this.probing;
  }

  /**
   * Takes note of a failed write: a no-room error makes the destination read-only (one
   * warning when it becomes so) and returns its code; any other error returns undefined.
   */
  noted(err: unknown): NoRoomCode | undefined {
    const reason = noRoomCode(err);
    if (reason === undefined) return undefined;
    if (this.current.mode === 'read-write') {
      this.current = { mode: 'read-only', reason, message: noRoomMessage(reason), since: this.clock.now() };
      this.log.warn(
        { dataDir: this.dataDir, reason, err: (err as Error).message },
        'no room in the data directory: read-only until there is room (writes answer 507, reads go on)',
      );
    }
    return reason;
  }

  /** Writes and removes the probe file; the error when the disk refused, undefined when it took it. */
  private async probe(): Promise<NodeJS.ErrnoException | undefined> {
    const file = join(this.dataDir, PROBE_FILE);
    try {
      await writeFileAtomic(file, Buffer.alloc(PROBE_BYTES));
      return undefined;
    } catch (err) {
      // As thrown by node:fs (not wrapped: its `code` says whether it is no room).
      return err as NodeJS.ErrnoException;
    } finally {
      await rm(file, { force: true }).catch(() => undefined);
    }
  }
}
