/**
 * What the destination supports, as its System container says: `Capabilities.json` (or
 * `FullStoreAndReadSupport` in the connection file) and `Categories.json`, each trusted only
 * when its ETag is the MD5 of its body.
 */
import { createHash } from 'node:crypto';
import {
  CAPABILITY_NAMES,
  CAPABILITY_SECTIONS,
  type CapabilityName,
  type Category,
  RESERVED_CONTAINERS,
  SYSTEM_OBJECTS,
} from '../protocol/body-worn';
import type { ConnectionFile } from '../protocol/connection-file';
import { header, type SwiftClient, type SwiftResponse } from './swift-client';

/** Where the capabilities in force came from. */
export type CapabilitiesSource = 'file' | 'FullStoreAndReadSupport' | 'missing' | 'malformed' | 'corrupt';

/**
 * `System/Capabilities.json`: its ETag must be the body's MD5 (else corrupt), and a
 * missing or malformed file means nothing is supported. `FullStoreAndReadSupport`
 * in the connection file means everything is, whatever the file says.
 */
export async function readCapabilities(
  client: SwiftClient,
  connection: ConnectionFile,
): Promise<{ capabilities: Record<CapabilityName, boolean>; source: CapabilitiesSource }> {
  const none = Object.fromEntries(CAPABILITY_NAMES.map((n) => [n, false])) as Record<CapabilityName, boolean>;
  if (connection.FullStoreAndReadSupport)
    return {
      capabilities: Object.fromEntries(CAPABILITY_NAMES.map((n) => [n, true])) as Record<CapabilityName, boolean>,
      source: 'FullStoreAndReadSupport',
    };
  const answer = await client.request('GET', `/${RESERVED_CONTAINERS.system}/${SYSTEM_OBJECTS.capabilities}`);
  if (answer.status !== 200) return { capabilities: none, source: 'missing' };
  if (!etagMatches(answer)) return { capabilities: none, source: 'corrupt' };
  try {
    const document = JSON.parse(answer.body.toString('utf8')) as Record<string, Record<string, unknown>>;
    const capabilities = { ...none };
    for (const [section, names] of Object.entries(CAPABILITY_SECTIONS))
      for (const name of names) capabilities[name] = document?.[section]?.[name] === true;
    return { capabilities, source: 'file' };
  } catch {
    return { capabilities: none, source: 'malformed' };
  }
}

/** `System/Categories.json` as a list of `{Name, Id}`; empty when absent, corrupt or malformed. */
export async function readCategories(client: SwiftClient): Promise<Category[]> {
  const answer = await client.request('GET', `/${RESERVED_CONTAINERS.system}/${SYSTEM_OBJECTS.categories}`);
  if (answer.status !== 200 || !etagMatches(answer)) return [];
  try {
    const list = JSON.parse(answer.body.toString('utf8')) as unknown;
    return Array.isArray(list) ? list.filter(isCategory) : [];
  } catch {
    return [];
  }
}

/** True when the answer's ETag is the MD5 of its body. */
export function etagMatches(answer: SwiftResponse): boolean {
  const etag = header(answer.headers, 'etag')?.replace(/"/g, '').toLowerCase();
  return etag !== undefined && etag === createHash('md5').update(answer.body).digest('hex');
}

/** A `Categories.json` entry with the two fields a bookmark needs. */
function isCategory(entry: unknown): entry is Category {
  if (typeof entry !== 'object' || entry === null) return false;
  const { Name, Id } = entry as Record<string, unknown>;
  return typeof Name === 'string' && typeof Id === 'string';
}
