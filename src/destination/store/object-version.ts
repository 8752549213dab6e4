/**
 * A new version of an object, made ready for its commit: the PUT's body streamed into a part
 * file (receive-body.ts) and, once the body is hashed and matches what the client said of it,
 * its record written to a temporary file while the part file is flushed, so a commit waits for
 * one fsync round, not two in a row. The commit renames both in (object-store.ts).
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { Clock } from '../../base/clock';
import { fail, ok, type Result } from '../../base/result';
import { fileKey, type ObjectRecord, type StoredMetadata, uniqueId, writeTemporary } from './disk-layout';
import type { Md5WorkerPool } from './md5-pool';
import { type BodyLimits, type BodySum, type OpenWrite, type PutError, receiveBody } from './receive-body';

/** What a PUT brings besides its body. */
export interface PutRequest extends BodyLimits {
  contentType: string;
  metadata: StoredMetadata;
  /** Headers kept with the object and returned with it (see `STORED_OBJECT_HEADERS`). */
  headers?: StoredMetadata;
  /** The client's `ETag` (MD5 hex): a body with another MD5 is refused and not stored. */
  expectedEtag?: string;
  /** Content-Length, when the body is not chunked: a shorter body is an interrupted upload. */
  contentLength?: number;
}

/** A version on disk, waiting for its commit: the part file becomes `dataFile`, the temporary record the object's. */
export interface PreparedVersion {
  /** The object's record, as the commit makes it current. */
  object: ObjectRecord;
  /** The part file holding the body, fsynced. */
  part: string;
  /** The temporary file holding the record, fsynced. */
  temp: string;
  /** The object's file key (its record is `{key}.json`). */
  key: string;
}

/** What receiving a version needs of the store. */
export interface VersionWriter {
  clock: Clock;
  md5: Md5WorkerPool;
  openWrite: OpenWrite | undefined;
}

/**
 * Receives `body` as a new version of `name` in `objectsDir`, or says why nothing is stored
 * (then nothing is left on disk). Throws what receiving the body throws (a crashed MD5
 * worker: a 500), its temporary record removed first.
 */
export async function prepareVersion(
  objectsDir: string,
  name: string,
  body: Readable,
  request: PutRequest,
  writer: VersionWriter,
): Promise<Result<PreparedVersion, PutError>> {
  const key = fileKey(name);
  const id = uniqueId();
  const part = join(objectsDir, `.${key}.${id}.part`);
  const dataFile = `${key}.${id}.data`;
  // The record is written (to a temporary file, fsynced) while the part file is flushed,
  // so a commit waits for one fsync round, not two in a row; it is renamed in at commit.
  const prepared: { record?: { object: ObjectRecord; temp: string } } = {};
  const prepare = async ({ bytes, etag }: BodySum): Promise<void> => {
    if (refusalOf(request, bytes, etag)) return;
    const object: ObjectRecord = {
      name,
      etag,
      bytes,
      contentType: request.contentType,
      lastModified: writer.clock.now(),
      metadata: request.metadata,
      ...(request.headers && Object.keys(request.headers).length > 0 ? { headers: request.headers } : {}),
      dataFile,
    };
    prepared.record = { object, temp: await writeTemporary(objectsDir, `${key}.json`, JSON.stringify(object)) };
  };
  // Thrown (a crashed MD5 worker: a 500) or not, a failed PUT leaves no temporary record behind.
  const received = await receiveBody(body, part, request, writer.md5, writer.openWrite, prepare).catch(
    (err: unknown) => ({ ok: false, thrown: err }) as const,
  );
  if (!received.ok) {
    if (prepared.record) await rm(prepared.record.temp, { force: true });
    if ('thrown' in received) throw received.thrown;
    return received;
  }
  const { bytes, etag } = received.value;
  const refusal = refusalOf(request, bytes, etag);
  if (refusal) {
    await rm(part, { force: true });
    return refusal;
  }
  // receiveBody ran `prepare` once the body was hashed: without a refusal, it wrote the record.
  if (!prepared.record) throw new Error(`the record of ${name} was not prepared`);
  return ok({ object: prepared.record.object, part, temp: prepared.record.temp, key });
}

/** Why a whole body of `bytes` with MD5 `etag` is refused: its length or its MD5 is not what the client said. */
function refusalOf(request: PutRequest, bytes: number, etag: string): Result<never, PutError> | undefined {
  if (request.contentLength !== undefined && bytes !== request.contentLength)
    return fail('length-mismatch', `body ended after ${bytes} of ${request.contentLength} bytes`);
  if (request.expectedEtag !== undefined && request.expectedEtag.toLowerCase() !== etag)
    return fail('etag-mismatch', 'Unprocessable Entity: the body does not match the ETag sent');
  return undefined;
}
