/**
 * ETags of object PUTs: every successful PUT answered with an ETag equal to the MD5
 * of the body sent (from the request's own ETag, the plan's bookmark and GNSS bodies,
 * or the empty body of a registration or System object).
 */
import { createHash } from 'node:crypto';
import { RESERVED_CONTAINERS } from '../../protocol/body-worn';
import type { ExpandedPlan } from '../expand-plan';
import type { Exchange } from '../swift-client';
import { decode, is2xx, kindOf, requestHeader, responseHeader, splitPath } from './exchanges';
import { type Check, fail, type Finding, pass } from './finding';

const CHECK: Check = {
  id: 'object.put-etag',
  title: 'object PUT answered with an ETag equal to the MD5 of the body sent',
};
const EMPTY_MD5 = createHash('md5').digest('hex');
/** Containers whose objects are PUT with an empty body (the metadata is all). */
const EMPTY_BODIES = new Set<string>([
  RESERVED_CONTAINERS.users,
  RESERVED_CONTAINERS.devices,
  RESERVED_CONTAINERS.system,
]);

/** The first PUT with a missing or wrong ETag names the request; not checked when no object PUT succeeded. */
export function etagFinding(exchanges: Exchange[], plan: ExpandedPlan | undefined): Finding {
  const puts = exchanges.filter((e) => e.method === 'PUT' && kindOf(e) === 'object' && is2xx(e.status));
  if (puts.length === 0) return fail(CHECK, 'not checked: no object PUT succeeded');
  const md5ByName = sentBodies(plan);
  const problems = puts.flatMap((e) => {
    const detail = etagProblem(e, md5ByName);
    return detail === undefined ? [] : [{ e, detail }];
  });
  const first = problems[0];
  if (!first) return pass(CHECK, `${puts.length} PUTs`);
  return fail(CHECK, `${problems.length} of ${puts.length}: ${first.detail}`, {
    method: 'PUT',
    path: first.e.path,
    status: first.e.status,
  });
}

/** The MD5 of each bookmark and GNSS trail by encoded object name: those PUTs carry no ETag of their own. */
function sentBodies(plan: ExpandedPlan | undefined): Map<string, string> {
  const md5ByName = new Map<string, string>();
  for (const r of plan?.recordings ?? [])
    for (const o of [...r.bookmarks, ...(r.gpsTrail ? [r.gpsTrail] : [])])
      md5ByName.set(encodeURIComponent(o.name), createHash('md5').update(o.body).digest('hex'));
  return md5ByName;
}

/** What is wrong with one PUT's ETag; a body whose MD5 is not known is only checked for an ETag at all. */
function etagProblem(e: Exchange, md5ByName: Map<string, string>): string | undefined {
  const [container, object] = splitPath(e.path);
  const emptyBody = EMPTY_BODIES.has(decode(container)) ? EMPTY_MD5 : undefined;
  const expected = bare(requestHeader(e, 'etag')) ?? md5ByName.get(object) ?? emptyBody;
  const etag = bare(responseHeader(e, 'etag'));
  if (etag === undefined) return 'no ETag';
  if (expected !== undefined && etag !== expected) return `ETag ${etag} is not the MD5 sent, ${expected}`;
  return undefined;
}

/** An ETag without quotes, in lower case: destinations differ in both. */
function bare(etag: string | undefined): string | undefined {
  return etag?.replace(/"/g, '').toLowerCase();
}
