/**
 * Registering with the destination: the system identity, users and cameras, each an empty
 * object with its metadata in its reserved container; what it refuses is kept for the report.
 */
import type { Logger } from '../base/log';
import type { Registration } from './expand-plan';
import type { SwiftClient } from './swift-client';
import { type FailedRequest, metaHeaders } from './upload-recording';

/** A registration the destination refused: the system identity, a user or a camera, and the request. */
export interface RegistrationFailure {
  kind: 'user' | 'device' | 'system';
  id: string;
  request: FailedRequest;
}

/** PUTs the container, then each registration object; returns how many were stored. */
export async function registerAll(
  client: SwiftClient,
  container: string,
  entries: Registration[],
  kind: 'user' | 'device',
  failures: RegistrationFailure[],
  log: Logger | undefined,
): Promise<number> {
  if (entries.length === 0) return 0;
  const put = await client.request('PUT', `/${container}`).catch((err: Error) => err);
  if (put instanceof Error || (put.status !== 201 && put.status !== 202)) {
    const request = {
      method: 'PUT',
      path: `/${container}`,
      ...(put instanceof Error
        ? { message: put.message }
        : { status: put.status, message: put.body.toString('utf8').trim().slice(0, 300) }),
    };
    for (const entry of entries) failures.push({ kind, id: entry.id, request });
    return 0;
  }
  let stored = 0;
  for (const entry of entries) {
    const failure = await putEmptyObject(client, container, entry.id, entry.metadata);
    if (failure) {
      failures.push({ kind, id: entry.id, request: failure });
      log?.warn({ kind, id: entry.id, status: failure.status, message: failure.message }, 'registration failed');
    } else stored += 1;
  }
  return stored;
}

/** PUTs an empty object with metadata; the failed request, or undefined on 201. */
export async function putEmptyObject(
  client: SwiftClient,
  container: string,
  name: string,
  metadata: Record<string, string>,
): Promise<FailedRequest | undefined> {
  const path = `/${container}/${encodeURIComponent(name)}`;
  try {
    const answer = await client.request('PUT', path, metaHeaders('object', metadata), () => Buffer.alloc(0));
    if (answer.status >= 200 && answer.status < 300) return undefined;
    return { method: 'PUT', path, status: answer.status, message: answer.body.toString('utf8').trim().slice(0, 300) };
  } catch (err) {
    return { method: 'PUT', path, message: (err as Error).message };
  }
}
