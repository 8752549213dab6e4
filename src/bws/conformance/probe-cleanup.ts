/**
 * After the checks, the probes' traces are deleted: every container a probe created
 * (its own, or the `RejectedContent_...` one it was uploaded to again; both told by
 * the trigger reason `bwc-emu-check` sent with the container PUT), the objects stored
 * in it, and the probe user and camera. A destination that stores what it should
 * refuse, or refuses to delete, keeps something: the advisory finding names what.
 */
import { RESERVED_CONTAINERS } from '../../protocol/body-worn';
import type { UploadReport } from '../body-worn-system';
import type { Plan } from '../plan';
import type { Exchange, SwiftClient } from '../swift-client';
import { decode, is2xx, kindOf, requestHeader, written } from './exchanges';
import { type Check, fail, type ConformanceFinding, firstOf, notChecked, pass } from './finding';
import { PROBE_REASON } from './probes';

const CHECK: Check = {
  id: 'probe.cleanup',
  title: "the probes' containers, objects, user and camera were deleted afterwards",
  advisory: true,
};

/** The cleanup's finding, and the names (decoded paths) of what could not be deleted, for the end of the output. */
export interface ProbeCleanup {
  finding: ConformanceFinding;
  leftBehind: string[];
}

/** Deletes what the probes stored (objects before their container, registrations last) and says what is left. */
export async function probeCleanup(
  client: SwiftClient,
  exchanges: Exchange[],
  report: UploadReport,
  identities: Pick<Plan, 'users' | 'devices'>,
): Promise<ProbeCleanup> {
  const { finding, left } = await cleanUp(client, exchanges, report, identities);
  return { finding, leftBehind: left.map((l) => decode(l.path)) };
}

/** The DELETEs and their finding, with each path left and why. */
async function cleanUp(
  client: SwiftClient,
  exchanges: Exchange[],
  report: UploadReport,
  identities: Pick<Plan, 'users' | 'devices'>,
): Promise<{ finding: ConformanceFinding; left: { path: string; problem: string }[] }> {
  const paths = probeContainers(exchanges).flatMap((c) => [...storedObjects(exchanges, c), c]);
  paths.push(...storedRegistrations(exchanges, identities));
  const left: { path: string; problem: string }[] = [];
  for (const path of paths) {
    const problem = await remove(client, path);
    if (problem) left.push({ path, problem });
  }
  const refused = refusedIdentities(report, identities);
  const note = refused.length
    ? `; ${refused.join(', ')} could not be registered, so the probes' 400s may come from that instead`
    : '';
  if (left.length) {
    const what = describe(left.map((l) => l.path));
    const detail = `${left.length} of ${paths.length} left (${what}): ${firstOf(
      left.map((l) => l.problem),
      3,
    )}${note}; each is named at the end`;
    return { finding: fail(CHECK, detail), left };
  }
  if (paths.length === 0) return { finding: notChecked(CHECK, `the probes stored nothing to delete${note}`), left };
  return { finding: pass(CHECK, `${paths.length} deleted (${describe(paths)})${note}`), left };
}

/** Containers (encoded paths) created by a successful PUT that carried the probes' trigger reason. */
function probeContainers(exchanges: Exchange[]): string[] {
  const containers = exchanges.filter(
    (e) =>
      written(e) &&
      e.method === 'PUT' &&
      kindOf(e) === 'container' &&
      decode(requestHeader(e, 'x-container-meta-triggeron') ?? '') === PROBE_REASON,
  );
  return [...new Set(containers.map((e) => e.path))];
}

/** The objects (encoded paths) stored in a container, each once, in the order they were stored. */
function storedObjects(exchanges: Exchange[], container: string): string[] {
  const puts = exchanges.filter((e) => written(e) && e.method === 'PUT' && e.path.startsWith(`${container}/`));
  return [...new Set(puts.map((e) => e.path))];
}

/** The probe user's and camera's objects (encoded paths), when they were stored. */
function storedRegistrations(exchanges: Exchange[], identities: Pick<Plan, 'users' | 'devices'>): string[] {
  const paths = [
    ...identities.users.map((u) => `/${RESERVED_CONTAINERS.users}/${encodeURIComponent(u.id)}`),
    ...identities.devices.map((d) => `/${RESERVED_CONTAINERS.devices}/${encodeURIComponent(d.serial)}`),
  ];
  return paths.filter((path) => exchanges.some((e) => written(e) && e.method === 'PUT' && e.path === path));
}

/** `user bwc-emu-check_user (402)` for each probe identity the destination refused to register. */
function refusedIdentities(report: UploadReport, identities: Pick<Plan, 'users' | 'devices'>): string[] {
  const ids = new Set([...identities.users.map((u) => u.id), ...identities.devices.map((d) => d.serial)]);
  return report.registrationFailures
    .filter((f) => f.kind !== 'system' && ids.has(f.id))
    .map((f) => `${f.kind === 'user' ? 'user' : 'camera'} ${f.id} (${f.request.status ?? f.request.message})`);
}

/** DELETEs one path; undefined when it is gone (2xx, or 404: already gone), else what is left and why. */
async function remove(client: SwiftClient, path: string): Promise<string | undefined> {
  const answer = await client.request('DELETE', path).catch((err: Error) => err);
  if (answer instanceof Error) return `${decode(path)} (${answer.message})`;
  if (is2xx(answer.status) || answer.status === 404) return undefined;
  return `${decode(path)} (DELETE answered ${answer.status})`;
}

/** `2 containers, 3 objects, 2 registrations`. */
function describe(paths: string[]): string {
  const registrations = paths.filter((p) =>
    [RESERVED_CONTAINERS.users, RESERVED_CONTAINERS.devices].some((c) => p.startsWith(`/${c}/`)),
  ).length;
  const containers = paths.filter((p) => p.indexOf('/', 1) < 0).length;
  const objects = paths.length - containers - registrations;
  return `${containers} container(s), ${objects} object(s), ${registrations} registration(s)`;
}
