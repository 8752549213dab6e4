/**
 * Writes that are whole or absent: temp file in the same directory, fsync,
 * rename, then fsync of the directory so the rename itself survives a crash.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { countedIds } from './counted-ids';

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
  const temp = tempPath(file);
  await writeNewFile(temp, content);
  try {
    await rename(temp, file);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
  await syncDir(dir);
}

/**
 * Writes `content` into `path`, which must not exist yet, and fsyncs it; on failure nothing
 * is left. Renaming it over another file then replaces that one whole.
 */
export async function writeNewFile(path: string, content: string | Buffer): Promise<void> {
  try {
    const handle = await open(path, 'wx', 0o644);
    try {
      await handle.writeFile(content);
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (err) {
    await rm(path, { force: true });
    throw err;
  }
}

/**
 * {@link writeFileAtomic} without yielding: for a small file that must be on disk
 * before the caller answers (a write that blocks the event loop, so keep it rare).
 */
export function writeFileAtomicSync(file: string, content: string | Buffer): void {
  const dir = dirname(file);
  mkdirSync(dir, { recursive: true });
  const temp = tempPath(file);
  try {
    const fd = openSync(temp, 'wx', 0o644);
    try {
      writeFileSync(fd, content);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, file);
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
  syncDirectorySync(dir);
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

/** A temporary name next to `file`, hidden and unique, so a crash leaves nothing that looks like it. */
function tempPath(file: string): string {
  return join(dirname(file), `.${basename(file)}.${tempIds()}.tmp`);
}

const tempIds = countedIds(4, 8);

function syncDirectorySync(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // As in syncDirectory: the rename is still atomic where a directory cannot be fsynced.
  }
}
