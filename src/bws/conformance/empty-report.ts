/** The report of a run that stopped before it had one, so `--check` still has a report to print and write. */
import { CAPABILITY_NAMES, type CapabilityName } from '../../protocol/body-worn';
import type { UploadReport } from '../body-worn-system';
import type { Exchange } from '../swift-client';

/** No capabilities, registrations or recordings; only the requests made so far are counted. */
export function emptyReport(exchanges: Exchange[]): UploadReport {
  const none = Object.fromEntries(CAPABILITY_NAMES.map((n) => [n, false])) as Record<CapabilityName, boolean>;
  return {
    storageUrl: '',
    capabilities: none,
    capabilitiesSource: 'missing',
    categories: [],
    registrationFailures: [],
    usersRegistered: 0,
    devicesRegistered: 0,
    recordings: [],
    totals: {
      recordings: 0,
      transferred: 0,
      notTransferred: 0,
      failed: 0,
      bytes: 0,
      seconds: 0,
      megabytesPerSecond: 0,
    },
    requests: exchanges.length,
    retries: exchanges.filter((e) => e.attempt > 1).length,
    retryWaitMs: exchanges.reduce((ms, e) => ms + (e.next?.action === 'retry' ? e.next.waitMs : 0), 0),
  };
}
