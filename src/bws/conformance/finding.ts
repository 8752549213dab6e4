/** The outcome of one conformance check, and the three ways every check builds it. */

/** The request a finding points at: the one that showed it (the first offending one when it failed). */
export interface SeenRequest {
  method: string;
  path: string;
  status?: number;
}

/** One check: what was expected, and whether the destination did it. */
export interface ConformanceFinding {
  /** Stable id, e.g. `auth.storage-url`. */
  id: string;
  title: string;
  passed: boolean;
  /**
   * Nothing to judge (e.g. no PUT answered with an ETag to compare): neither passed nor
   * failed, listed as NOT CHECKED, and it does not fail the run. `passed` is false.
   */
  notChecked?: boolean;
  /** What was seen (why it failed, or a note). */
  detail?: string;
  /** The request that showed it (the first offending one when it failed). */
  request?: SeenRequest;
  /** An advisory check (real clients use it, the interface does not require it): a failure does not fail the run. */
  advisory?: boolean;
}

/** What a check is, whatever it finds: its id, its title, and whether it is only advisory. */
export type Check = Pick<ConformanceFinding, 'id' | 'title' | 'advisory'>;

/** The check passed; `detail` is a note on what was seen. */
export function pass(check: Check, detail?: string, request?: SeenRequest): ConformanceFinding {
  return finding(check, true, detail, request);
}

/** The check failed; `detail` says why, so a failure is never unexplained. */
export function fail(check: Check, detail: string, request?: SeenRequest): ConformanceFinding {
  return finding(check, false, detail, request);
}

/** Nothing was there to judge; `detail` says what was missing, so a check never passes vacuously. */
export function notChecked(check: Check, detail: string): ConformanceFinding {
  return { ...finding(check, false, `not checked: ${detail}`, undefined), notChecked: true };
}

/** Whether a finding fails the run: a failed check that is neither advisory nor not checked. */
export function failsRun(f: ConformanceFinding): boolean {
  return !f.passed && f.advisory !== true && f.notChecked !== true;
}

/** The first `max` items joined by `; `, then `; ...` when there were more: a detail stays one readable line. */
export function firstOf(items: string[], max: number): string {
  const more = items.length > max ? '; ...' : '';
  return `${items.slice(0, max).join('; ')}${more}`;
}

/** Keys always in one order and never undefined, so the JSON report reads the same from run to run. */
function finding(
  check: Check,
  passed: boolean,
  detail: string | undefined,
  request: SeenRequest | undefined,
): ConformanceFinding {
  const result: ConformanceFinding = { ...check, passed };
  if (detail !== undefined) result.detail = detail;
  if (request !== undefined) result.request = request;
  return result;
}
