/** `upload.completed`: the plan itself (registrations and recordings, not the probes) was accepted. */
import type { UploadReport } from '../body-worn-system';
import type { FailedRequest } from '../upload-recording';
import { type Check, fail, type Finding, firstOf, pass } from './finding';

/** Every registration and every plan recording was accepted; else the first three problems. */
export function completedFinding(report: UploadReport): Finding {
  const check: Check = {
    id: 'upload.completed',
    title: 'the plan was uploaded: every registration and recording accepted',
  };
  const plan = report.recordings.filter((r) => !r.probe);
  const problems = [
    ...report.registrationFailures.map((f) => `${f.kind} ${f.id}: ${outcome(f.request)}`),
    ...plan
      .filter((r) => r.status !== 'transferred')
      .map((r) => `${r.container} ${r.status}: ${r.request ? outcome(r.request) : ''}`),
  ];
  if (problems.length) return fail(check, `${problems.length} problem(s): ${firstOf(problems, 3)}`);
  return pass(check, `${plan.length} recordings, ${report.usersRegistered} users, ${report.devicesRegistered} cameras`);
}

/** A run that threw before the upload ended: nothing else about the upload can be judged. */
export function stoppedFinding(error: Error): Finding {
  return fail({ id: 'upload.completed', title: 'the plan was uploaded' }, `the run stopped: ${error.message}`);
}

/** `PUT /path -> 400`, or the message when there was no status. */
function outcome(request: FailedRequest): string {
  return `${request.method} ${request.path} -> ${request.status ?? request.message}`;
}
