/**
 * A probe must end "not transferred" by a 400. Re-uploading it as rejected content is
 * what a body worn system does; that upload is judged like any other.
 *
 * The 400s are body worn rules on top of Swift, and the interface's README wants it
 * "possible to use a standard Swift object store file server as CD, without any active
 * server process in-between"; such a store accepts every recording. A connection file
 * with `FullStoreAndReadSupport: true` ("typically set for a standard Swift object store
 * content destination") declares one, so there a probe accepted only warns. Without it
 * the destination claims to be more than a plain store, and accepting fails.
 */
import type { UploadReport } from '../body-worn-system';
import type { FailedRequest } from '../upload-recording';
import { type Check, fail, type ConformanceFinding, pass, type SeenRequest } from './finding';
import type { Probe } from './probes';

const PROBE_TITLES: Record<Probe, string> = {
  'unknown-user': 'a recording of an unknown user is answered 400',
  'unknown-device': 'a recording of an unknown camera is answered 400',
  'no-duration': 'a clip without duration (StopTime = StartTime) is answered 400',
};

/** Why an accepted probe only warns under FullStoreAndReadSupport. */
const PLAIN_STORE =
  'FullStoreAndReadSupport is true, a standard Swift object store, which has no body worn rules and stores what it is sent';

/** How one probe ended: refused with 400, accepted, or failed some other way; `plainStore`: FullStoreAndReadSupport. */
export function probeFinding(probe: Probe, report: UploadReport, plainStore = false): ConformanceFinding {
  const check: Check = { id: `probe.${probe}`, title: PROBE_TITLES[probe] };
  const r = report.recordings.find((x) => x.probe === probe);
  if (!r) return fail(check, 'the probe was not uploaded');
  const request = seenRequest(r.request);
  if (r.status === 'not transferred' && r.request?.status === 400) {
    const rejected = r.rejectedContent
      ? `; then re-uploaded as rejected content ${r.rejectedContent} (StoreRejectedContent), as a body worn system does`
      : '';
    return pass(check, `${r.container}: 400${rejected}`, request);
  }
  if (r.status === 'transferred') {
    const where = { method: 'PUT', path: `/${encodeURIComponent(r.container)}` };
    const accepted = `${r.container} was accepted: every request answered 2xx`;
    if (!plainStore) return fail(check, accepted, where);
    return fail({ ...check, advisory: true }, `${accepted}; ${PLAIN_STORE}`, where);
  }
  return fail(check, `${r.container}: ${r.request?.status ?? r.request?.message ?? 'failed'} instead of 400`, request);
}

/** The request that decided a recording, without its message (the detail says what matters). */
function seenRequest(failed: FailedRequest | undefined): SeenRequest | undefined {
  if (!failed) return undefined;
  const request: SeenRequest = { method: failed.method, path: failed.path };
  if (failed.status !== undefined) request.status = failed.status;
  return request;
}
