/** What every rule reads, and how a rule makes a finding. */
import type { JournalEntry } from '../base/journal';
import { compileTopicFilter, type TopicFilter } from '../events/topic-filter';
import type { DeviceFacts, JournalIndex, Timed } from './journal-index';
import { type Finding, type GradedClient, type GradingThresholds, MAX_EVIDENCE } from './report';
import { RULES, type RuleId } from './rule-catalogue';

/** The inputs of every rule. */
export interface GradingContext {
  readonly index: JournalIndex;
  /** The devices by serial (a device missing here is graded without its topics and paths). */
  readonly devices: ReadonlyMap<string, DeviceFacts>;
  readonly thresholds: GradingThresholds;
  /** The time of the report, epoch ms: windows not yet over are not judged. */
  readonly now: number;
  /**
   * The client under test has stopped: the windows that wait for its next try of a refused
   * request (recover, stale retry) are over. Other windows still count from `now`: a client
   * stopped 1 s after a drop had no time to come back.
   */
  readonly clientStopped: boolean;
  /**
   * A topic filter as `device` compiles it (its aliases), compiled once per report;
   * undefined when it does not compile (the device refused it).
   */
  topicFilter(device: string, expression: string): TopicFilter | undefined;
}

/** The {@link GradingContext.topicFilter} of `devices`: each expression compiled once per device. */
export function topicFilters(devices: ReadonlyMap<string, DeviceFacts>): GradingContext['topicFilter'] {
  const cache = new Map<string, TopicFilter | undefined>();
  return (device, expression) => {
    const key = `${device}\n${expression}`;
    if (cache.has(key)) return cache.get(key);
    const aliases = devices.get(device)?.topicAliases;
    const result = compileTopicFilter(expression, aliases === undefined ? {} : { aliases });
    const filter = result.ok ? result.value : undefined;
    cache.set(key, filter);
    return filter;
  };
}

/** A rule: reads the context, returns its findings. */
export type Rule = (context: GradingContext) => Finding[];

/**
 * Rule functions by the ids whose findings they make: a rule file's part of the grader's table.
 * A function that finds two ids in one pass (`auth-failed` and `auth-recovered`) is named at
 * both, and runs once.
 */
export type RuleTable = Partial<Record<RuleId, Rule>>;

/** A finding of `rule`, its severity and fix from the rule table, its evidence capped. */
export function finding(
  rule: RuleId,
  device: string,
  client: GradedClient,
  message: string,
  evidence: readonly (Timed | JournalEntry)[],
): Finding {
  const bySeq = new Map(evidence.map((e) => ('entry' in e ? e.entry : e)).map((e) => [e.seq, e]));
  const entries = [...bySeq.values()].sort((a, b) => a.seq - b.seq);
  const { severity, fix } = RULES[rule];
  return {
    rule,
    severity,
    device,
    client,
    message,
    evidence: entries.slice(0, MAX_EVIDENCE),
    moreEvidence: Math.max(0, entries.length - MAX_EVIDENCE),
    fix,
  };
}

/** Groups items by a key, keeping first-seen order. */
export function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = keyOf(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

/** Milliseconds as people read them: `850 ms`, `12.5 s`. */
export function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

/** `1 session`, `2 sessions`. */
export function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
