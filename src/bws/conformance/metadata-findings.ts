/**
 * Metadata as sent: HEADs of a recording container, one of its clips and a user
 * object must return the X-*-Meta-* headers they were written with, value for value
 * (compared URL-decoded: the encoded and the decoded form are the same value).
 */
import type { IncomingHttpHeaders } from 'node:http';
import { RESERVED_CONTAINERS } from '../../protocol/body-worn';
import type { UploadReport } from '../body-worn-system';
import { type Exchange, header, type SwiftClient } from '../swift-client';
import { is2xx, metaOf, sameMetaValue, written } from './exchanges';
import { fail, type ConformanceFinding, firstOf, notChecked, pass } from './finding';

/** Something stored whose HEAD is compared with what was sent; `stored` is missing when the run stored none. */
interface MetadataTarget {
  id: string;
  /** `a clip`: for the title and the detail. */
  what: string;
  stored?: { path: string; sent: Record<string, string> };
}

/** The PUT of the first of `users` whose registration did not fail: the object the metadata and rename checks use. */
export function storedUser(
  exchanges: Exchange[],
  report: UploadReport,
  users: readonly { id: string }[],
): Exchange | undefined {
  const failed = (id: string): boolean => report.registrationFailures.some((f) => f.kind === 'user' && f.id === id);
  const userId = users.find((u) => !failed(u.id))?.id;
  if (userId === undefined) return undefined;
  const path = `/${RESERVED_CONTAINERS.users}/${encodeURIComponent(userId)}`;
  return exchanges.find((e) => written(e) && e.method === 'PUT' && e.path === path);
}

/** The container, clip and user findings, one HEAD after the other. */
export async function metadataFindings(
  client: SwiftClient,
  exchanges: Exchange[],
  report: UploadReport,
  user: Exchange | undefined,
): Promise<ConformanceFinding[]> {
  const findings: ConformanceFinding[] = [];
  for (const target of metadataTargets(exchanges, report, user)) findings.push(await metadataFinding(client, target));
  return findings;
}

/** A transferred plan recording's container (its metadata is spread over PUT and POSTs), one of its clips, the user. */
function metadataTargets(exchanges: Exchange[], report: UploadReport, user: Exchange | undefined): MetadataTarget[] {
  const container = recordingContainer(exchanges, report);
  const clip = container && clipOf(exchanges, container.path);
  return [
    { id: 'metadata.container', what: 'a recording container', stored: container },
    { id: 'metadata.clip', what: 'a clip', stored: clip && { path: clip.path, sent: metaOf([clip]) } },
    { id: 'metadata.user', what: 'a user object', stored: user && { path: user.path, sent: metaOf([user]) } },
  ];
}

/** The container of the first plan recording transferred with clips, and the metadata of all its writes. */
function recordingContainer(exchanges: Exchange[], report: UploadReport): MetadataTarget['stored'] {
  const recording = report.recordings.find((r) => !r.probe && r.status === 'transferred' && r.clips > 0);
  if (!recording) return undefined;
  const path = `/${encodeURIComponent(recording.container)}`;
  return { path, sent: metaOf(exchanges.filter((e) => written(e) && e.path === path)) };
}

/** The first clip (`.mkv` or `.mp4`) stored in a container. */
function clipOf(exchanges: Exchange[], container: string): Exchange | undefined {
  return exchanges.find(
    (e) => written(e) && e.method === 'PUT' && e.path.startsWith(`${container}/`) && /\.(mkv|mp4)$/i.test(e.path),
  );
}

/** One target: HEAD it and compare every header sent with what came back. */
async function metadataFinding(client: SwiftClient, target: MetadataTarget): Promise<ConformanceFinding> {
  const check = { id: target.id, title: `HEAD of ${target.what} returns its X-*-Meta-* headers as sent` };
  if (!target.stored) return notChecked(check, `no ${target.what} was stored`);
  const { path, sent } = target.stored;
  const head = await client.request('HEAD', path).catch((err: Error) => err);
  if (head instanceof Error) return fail(check, head.message, { method: 'HEAD', path });
  const request = { method: 'HEAD', path, status: head.status };
  if (!is2xx(head.status)) return fail(check, `answered ${head.status}`, request);
  const total = Object.keys(sent).length;
  if (total === 0) return notChecked(check, `no X-*-Meta-* header was sent for ${path}`);
  const wrong = differences(sent, head.headers);
  if (wrong.length) return fail(check, `${wrong.length} of ${total} differ: ${firstOf(wrong, 4)}`, request);
  return pass(check, `${total} headers`);
}

/**
 * One line per header not returned as sent. Values are compared URL-decoded: they are
 * URL-encoded UTF-8 on the wire, and a destination may return the decoded form of the
 * same value (the vendor example does); a dropped or changed value still shows.
 */
function differences(sent: Record<string, string>, headers: IncomingHttpHeaders): string[] {
  return Object.entries(sent).flatMap(([name, value]) => {
    const got = header(headers, name.toLowerCase());
    if (got !== undefined && sameMetaValue(got, value)) return [];
    const shown = got === undefined ? 'nothing' : `"${got}"`;
    return [`${name}: sent "${value}", got ${shown}`];
  });
}
