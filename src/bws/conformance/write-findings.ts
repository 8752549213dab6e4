/**
 * The statuses of the writes: every answered container and object PUT and POST
 * (the run's and the checks' own) got its success code as the interface says, or
 * an error code the interface lists for that write.
 */
import type { UploadReport } from '../body-worn-system';
import type { Exchange } from '../swift-client';
import { answered, kindOf } from './exchanges';
import { type Check, fail, type ConformanceFinding, notChecked, pass } from './finding';

/** One kind of write and the statuses the interface gives it. */
interface StatusRule {
  check: Check;
  method: 'PUT' | 'POST';
  kind: 'container' | 'object';
  ok: readonly number[];
  errors: readonly number[];
}

/** Success and allowed error codes of each write, from the interface (plus Swift's 411/413/422 for object PUT). */
const STATUS_RULES: readonly StatusRule[] = [
  {
    check: { id: 'container.put', title: 'container PUT answered 201 (created) or 202 (exists)' },
    method: 'PUT',
    kind: 'container',
    ok: [201, 202],
    errors: [400, 401, 403, 404, 500, 503],
  },
  {
    check: { id: 'container.post', title: 'container POST answered 204' },
    method: 'POST',
    kind: 'container',
    ok: [204],
    errors: [400, 401, 403, 404, 500],
  },
  {
    check: { id: 'object.put', title: 'object PUT answered 201' },
    method: 'PUT',
    kind: 'object',
    ok: [201],
    errors: [400, 401, 402, 403, 404, 411, 413, 422, 500, 503, 507],
  },
  {
    check: { id: 'object.post', title: 'object POST answered 202' },
    method: 'POST',
    kind: 'object',
    ok: [202],
    errors: [400, 401, 402, 403, 404, 500],
  },
];

/** One finding per kind of write. */
export function writeStatusFindings(exchanges: Exchange[], report: UploadReport): ConformanceFinding[] {
  const probes = new Set(report.recordings.filter((r) => r.probe).map((r) => `/${encodeURIComponent(r.container)}`));
  const probeRefusal = (e: Exchange): boolean => e.status === 400 && probes.has(e.path.replace(/^(\/[^/]*).*$/, '$1'));
  // A 401 makes the client log in again and repeat the write; a probe's 400 is what its own check wants.
  const counted = exchanges.filter((e) => answered(e) && e.status !== 401 && !probeRefusal(e));
  const of = (rule: StatusRule): Exchange[] =>
    counted.filter((e) => e.method === rule.method && kindOf(e) === rule.kind);
  return STATUS_RULES.map((rule) => statusRuleFinding(rule, of(rule)));
}

/** A rule over the writes it counts: the statuses seen, and the first one the interface does not give. */
function statusRuleFinding(rule: StatusRule, counted: Exchange[]): ConformanceFinding {
  if (counted.length === 0) return notChecked(rule.check, 'no such request was answered');
  const allowed = (status: number | undefined): boolean =>
    status !== undefined && (rule.ok.includes(status) || rule.errors.includes(status));
  const wrong = counted.filter((e) => !allowed(e.status));
  const detail = `${counted.length} answered (${histogram(counted)})`;
  const first = wrong[0];
  if (!first) return pass(rule.check, detail);
  return fail(rule.check, `${detail}; ${wrong.length} with a status the interface does not give here`, {
    method: first.method,
    path: first.path,
    status: first.status,
  });
}

/** `201 x12, 202 x3`: each status in the order first seen, with how often. */
function histogram(exchanges: Exchange[]): string {
  return [...new Set(exchanges.map((e) => e.status))]
    .map((s) => `${s} x${exchanges.filter((e) => e.status === s).length}`)
    .join(', ');
}
