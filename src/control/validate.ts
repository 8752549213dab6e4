/**
 * Validation of a request part against a route's zod schema: the value it parsed to, or
 * a 400 `BAD_REQUEST` whose message names the field at fault (`body.topic: ...`).
 */
import type { z } from 'zod';
import { ControlError } from './control-error';

/** The issues reported at most in one message. */
const MAX_ISSUES = 3;

/** The issues to report: for a union, those of the branch that got furthest (deepest first issue). */
function leafIssues(issues: readonly z.core.$ZodIssue[]): z.core.$ZodIssue[] {
  return issues.flatMap((issue) => {
    if (issue.code !== 'invalid_union' || issue.errors.length === 0) return [issue];
    const depth = (branch: z.core.$ZodIssue[]): number => Math.max(...branch.map((i) => i.path.length));
    const best = issue.errors.reduce((a, b) => (depth(b) > depth(a) ? b : a));
    return leafIssues(best).map((inner) => ({ ...inner, path: [...issue.path, ...inner.path] }));
  });
}

/** `body.states.0.topic: message` for one issue. */
function describe(part: string, issue: z.core.$ZodIssue): string {
  const path = [part, ...issue.path.map(String)].join('.');
  return `${path}: ${issue.message}`;
}

/** `value` parsed by `schema`; throws a 400 `BAD_REQUEST` naming the fields at fault. */
export function validate<S extends z.ZodType>(schema: S, value: unknown, part: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = leafIssues(parsed.error.issues);
  const shown = issues.slice(0, MAX_ISSUES).map((issue) => describe(part, issue));
  const more = issues.length > MAX_ISSUES ? ` (and ${issues.length - MAX_ISSUES} more)` : '';
  throw new ControlError('BAD_REQUEST', `${shown.join('; ')}${more}`);
}
