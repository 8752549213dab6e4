/** The order of the findings: the list reads from login to the end of the upload, whatever order the checks ran in. */
import type { ConformanceFinding } from './finding';

/** Every check's id, in the order of the list (a check that does not apply, e.g. `system.categories` without ReadCategories, is left out). */
export const CHECK_IDS: readonly string[] = [
  'auth.status',
  'auth.token',
  'auth.storage-url',
  'auth.storage-token',
  'auth.token-expires',
  'auth.missing-token',
  'system.capabilities',
  'system.categories',
  'container.put',
  'container.post',
  'object.put',
  'object.put-etag',
  'object.put-etag-present',
  'object.post',
  'object.post-replaces',
  'object.head-missing',
  'metadata.container',
  'metadata.clip',
  'metadata.user',
  'probe.unknown-user',
  'probe.unknown-device',
  'probe.no-duration',
  'probe.cleanup',
  'upload.completed',
];

/** Sorts findings into the order of {@link CHECK_IDS} (in place, stable). */
export function sortFindings(findings: ConformanceFinding[]): ConformanceFinding[] {
  return findings.sort((a, b) => CHECK_IDS.indexOf(a.id) - CHECK_IDS.indexOf(b.id));
}
