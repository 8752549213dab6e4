/**
 * Fault injection for people testing their client: answer 503 (busy), 507 (full)
 * or 500 for a share of the requests or for a path prefix, and add latency. The
 * share is spread evenly and deterministically (a share of 0.25 hits every 4th
 * matching request), so tests that use it are repeatable.
 */
import { EmulatorError } from '../base/errors';
import { type ErrorInfo, fail, ok, type Result } from '../base/result';

/** Status codes a fault can answer with. */
export const FAULT_STATUSES = [500, 503, 507] as const;

/** One fault rule; every field is optional, and a rule with none matches everything. */
export interface FaultRule {
  /** Answer with this status instead of serving the request. */
  status?: (typeof FAULT_STATUSES)[number];
  /** Share of the matching requests that get the fault, 0..1 (default 1). */
  share?: number;
  /** Only requests whose path starts with this (e.g. `/v1/AUTH_bws/Users`, `/auth`). */
  pathPrefix?: string;
  /** Only these methods (upper case); all when absent. */
  methods?: string[];
  /** Delay in ms before the request is served (or refused). */
  latencyMs?: number;
  /** Stop after this many hits; unlimited when absent. */
  times?: number;
}

/** Why a fault rule given by a user was refused. */
export type FaultRuleError = ErrorInfo<'BAD_FAULT_RULE'>;

/** What to do with one request. */
export interface FaultDecision {
  status?: number;
  latencyMs: number;
}

interface ActiveRule {
  rule: FaultRule;
  seen: number;
  hits: number;
}

/** The fault rules in force and their counters. */
export class FaultInjector {
  private rules: ActiveRule[] = [];

  /** Throws `BAD_OPTION` for a bad rule. */
  constructor(rules: readonly FaultRule[] = []) {
    const replaced = this.replace(rules);
    if (!replaced.ok) throw new EmulatorError('BAD_OPTION', replaced.error.message);
  }

  /** Replaces every rule (and resets the counters); a bad rule changes nothing. */
  replace(rules: readonly unknown[]): Result<void, FaultRuleError> {
    const checked: FaultRule[] = [];
    for (const input of rules) {
      const rule = checkRule(input);
      if (!rule.ok) return rule;
      checked.push(rule.value);
    }
    this.rules = checked.map((rule) => ({ rule, seen: 0, hits: 0 }));
    return ok(undefined);
  }

  /** Adds a rule after the others; a bad rule is not added. */
  add(input: unknown): Result<void, FaultRuleError> {
    const rule = checkRule(input);
    if (!rule.ok) return rule;
    this.rules.push({ rule: rule.value, seen: 0, hits: 0 });
    return ok(undefined);
  }

  /** True while no rule is set: a request then needs no {@link decide}. */
  get empty(): boolean {
    return this.rules.length === 0;
  }

  /** The rules with how often each has fired. */
  list(): (FaultRule & { hits: number })[] {
    return this.rules.map(({ rule, hits }) => ({ ...rule, hits }));
  }

  /** Decides for one request: the first matching rule with a status answers; latencies add up. */
  decide(method: string, path: string): FaultDecision {
    let latencyMs = 0;
    let status: number | undefined;
    for (const active of this.rules) {
      const { rule } = active;
      if (rule.pathPrefix !== undefined && !path.startsWith(rule.pathPrefix)) continue;
      if (rule.methods && !rule.methods.includes(method)) continue;
      if (rule.times !== undefined && active.hits >= rule.times) continue;
      const share = rule.share ?? 1;
      active.seen += 1;
      // Bresenham: fire when the running share crosses the next whole number.
      if (Math.floor(active.seen * share + 1e-9) === Math.floor((active.seen - 1) * share + 1e-9)) continue;
      active.hits += 1;
      latencyMs += rule.latencyMs ?? 0;
      if (status === undefined && rule.status !== undefined) status = rule.status;
    }
    return { status, latencyMs };
  }
}

/** Validates a rule given by a user (options or the control endpoint); never throws. */
export function checkRule(input: unknown): Result<FaultRule, FaultRuleError> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return bad('a fault rule is an object');
  const rule = input as Record<string, unknown>;
  const known = ['status', 'share', 'pathPrefix', 'methods', 'latencyMs', 'times'];
  const unknown = Object.keys(rule).filter((k) => !known.includes(k));
  if (unknown.length) return bad(`unknown fault rule field(s): ${unknown.join(', ')} (known: ${known.join(', ')})`);
  if (rule.status !== undefined && !(FAULT_STATUSES as readonly unknown[]).includes(rule.status))
    return bad(`fault status must be one of ${FAULT_STATUSES.join(', ')}`);
  if (rule.share !== undefined && !(typeof rule.share === 'number' && rule.share >= 0 && rule.share <= 1))
    return bad('fault share must be a number from 0 to 1');
  if (rule.pathPrefix !== undefined && typeof rule.pathPrefix !== 'string')
    return bad('fault pathPrefix must be a string');
  if (rule.methods !== undefined && !(Array.isArray(rule.methods) && rule.methods.every((m) => typeof m === 'string')))
    return bad('fault methods must be a list of strings');
  if (
    rule.latencyMs !== undefined &&
    !(typeof rule.latencyMs === 'number' && rule.latencyMs >= 0 && rule.latencyMs <= 600_000)
  )
    return bad('fault latencyMs must be 0..600000');
  if (rule.times !== undefined && !(Number.isInteger(rule.times) && (rule.times as number) >= 0))
    return bad('fault times must be a whole number');
  if (rule.status === undefined && rule.latencyMs === undefined)
    return bad('a fault rule needs a status, a latencyMs, or both');
  return ok({
    ...(rule as FaultRule),
    ...(rule.methods ? { methods: rule.methods.map((m) => m.toUpperCase()) } : {}),
  });
}

function bad(message: string): Result<FaultRule, FaultRuleError> {
  return fail('BAD_FAULT_RULE', message);
}
