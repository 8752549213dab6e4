/** Journal records for tests that feed a journal directly. */
import type { JournalRecord } from '../../src/base/journal';

/** A GET of `path` on device `device` answered 404, with no auth, user, remote or RPC error. */
export function httpRecord(device: string, path: string): JournalRecord {
  return {
    kind: 'http',
    device,
    method: 'GET',
    path,
    status: 404,
    auth: undefined,
    user: undefined,
    ms: 1,
    remote: undefined,
    error: undefined,
  };
}
