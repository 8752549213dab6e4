/**
 * The conformance run: the body worn system uploads as usual (plus the probes) while
 * every exchange is collected; the checks then read those exchanges, and make requests
 * of their own only for what the exchanges cannot show.
 */
import { type BodyWornOptions, runBodyWornSystem, type UploadReport } from '../body-worn-system';
import type { ExpandedPlan } from '../expand-plan';
import { DEFAULT_PLAN, type Plan, PlanSchema } from '../plan';
import { type Exchange, SwiftClient } from '../swift-client';
import { authFindings } from './auth-findings';
import { sortFindings } from './check-ids';
import { emptyReport } from './empty-report';
import { etagFindings } from './etag-finding';
import { type ConformanceFinding, failsRun } from './finding';
import { metadataFindings, storedUser } from './metadata-findings';
import { missingTokenFinding } from './missing-token';
import { probeFinding } from './probe-findings';
import { probeCleanup } from './probe-cleanup';
import { PROBES, probeRecordings, probeRegistrations } from './probes';
import { renameFinding } from './rename-finding';
import { missingObjectFinding } from './status-finding';
import { systemFindings } from './system-findings';
import { completedFinding, stoppedFinding } from './upload-findings';
import { writeStatusFindings } from './write-findings';

/** The upload's report, the findings, and whether no finding fails the run (advisory and not-checked ones do not). */
export interface ConformanceResult {
  report: UploadReport;
  findings: ConformanceFinding[];
  passed: boolean;
  /** What the probes stored and the destination would not delete (decoded paths, e.g. `/Users/bwc-emu-check_user`). */
  leftBehind: string[];
}

/**
 * Runs the body worn system over the plan plus the probes, collecting every exchange
 * (the caller's `onExchange` still hears each), then checks the destination. A run
 * that cannot start (e.g. no `X-Storage-Url`) gives findings too, not an exception.
 */
export async function runConformance(options: BodyWornOptions): Promise<ConformanceResult> {
  const exchanges: Exchange[] = [];
  const onExchange = (exchange: Exchange): void => {
    exchanges.push(exchange);
    options.onExchange?.(exchange);
  };
  const now = options.now ?? Date.now;
  const plan = options.plan ?? PlanSchema.parse(DEFAULT_PLAN);
  const identities = probeRegistrations(plan);
  let expanded: ExpandedPlan | undefined;
  let report: UploadReport;
  try {
    report = await runBodyWornSystem({
      ...options,
      plan,
      extraRegistrations: {
        users: [...(options.extraRegistrations?.users ?? []), ...identities.users],
        devices: [...(options.extraRegistrations?.devices ?? []), ...identities.devices],
      },
      onExchange,
      extraRecordings: (plan) => {
        expanded = plan;
        return [
          ...(options.extraRecordings?.(plan) ?? []),
          ...probeRecordings(plan, now(), options.connection.ContainerType),
        ];
      },
    });
  } catch (err) {
    const findings = [...authFindings(exchanges), stoppedFinding(err as Error)];
    return { report: emptyReport(exchanges), findings, passed: false, leftBehind: [] };
  }
  // The auth findings read the run's exchanges only; the write findings also count the checks' own requests.
  const findings = authFindings(exchanges);
  const requested = await requestFindings({ ...options, onExchange }, exchanges, report, expanded, identities);
  findings.push(...requested.findings);
  findings.push(...writeStatusFindings(exchanges, report), ...etagFindings(exchanges, expanded));
  const plainStore = options.connection.FullStoreAndReadSupport === true;
  findings.push(
    ...PROBES.map((probe) => probeFinding(probe, report, plainStore)),
    completedFinding(report, identities),
  );
  sortFindings(findings);
  return { report, findings, passed: !findings.some(failsRun), leftBehind: requested.leftBehind };
}

/**
 * The checks that need requests of their own, made after the upload with a fresh client
 * whose exchanges are collected too; the probes' traces are deleted last.
 */
async function requestFindings(
  options: BodyWornOptions,
  exchanges: Exchange[],
  report: UploadReport,
  plan: ExpandedPlan | undefined,
  identities: Pick<Plan, 'users' | 'devices'>,
): Promise<{ findings: ConformanceFinding[]; leftBehind: string[] }> {
  const { connection, retry, sleep, random, clock, onExchange } = options;
  const client = new SwiftClient({ connection, retry, sleep, random, clock, onExchange });
  try {
    const findings = await systemFindings(client, exchanges, report, connection);
    // A plan without users still has the probe user to check metadata and renaming on.
    const user = storedUser(exchanges, report, [...(plan?.users ?? []), ...identities.users]);
    findings.push(...(await metadataFindings(client, exchanges, report, user)));
    findings.push(await renameFinding(client, user));
    findings.push(await missingTokenFinding(report.storageUrl, connection));
    findings.push(await missingObjectFinding(client));
    const cleanup = await probeCleanup(client, exchanges, report, identities);
    findings.push(cleanup.finding);
    return { findings, leftBehind: cleanup.leftBehind };
  } finally {
    client.close();
  }
}
