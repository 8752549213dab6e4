/**
 * ETags of object PUTs: an ETag answered to a successful PUT must be the MD5 of the
 * body sent (from the request's own ETag, the plan's bookmark and GNSS bodies, or the
 * empty body of a registration or System object). A missing one is only a warning:
 * the interface requires an ETag on GETs of System objects, not on PUT answers (the
 * vendor example sends none for clips), though Swift always sends one and rclone needs it.
 */
import { createHash } from 'node:crypto';
import { RESERVED_CONTAINERS } from '../../protocol/body-worn';
import type { ExpandedPlan } from '../expand-plan';
import type { Exchange } from '../swift-client';
import { decode, is2xx, kindOf, requestHeader, responseHeader, splitPath } from './exchanges';
import { type Check, fail, type ConformanceFinding, notChecked, pass, type SeenRequest } from './finding';

const MATCHES: Check = {
  id: 'object.put-etag',
  title: 'object PUT answered with an ETag: it is the MD5 of the body sent',
};
const PRESENT: Check = {
  id: 'object.put-etag-present',
  title:
    'object PUT answered with an ETag (Swift does, rclone needs it; the interface requires it only on System objects)',
  advisory: true,
};
const EMPTY_MD5 = createHash('md5').digest('hex');
/** Containers whose objects are PUT with an empty body (the metadata is all). */
const EMPTY_BODIES = new Set<string>([
  RESERVED_CONTAINERS.users,
  RESERVED_CONTAINERS.devices,
  RESERVED_CONTAINERS.system,
]);

/**
 * The ETags of successful object PUTs: one that is not the MD5 sent fails (the stored
 * data is not what was sent); a missing one only warns. Neither is checked when no
 * object PUT succeeded, and the MD5s are not checked when no PUT answered an ETag.
 */
export function etagFindings(exchanges: Exchange[], plan: ExpandedPlan | undefined): ConformanceFinding[] {
  const puts = exchanges.filter((e) => e.method === 'PUT' && kindOf(e) === 'object' && is2xx(e.status));
  if (puts.length === 0) return [MATCHES, PRESENT].map((check) => notChecked(check, 'no object PUT succeeded'));
  const md5ByName = sentBodies(plan);
  const missing = puts.filter((e) => bare(responseHeader(e, 'etag')) === undefined);
  const wrong = puts.flatMap((e) => {
    const detail = etagMismatch(e, md5ByName);
    return detail === undefined ? [] : [{ e, detail }];
  });
  const withEtag = puts.length - missing.length;
  return [
    wrong[0]
      ? fail(MATCHES, `${wrong.length} of ${withEtag}: ${wrong[0].detail}`, seen(wrong[0].e))
      : withEtag
        ? pass(MATCHES, `${withEtag} PUTs`)
        : notChecked(MATCHES, 'no PUT answered with an ETag to compare'),
    missing[0]
      ? fail(PRESENT, `${missing.length} of ${puts.length} without an ETag`, seen(missing[0]))
      : pass(PRESENT, `${puts.length} PUTs`),
  ];
}

/** The request a finding points at. */
function seen(e: Exchange): SeenRequest {
  return { method: 'PUT', path: e.path, status: e.status };
}

/** The MD5 of each bookmark and GNSS trail by encoded object name: those PUTs carry no ETag of their own. */
function sentBodies(plan: ExpandedPlan | undefined): Map<string, string> {
  const md5ByName = new Map<string, string>();
  for (const r of plan?.recordings ?? [])
    for (const o of [...r.bookmarks, ...(r.gpsTrail ? [r.gpsTrail] : [])])
      md5ByName.set(encodeURIComponent(o.name), createHash('md5').update(o.body).digest('hex'));
  return md5ByName;
}

/** Why one PUT's ETag is not the MD5 sent; a body whose MD5 is not known, or no ETag at all, is not a mismatch. */
function etagMismatch(e: Exchange, md5ByName: Map<string, string>): string | undefined {
  const [container, object] = splitPath(e.path);
  const emptyBody = EMPTY_BODIES.has(decode(container)) ? EMPTY_MD5 : undefined;
  const expected = bare(requestHeader(e, 'etag')) ?? md5ByName.get(object) ?? emptyBody;
  const etag = bare(responseHeader(e, 'etag'));
  if (etag !== undefined && expected !== undefined && etag !== expected)
    return `ETag ${etag} is not the MD5 sent, ${expected}`;
  return undefined;
}

/** An ETag without quotes, in lower case: destinations differ in both. */
function bare(etag: string | undefined): string | undefined {
  return etag?.replace(/"/g, '').toLowerCase();
}
