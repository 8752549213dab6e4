/** `upload.completed`: the plan itself (registrations and recordings, not the probes) was accepted. */
import type { UploadReport } from '../body-worn-system';
import type { Plan } from '../plan';
import type { FailedRequest } from '../upload-recording';
import { type Check, fail, type ConformanceFinding, firstOf, pass } from './finding';

/**
 * Every registration and every plan recording was accepted; else the first three
 * problems. The probes' own user and camera (`probeIdentities`) are not the plan's:
 * the probe cleanup finding tells of them.
 */
export function completedFinding(
  report: UploadReport,
  probeIdentities?: Pick<Plan, 'users' | 'devices'>,
): ConformanceFinding {
  const check: Check = {
    id: 'upload.completed',
    title: 'the plan was uploaded: every registration and recording accepted',
  };
  const probeIds = new Set([
    ...(probeIdentities?.users ?? []).map((u) => u.id),
    ...(probeIdentities?.devices ?? []).map((d) => d.serial),
  ]);
  const plan = report.recordings.filter((r) => !r.probe);
  const problems = [
    ...report.registrationFailures
      .filter((f) => f.kind === 'system' || !probeIds.has(f.id))
      .map((f) => `${f.kind} ${f.id}: ${outcome(f.request)}`),
    ...plan
      .filter((r) => r.status !== 'transferred')
      .map((r) => `${r.container} ${r.status}: ${r.request ? outcome(r.request) : ''}`),
  ];
  if (problems.length) return fail(check, `${problems.length} problem(s): ${firstOf(problems, 3)}`);
  return pass(check, `${plan.length} recordings, ${report.usersRegistered} users, ${report.devicesRegistered} cameras`);
}

/** A run that threw before the upload ended: nothing else about the upload can be judged. */
export function stoppedFinding(error: Error): ConformanceFinding {
  return fail({ id: 'upload.completed', title: 'the plan was uploaded' }, `the run stopped: ${error.message}`);
}

/** `PUT /path -> 400`, or the message when there was no status. */
function outcome(request: FailedRequest): string {
  return `${request.method} ${request.path} -> ${request.status ?? request.message}`;
}
