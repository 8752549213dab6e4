/**
 * Accounts, containers and objects on the file system, with an in-memory index
 * rebuilt at start. An object is whole or absent: its body streams into a part file
 * (receive-body.ts: MD5 computed on the way by a worker thread) and is fsynced; its
 * record (name, ETag, metadata, data file) is written to a temporary file and fsynced
 * meanwhile (once the body is hashed: object-version.ts), so a PUT waits for one round of fsyncs, not two
 * in a row. At commit the part file is renamed to its data file, then the record over
 * the old one, and the directory is fsynced: only the record makes the object exist.
 * Commits of one name are serialised, so concurrent PUTs end with the last complete
 * one; readers keep the data file they opened even if it is replaced meanwhile.
 *
 * Layout: `{dataDir}/{account key}/{container key}/container.json` and
 * `.../objects/{object key}.json` + `{object key}.{id}.data`. Keys are a readable
 * slug plus a hash of the name, so no name can reach outside its directory.
 */
import { type FileHandle, mkdir, open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { Clock } from '../../base/clock';
import type { Logger } from '../../base/log';
import { compareNames } from '../../protocol/swift';
import { DirectorySyncs, writeFileAtomic } from '../../base/atomic-file';
import { type Err, fail, ok, type Result } from '../../base/result';
import {
  type ContainerRecord,
  containerRecordJson,
  createContainerDir,
  entriesWithoutLinks,
  fileKey,
  isLeftover,
  loadContainer,
  type ObjectRecord,
  refuseLink,
  removeContainerDir,
  type StoredMetadata,
  writeAccountRecord,
} from './disk-layout';
import { DiskRoom } from './disk-room';
import { KeyedLock } from './keyed-lock';
import { Md5WorkerPool } from './md5-pool';
import { prepareVersion, type PutRequest } from './object-version';
import { type OpenWrite, type PutError, type PutFailure, putFailure } from './receive-body';

export type { ContainerRecord, ObjectRecord, StoredMetadata };
export type { NoRoomCode, StorageState } from './disk-room';

/** The result of {@link ObjectStore.putObject}: the new record and the one it replaced, or why nothing was stored. */
export type PutOutcome = Result<{ record: ObjectRecord; replaced: ObjectRecord | undefined }, PutError>;

export type { OpenWrite, PutError, PutFailure };

/** Store set-up. */
export interface ObjectStoreOptions {
  dataDir: string;
  clock: Clock;
  log: Logger;
  openWrite?: OpenWrite;
  /** Worker threads computing body MD5s; by default the store starts its own, which {@link ObjectStore.close} ends. */
  md5Workers?: Md5WorkerPool;
}

interface AccountRecord {
  name: string;
  dir: string;
  containers: Map<string, ContainerRecord>;
}

/** The file-system object store of the reference destination. */
export class ObjectStore {
  private readonly accounts = new Map<string, AccountRecord>();
  private readonly lock = new KeyedLock();
  private readonly sorted = new WeakMap<ContainerRecord, ObjectRecord[]>();
  private readonly md5: Md5WorkerPool;
  private readonly directorySyncs = new DirectorySyncs();
  /** Whether the data directory takes writes (read-only after a full disk until a probe finds room). */
  readonly room: DiskRoom;

  constructor(private readonly options: ObjectStoreOptions) {
    this.md5 = options.md5Workers ?? new Md5WorkerPool();
    this.room = new DiskRoom(options.dataDir, options.clock, options.log);
  }

  /** Ends the MD5 worker threads the store started (not a pool it was given). */
  async close(): Promise<void> {
    if (!this.options.md5Workers) await this.md5.close();
  }

  /**
   * Creates the account's directory and loads what an earlier run stored there. A symbolic
   * link below the data directory (the account directory, a container directory or anything
   * in it) is never followed: it fails with a `BAD_OPTION` {@link EmulatorError} naming it.
   * Nothing is written when the account is there already, so it opens on a full disk too.
   */
  async openAccount(name: string): Promise<void> {
    if (this.accounts.has(name)) return;
    const dataDir = this.options.dataDir;
    const dir = join(dataDir, fileKey(name));
    await refuseLink(dir, dataDir);
    // On a full disk a new account opens empty: its directory is made with its first container.
    const noRoom = (err: unknown): void => {
      if (this.room.noted(err) === undefined) throw err;
    };
    const made = await mkdir(dir, { recursive: true }).then(() => true, noRoom);
    const entries = made ? await entriesWithoutLinks(dir, dataDir) : [];
    // Informational only: on a full disk it waits for the next start.
    await writeAccountRecord(dir, name).catch(noRoom);
    const account: AccountRecord = { name, dir, containers: new Map() };
    for (const entry of entries) {
      if (isLeftover(entry.name)) {
        // A container directory being made or deleted, or a temporary record, when a crash came.
        await rm(join(dir, entry.name), { recursive: true, force: true });
        continue;
      }
      if (!entry.isDirectory()) continue;
      const container = await loadContainer(join(dir, entry.name), this.options.log, dataDir);
      if (container) account.containers.set(container.name, container);
    }
    this.accounts.set(name, account);
  }

  /** The account's containers, sorted by name. */
  containers(account: string): ContainerRecord[] {
    return [...this.account(account).containers.values()].sort((a, b) => compareNames(a.name, b.name));
  }

  /** One container, if it exists. */
  container(account: string, name: string): ContainerRecord | undefined {
    return this.account(account).containers.get(name);
  }

  /** One object, if it exists. */
  object(account: string, container: string, name: string): ObjectRecord | undefined {
    return this.container(account, container)?.objects.get(name);
  }

  /** The container's objects sorted by name (cached until the container changes). */
  objects(account: string, container: string): ObjectRecord[] {
    const record = this.container(account, container);
    if (!record) return [];
    let list = this.sorted.get(record);
    if (!list) {
      list = [...record.objects.values()].sort((a, b) => compareNames(a.name, b.name));
      this.sorted.set(record, list);
    }
    return list;
  }

  /** Bytes stored in the account. */
  bytesUsed(account: string): number {
    let total = 0;
    for (const container of this.account(account).containers.values()) total += container.bytes;
    return total;
  }

  /**
   * Creates a container (`created`) or merges metadata into the existing one
   * (`exists`), as a Swift PUT does; `remove` names metadata to drop. A new container's
   * directory appears whole with its record, or not at all; an existing one's record is
   * replaced atomically, and not written when nothing changes.
   */
  async putContainer(
    account: string,
    name: string,
    set: StoredMetadata,
    remove: readonly string[] = [],
  ): Promise<'created' | 'exists'> {
    return this.lock.run(`c:${account}/${name}`, async () => {
      const owner = this.account(account);
      const existing = owner.containers.get(name);
      if (existing) {
        const metadata = mergeMetadata(existing.metadata, set, remove);
        if (!sameMetadata(metadata, existing.metadata)) {
          const file = join(owner.dir, fileKey(name), 'container.json');
          await writeFileAtomic(file, containerRecordJson({ ...existing, metadata }));
          existing.metadata = metadata;
        }
        return 'exists';
      }
      const record: ContainerRecord = {
        name,
        created: this.options.clock.now(),
        metadata: mergeMetadata({}, set, remove),
        objects: new Map(),
        bytes: 0,
      };
      await createContainerDir(owner.dir, fileKey(name), containerRecordJson(record));
      owner.containers.set(name, record);
      return 'created';
    });
  }

  /** Deletes an empty container: `deleted`, `not-empty` (409) or `missing` (404). */
  async deleteContainer(account: string, name: string): Promise<'deleted' | 'not-empty' | 'missing'> {
    return this.lock.run(`c:${account}/${name}`, async () => {
      const owner = this.account(account);
      const record = owner.containers.get(name);
      if (!record) return 'missing';
      if (record.objects.size > 0) return 'not-empty';
      await removeContainerDir(owner.dir, fileKey(name), this.options.log);
      owner.containers.delete(name);
      return 'deleted';
    });
  }

  /**
   * Streams `body` into a new version of the object; see the file comment for the
   * guarantees. A full disk (`disk-full`) makes the store read-only ({@link room}).
   */
  async putObject(
    account: string,
    container: string,
    name: string,
    body: Readable,
    request: PutRequest,
  ): Promise<PutOutcome> {
    const owner = this.account(account);
    if (!owner.containers.has(container)) return fail('no-container', 'Container not found');
    const objectsDir = join(owner.dir, fileKey(container), 'objects');
    const { clock, openWrite } = this.options;
    const prepared = await prepareVersion(objectsDir, name, body, request, { clock, md5: this.md5, openWrite });
    // A refusal of the body (its length or ETag) has no full disk to note.
    if (!prepared.ok) return this.notedFull(prepared);
    const { object, part, temp, key } = prepared.value;
    const dataFile = object.dataFile;
    return this.lock.run(`o:${account}/${container}/${name}`, async () => {
      const record = owner.containers.get(container);
      if (!record) {
        await rm(part, { force: true });
        await rm(temp, { force: true });
        return fail('no-container', 'Container was deleted during the upload');
      }
      try {
        await rename(part, join(objectsDir, dataFile));
        await rename(temp, join(objectsDir, `${key}.json`));
        // Both renames last once the directory is fsynced (shared with the other commits meanwhile).
        await this.directorySyncs.sync(objectsDir);
      } catch (err) {
        await rm(part, { force: true });
        await rm(temp, { force: true });
        await rm(join(objectsDir, dataFile), { force: true });
        return this.notedFull(putFailure(err, object.bytes));
      }
      const replaced = record.objects.get(name);
      this.commit(record, object, replaced);
      if (replaced) await rm(join(objectsDir, replaced.dataFile), { force: true });
      return ok({ record: object, replaced });
    });
  }

  /**
   * Replaces an object record atomically: temporary file, fsync, rename, then an fsync
   * of the directory, shared with the other commits in that directory meanwhile.
   */
  private async writeRecord(dir: string, file: string, content: string): Promise<void> {
    await writeFileAtomic(join(dir, file), content, (d) => this.directorySyncs.sync(d));
  }

  /**
   * Replaces an object's metadata and kept headers (and content type, if given), as a
   * Swift POST; undefined when absent.
   */
  async postObject(
    account: string,
    container: string,
    name: string,
    metadata: StoredMetadata,
    contentType?: string,
    headers: StoredMetadata = {},
  ): Promise<ObjectRecord | undefined> {
    return this.lock.run(`o:${account}/${container}/${name}`, async () => {
      const record = this.container(account, container);
      const current = record?.objects.get(name);
      if (!record || !current) return undefined;
      const { headers: _replaced, ...rest } = current;
      const updated: ObjectRecord = {
        ...rest,
        metadata,
        ...(Object.keys(headers).length > 0 ? { headers } : {}),
        contentType: contentType ?? current.contentType,
        lastModified: this.options.clock.now(),
      };
      await this.writeRecord(
        join(this.account(account).dir, fileKey(container), 'objects'),
        `${fileKey(name)}.json`,
        JSON.stringify(updated),
      );
      this.commit(record, updated, current);
      return updated;
    });
  }

  /** Deletes an object; false when it was not there. */
  async deleteObject(account: string, container: string, name: string): Promise<boolean> {
    return this.lock.run(`o:${account}/${container}/${name}`, async () => {
      const record = this.container(account, container);
      const current = record?.objects.get(name);
      if (!record || !current) return false;
      const objectsDir = join(this.account(account).dir, fileKey(container), 'objects');
      await rm(join(objectsDir, `${fileKey(name)}.json`), { force: true });
      await rm(join(objectsDir, current.dataFile), { force: true });
      record.objects.delete(name);
      record.bytes -= current.bytes;
      this.sorted.delete(record);
      return true;
    });
  }

  /**
   * Opens an object's data file for reading. The file is opened before it is returned,
   * so a concurrent replacement cannot take it away mid-read; the caller closes it.
   */
  async openObject(
    account: string,
    container: string,
    name: string,
  ): Promise<{ record: ObjectRecord; file: FileHandle } | undefined> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const record = this.object(account, container, name);
      if (!record) return undefined;
      const path = join(this.account(account).dir, fileKey(container), 'objects', record.dataFile);
      try {
        return { record, file: await open(path, 'r') };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        // Replaced between the lookup and the open: look again.
      }
    }
    return undefined;
  }

  /** Takes note of a full disk in a failed PUT (the store turns read-only); returns the failure. */
  private notedFull(failure: Err<PutError>): Err<PutError> {
    const { noRoom, message } = failure.error;
    if (noRoom !== undefined) this.room.noted({ code: noRoom, message });
    return failure;
  }

  private commit(container: ContainerRecord, object: ObjectRecord, replaced: ObjectRecord | undefined): void {
    container.objects.set(object.name, object);
    container.bytes += object.bytes - (replaced?.bytes ?? 0);
    this.sorted.delete(container);
  }

  private account(name: string): AccountRecord {
    const account = this.accounts.get(name);
    if (!account) throw new Error(`account ${name} is not open`);
    return account;
  }
}

function sameMetadata(a: StoredMetadata, b: StoredMetadata): boolean {
  const names = Object.keys(a);
  return names.length === Object.keys(b).length && names.every((name) => b[name] === a[name]);
}

function mergeMetadata(current: StoredMetadata, set: StoredMetadata, remove: readonly string[]): StoredMetadata {
  const merged: StoredMetadata = { ...current, ...set };
  for (const name of remove) delete merged[name];
  return merged;
}
