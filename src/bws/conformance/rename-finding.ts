/**
 * POST replaces an object's metadata: POST the user's metadata plus a marker key,
 * then POST it with a new name (no marker); HEAD must show the new name and no
 * marker. The original metadata is POSTed back at the end.
 */
import { type Exchange, header, type SwiftClient, type SwiftResponse } from '../swift-client';
import { decode, is2xx, metaOf, sameMetaValue } from './exchanges';
import { fail, type ConformanceFinding, notChecked, pass } from './finding';

const CHECK = {
  id: 'object.post-replaces',
  title: 'object POST replaces the metadata (rename: HEAD shows the new name, not an old key)',
};
/** A key only the first POST sends: a destination that merges instead of replacing keeps it. */
const MARKER = 'X-Object-Meta-Bwcemucheck';

/** Renames the stored user object `put` and back; not checked when no user object was stored. */
export async function renameFinding(client: SwiftClient, put: Exchange | undefined): Promise<ConformanceFinding> {
  if (!put) return notChecked(CHECK, 'no user object was stored');
  const original = metaOf([put]);
  const nameKey = Object.keys(original).find((k) => k.toLowerCase() === 'x-object-meta-name') ?? 'X-Object-Meta-Name';
  const renamed = `${decode(original[nameKey] ?? '')} (bwc-emu-check rename)`;
  const posts = [
    { ...original, [MARKER]: 'old-key' },
    { ...original, [nameKey]: encodeURIComponent(renamed) },
  ];
  try {
    for (const headers of posts) {
      const answer = await client.request('POST', put.path, headers);
      if (!is2xx(answer.status))
        return fail(CHECK, `the rename's POST answered ${answer.status}`, {
          method: 'POST',
          path: put.path,
          status: answer.status,
        });
    }
    const head = await client.request('HEAD', put.path);
    const problems = renameProblems(head, renamed);
    const restored = await restore(client, put.path, original);
    if (problems.length)
      return fail(CHECK, `${problems.join('; ')} (${restored})`, {
        method: 'HEAD',
        path: put.path,
        status: head.status,
      });
    return pass(CHECK, `${put.path} renamed and back (${restored})`);
  } catch (err) {
    return fail(CHECK, (err as Error).message, { method: 'POST', path: put.path });
  }
}

/** What the HEAD after the two POSTs shows wrong: a failed HEAD, the old name, or the marker still there. */
function renameProblems(head: SwiftResponse, renamed: string): string[] {
  const problems: string[] = [];
  if (!is2xx(head.status)) problems.push(`HEAD answered ${head.status}`);
  const name = header(head.headers, 'x-object-meta-name');
  if (name === undefined) problems.push(`the name is missing, not "${renamed}"`);
  else if (!sameMetaValue(name, encodeURIComponent(renamed)))
    problems.push(`the name is "${decode(name)}", not "${renamed}"`);
  if (header(head.headers, MARKER.toLowerCase()) !== undefined)
    problems.push(`${MARKER} from the earlier POST is still there (POST merged instead of replacing)`);
  return problems;
}

/** POSTs the original metadata back, so the check leaves the user as it found it; says how that went. */
async function restore(client: SwiftClient, path: string, original: Record<string, string>): Promise<string> {
  const answer = await client.request('POST', path, original);
  if (is2xx(answer.status)) return 'original metadata POSTed back';
  return `restoring the original metadata answered ${answer.status}`;
}
