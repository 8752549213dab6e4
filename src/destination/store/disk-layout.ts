/**
 * How the object store lies on disk: each Swift name becomes a readable, collision-free
 * file key, and a container directory holds `container.json` and `objects/` with one
 * record (`.json`) and one data file (`.data`) per object. Loading a directory at start
 * removes what an interrupted write left behind.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
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

/** Loads one container directory; removes part files and data files no record names. */
export async function loadContainer(dir: string, log: Logger): Promise<ContainerRecord | undefined> {
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
  const files = await readdir(objectsDir);
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
