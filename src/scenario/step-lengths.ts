/**
 * How long a scenario's steps and lists last, in scenario ms (the timing rules are in
 * player.ts): a function of the scenario alone, computed once per list and shared by every
 * player of the scenario (a fleet's 100,000 players would otherwise hold 100,000 equal maps,
 * about 0.25 KB each; at 1,000 the saving did not show: bench/shared-caches.js, step-lengths).
 */
import type { Scenario, Step } from './schema';

/** The lengths of one scenario's lists, computed as they are first asked for. */
export class StepLengths {
  /** The latest end of each list's steps, by list. */
  private readonly lengths = new Map<Step[], number>();

  /** The lengths of each scenario, shared by its players (gone with the scenario). */
  private static readonly shared = new WeakMap<Scenario, StepLengths>();

  /** The lengths of `scenario`, made on its first player's start. */
  static of(scenario: Scenario): StepLengths {
    let lengths = StepLengths.shared.get(scenario);
    if (lengths === undefined) {
      lengths = new StepLengths(scenario);
      StepLengths.shared.set(scenario, lengths);
    }
    return lengths;
  }

  constructor(private readonly scenario: Scenario) {}

  /** How long a step lasts from its start to its end, in scenario ms (Infinity for `every` without `times`). */
  stepSpan(step: Step): number {
    let action = 0;
    if (step.pause !== undefined) action = step.pause;
    else if (step.run !== undefined) action = this.listLength(this.scenario.groups?.[step.run] ?? []);
    else if (step.steps) action = this.listLength(step.steps);
    if (step.every === undefined) return action;
    return step.times === undefined ? Infinity : step.times * step.every + action;
  }

  /** The latest end of the steps of a list, from the list start. */
  listLength(steps: Step[]): number {
    const known = this.lengths.get(steps);
    if (known !== undefined) return known;
    let cursor = 0;
    let end = 0;
    for (const step of steps) {
      if (step.on !== undefined) continue;
      const start = step.at !== undefined ? step.at : cursor + (step.after ?? 0);
      cursor = start + this.stepSpan(step);
      end = Math.max(end, cursor);
    }
    this.lengths.set(steps, end);
    return end;
  }
}
