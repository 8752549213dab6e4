/**
 * How the object store lies on disk: each Swift name becomes a readable, collision-free
 * file key, and a container directory holds `container.json` and `objects/` with one
 * record (`.json`) and one data file (`.data`) per object. Loading a directory at start
 * removes what an interrupted write left behind. Loading never follows a symbolic link:
 * a link anywhere below the data directory (the data directory itself may be one) stops
 * the start with an error naming it, before anything is read or removed through it.
 */
import { createHash } from 'node:crypto';
import type { Dirent } from 'node:fs';
import { lstat, mkdir, readdir, readFile, readlink, realpath, rename, rm } from 'node:fs/promises';
import { join, relative, isAbsolute } from 'node:path';
import { syncDirectory, writeFileAtomic, writeNewFile } from '../../base/atomic-file';
import { countedIds } from '../../base/counted-ids';
import { EmulatorError } from '../../base/errors';
import type { Logger } from '../../base/log';

/** Metadata as stored: lower-case name -> value as sent. */
export type StoredMetadata = Record<string, string>;

/** A stored object, as its record file says. */
export interface ObjectRecord {
  name: string;
  etag: string;
  bytes: number;
  contentType: string;
  /** Epoch ms of the PUT (or the last POST). */
  lastModified: number;
  metadata: StoredMetadata;
  /** Headers kept with the object (`Content-Encoding`, `Content-Disposition`...), lower-case names; absent in older records. */
  headers?: StoredMetadata;
  /** Base name of the data file in the container's `objects` directory. */
  dataFile: string;
}

/** A container and what it holds. */
export interface ContainerRecord {
  name: string;
  created: number;
  metadata: StoredMetadata;
  objects: Map<string, ObjectRecord>;
  bytes: number;
}

/** A readable, collision-free file name for any Swift name: slug + 16 hex of its SHA-256. */
export function fileKey(name: string): string {
  const slug = name
    .replace(/[^A-Za-z0-9._-]/g, '_')
    .replace(/^\.+/, '_')
    .slice(0, 80);
  return `${slug}~${createHash('sha256').update(name).digest('hex').slice(0, 16)}`;
}

/**
 * The error for a symbolic link found at `path` below the data directory `dataDir`:
 * it names the link and its target and says whether that target leaves the data directory.
 */
async function linkRefusal(path: string, dataDir: string): Promise<EmulatorError> {
  const target = await readlink(path).catch(() => '?');
  let points: string;
  try {
    const [real, root] = await Promise.all([realpath(path), realpath(dataDir)]);
    const rel = relative(root, real);
    const inside = rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
    points = `${inside ? 'inside' : 'outside'} the data directory`;
  } catch {
    points = 'to nothing that exists (possibly outside the data directory)';
  }
  return new EmulatorError(
    'BAD_OPTION',
    `dataDir ${dataDir}: ${path} is a symbolic link to ${target}, which points ${points}; ` +
      'the destination never follows links in its data directory (start-up cleanup would read or remove through them) ' +
      'and refuses any link in it: replace the link with the real directory or file',
  );
}

/** Fails with {@link linkRefusal} when `path` is a symbolic link (a missing path is fine). */
export async function refuseLink(path: string, dataDir: string): Promise<void> {
  const stats = await lstat(path).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return undefined;
    throw err;
  });
  if (stats?.isSymbolicLink()) throw await linkRefusal(path, dataDir);
}

/** The entries of `dir` (not followed: lstat types), failing with {@link linkRefusal} on the first symbolic link. */
export async function entriesWithoutLinks(dir: string, dataDir: string): Promise<Dirent[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const link = entries.find((entry) => entry.isSymbolicLink());
  if (link) throw await linkRefusal(join(dir, link.name), dataDir);
  return entries;
}

/**
 * True for what only an interrupted write leaves: a hidden `.tmp` name (a temporary record
 * file, a container directory being made or being deleted). No file key starts with a dot.
 */
export function isLeftover(name: string): boolean {
  return name.startsWith('.') && name.endsWith('.tmp');
}

/** A hidden temporary name for `key` in the same directory, which start-up removes ({@link isLeftover}). */
export function temporaryName(key: string): string {
  return `.${key}.${uniqueId()}.tmp`;
}

/**
 * 16 hex digits no other file of this store is named with: 8 random for the process, then
 * a count. Unique names need no fresh random bytes each (a trip into the CSPRNG per file).
 */
export const uniqueId = countedIds(4, 8);

