/**
 * A scenario's `override:` steps checked against the device's CGI table when the scenario
 * reaches a device (start, reload, the control API), so that a mistyped CGI or method is a
 * BAD_SCENARIO naming the step instead of a log line when the step plays. The scenario format
 * checks an override's shape; only the device layer knows its CGIs.
 */
import { EmulatorError } from '../base/errors';
import { checkOverride } from '../device/override-check';
import type { Scenario, Step } from '../scenario/schema';

/** What is wrong with each `override:` step of `scenario`, as `where: what` lines; empty when nothing is. */
export function overrideProblems(scenario: Scenario): string[] {
  const problems: string[] = [];
  const visit = (steps: readonly Step[] | undefined, where: string): void =>
    steps?.forEach((step, i) => {
      const here = `${where}[${i}]`;
      if (step.override !== undefined) {
        try {
          checkOverride(step.override);
        } catch (error) {
          if (!(error instanceof EmulatorError)) throw error;
          problems.push(`${here}: ${error.message}`);
        }
      }
      visit(step.steps, `${here}.steps`);
    });
  visit(scenario.timeline, 'timeline');
  for (const [name, steps] of Object.entries(scenario.groups ?? {})) visit(steps, `groups.${name}`);
  return problems;
}

/** Throws BAD_SCENARIO listing every bad `override:` step of `scenario`. */
export function checkScenarioOverrides(scenario: Scenario): void {
  const problems = overrideProblems(scenario);
  if (problems.length > 0) throw new EmulatorError('BAD_SCENARIO', `scenario overrides: ${problems.join('; ')}`);
}
