/**
 * Writes that are whole or absent: temp file in the same directory, fsync,
 * rename, then fsync of the directory so the rename itself survives a crash.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Replaces `file` with `content` atomically, creating its directory if needed.
 * `syncDir` flushes the rename; a caller that batches directory syncs passes its own.
 */
export async function writeFileAtomic(
  file: string,
  content: string | Buffer,
  syncDir: (dir: string) => Promise<void> = syncDirectory,
): Promise<void> {
  const dir = dirname(file);
  await mkdir(dir, { recursive: true });
  const temp = join(dir, `.${basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const handle = await open(temp, 'wx', 0o644);
    try {
      await handle.writeFile(content);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
  await syncDir(dir);
}

/** Flushes a directory entry change; ignored where the platform cannot. */
export async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Some file systems refuse fsync on directories; the rename is still atomic there.
  }
}

/**
 * Directory fsyncs shared by concurrent commits: a caller waits for a sync that starts
 * after it asked (so it covers its renames), and all callers waiting meanwhile share it.
 */
export class DirectorySyncs {
  private readonly syncs = new Map<string, { running: Promise<void>; queued: Promise<void> | undefined }>();

  /** Resolves when `dir` has been fsynced by a sync started after this call. */
  sync(dir: string): Promise<void> {
    const current = this.syncs.get(dir);
    if (!current) return this.run(dir);
    current.queued ??= current.running.then(() => this.run(dir));
    return current.queued;
  }

  private run(dir: string): Promise<void> {
    const entry: { running: Promise<void>; queued: Promise<void> | undefined } = {
      running: Promise.resolve(),
      queued: undefined,
    };
    entry.running = syncDirectory(dir).finally(() => {
      if (this.syncs.get(dir) === entry && !entry.queued) this.syncs.delete(dir);
    });
    this.syncs.set(dir, entry);
    return entry.running;
  }
}