/**
 * Writes `content` into a new hidden temporary file next to `name` in `dir` and fsyncs it;
 * returns its path. Renaming it over `name` then replaces the file whole (the directory
 * still needs its fsync for the rename to last). On failure nothing is left.
 */
export async function writeTemporary(dir: string, name: string, content: string): Promise<string> {
  const temp = join(dir, temporaryName(name));
  await writeNewFile(temp, content);
  return temp;
}

/** Writes an account directory's `account.json` (its name), unless it says that already. */
export async function writeAccountRecord(dir: string, name: string): Promise<void> {
  const file = join(dir, 'account.json');
  const content = JSON.stringify({ name });
  if ((await readFile(file, 'utf8').catch(() => undefined)) === content) return;
  await writeFileAtomic(file, content);
}

/** What a container's `container.json` holds. */
export function containerRecordJson(record: Pick<ContainerRecord, 'name' | 'created' | 'metadata'>): string {
  return JSON.stringify({ name: record.name, created: record.created, metadata: record.metadata });
}

/**
 * Makes a new container's directory whole or not at all: it is built under a temporary
 * name (its `objects` directory, then its record, atomically), then renamed into place and
 * the account directory fsynced. On failure nothing is left. A directory already there
 * with no record (left by an older version) is kept and only gets its record.
 */
export async function createContainerDir(accountDir: string, key: string, recordJson: string): Promise<void> {
  const dir = join(accountDir, key);
  if (
    await lstat(dir).then(
      () => true,
      () => false,
    )
  ) {
    await mkdir(join(dir, 'objects'), { recursive: true });
    await writeFileAtomic(join(dir, 'container.json'), recordJson);
    return;
  }
  const temp = join(accountDir, temporaryName(key));
  try {
    await mkdir(join(temp, 'objects'), { recursive: true });
    await writeFileAtomic(join(temp, 'container.json'), recordJson);
    await rename(temp, dir);
  } catch (err) {
    await rm(temp, { recursive: true, force: true });
    throw err;
  }
  await syncDirectory(accountDir);
}

/**
 * Removes a container's directory: first renamed to a temporary name (from then on the
 * container is gone, also for a start after a crash, which removes the rest), then removed.
 * Only the rename can fail; a failure of the removal is logged.
 */
export async function removeContainerDir(accountDir: string, key: string, log: Logger): Promise<void> {
  const doomed = join(accountDir, temporaryName(key));
  try {
    await rename(join(accountDir, key), doomed);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  await syncDirectory(accountDir);
  await rm(doomed, { recursive: true, force: true }).catch((err: Error) =>
    log.warn({ dir: doomed, err: err.message }, 'cannot remove a deleted container; the next start removes it'),
  );
}

/**
 * Loads one container directory; removes part files, temporary files and data files no record names.
 * A symbolic link in it (its `container.json`, its `objects` directory or any file there)
 * fails the load with an {@link EmulatorError} before anything is read or removed.
 */
export async function loadContainer(dir: string, log: Logger, dataDir: string): Promise<ContainerRecord | undefined> {
  for (const entry of await entriesWithoutLinks(dir, dataDir))
    if (isLeftover(entry.name)) await rm(join(dir, entry.name), { recursive: true, force: true });
  let meta: { name: string; created: number; metadata: StoredMetadata };
  try {
    meta = JSON.parse(await readFile(join(dir, 'container.json'), 'utf8')) as typeof meta;
  } catch (err) {
    log.warn({ dir, err: (err as Error).message }, 'skipping a directory without a readable container.json');
    return undefined;
  }
  const record: ContainerRecord = {
    name: meta.name,
    created: meta.created,
    metadata: meta.metadata ?? {},
    objects: new Map(),
    bytes: 0,
  };
  const objectsDir = join(dir, 'objects');
  await mkdir(objectsDir, { recursive: true });
  const files = (await entriesWithoutLinks(objectsDir, dataDir)).map((entry) => entry.name);
  const referenced = new Set<string>();
  for (const file of files.filter((f) => f.endsWith('.json') && !f.startsWith('.'))) {
    try {
      const object = JSON.parse(await readFile(join(objectsDir, file), 'utf8')) as ObjectRecord;
      record.objects.set(object.name, object);
      record.bytes += object.bytes;
      referenced.add(object.dataFile);
    } catch (err) {
      log.warn({ file: join(objectsDir, file), err: (err as Error).message }, 'skipping an unreadable object record');
    }
  }
  for (const file of files) {
    const leftover =
      file.endsWith('.part') || file.endsWith('.tmp') || (file.endsWith('.data') && !referenced.has(file));
    if (leftover) await rm(join(objectsDir, file), { force: true });
  }
  return record;
}
