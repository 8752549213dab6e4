/** The topics a scenario can publish: its initial states, and every emit, set, flap and storm in its steps. */
import type { Scenario, Step } from './schema';

/** Every topic `scenario` names in what it publishes, as written (before any namespace renaming), sorted. */
export function scenarioTopics(scenario: Scenario): string[] {
  const topics = new Set<string>();
  for (const state of scenario.states ?? []) topics.add(state.topic);
  const visit = (steps: readonly Step[] | undefined): void => {
    for (const step of steps ?? []) {
      if (step.emit) topics.add(step.emit.topic);
      if (step.set) topics.add(step.set.topic);
      const params = step.fault?.params as { topic?: unknown } | undefined;
      if (typeof params?.topic === 'string') topics.add(params.topic);
      visit(step.steps);
    }
  };
  visit(scenario.timeline);
  for (const group of Object.values(scenario.groups ?? {})) visit(group);
  return [...topics].sort();
}
