/**
 * When and how long the body worn system waits before it tries a request again: a
 * busy answer (503, 429), a server error (500, which stock Swift clients retry too) or
 * no answer at all (a network error) is retried with
 * exponential back-off and full jitter, never sooner than the answer's `Retry-After`,
 * for as long as the request's time budget lasts. The budget is time, not tries: a
 * stock Swift answers 503 for about a minute after an object server restarts, and a
 * real body worn system keeps a recording until the destination has it. Pure: the
 * clock and the random numbers come in as arguments.
 */
import { MAX_DURATION_MS } from '../base/duration';
import { wholeNumberOption } from '../base/option-checks';

/** How failed requests are retried. */
export interface RetryPolicy {
  /** Time one request may take in all, in ms from its first try (default 120 000); no try starts after it. */
  budgetMs: number;
  /** An optional cap on the tries of one request, the first included; without one the budget alone decides. */
  attempts?: number;
  /** Back-off before the first retry in ms (default 500), doubled each time. */
  baseMs: number;
  /** Longest back-off in ms (default 10 000); a longer `Retry-After` is still obeyed. */
  maxMs: number;
}

/** The default retry policy: two minutes per request, which outlasts a stock Swift's minute of 503s. */
export const DEFAULT_RETRY: Readonly<RetryPolicy> = Object.freeze({ budgetMs: 120_000, baseMs: 500, maxMs: 10_000 });

/** The most tries of one request a cap (`attempts`) may allow. */
export const MAX_ATTEMPTS = 1_000_000;

/**
 * Answers that mean "not now": retried like a network error. 500 is one too: a Swift
 * proxy answers it for a backend that failed this once, and python-swiftclient and
 * rclone retry it. Any other answer is final.
 */
export const RETRIED_STATUSES: readonly number[] = [429, 500, 503];

/** What the client does after a failed try: wait and try again (how long and why), or give up (why). */
export type RetryDecision = { action: 'retry'; waitMs: number; reason: string } | { action: 'give up'; reason: string };

/** A try that failed, as the decision needs it. */
export interface FailedTry {
  /** Its number; 1 for the first. */
  attempt: number;
  /** ms from the start of the first try to the end of this one. */
  elapsedMs: number;
  /** What happened, for the reason: `503`, or the network error. */
  failure: string;
  /** What the answer's `Retry-After` asked for, in ms (see `parseRetryAfter`). */
  retryAfterMs?: number;
}

/** `partial` over the defaults, each value checked (`BAD_OPTION` names a bad one). */
export function retryPolicy(partial: Partial<RetryPolicy> = {}): RetryPolicy {
  const policy = { ...DEFAULT_RETRY, ...withoutUndefined(partial) };
  wholeNumberOption('retry.budgetMs', policy.budgetMs, 0, MAX_DURATION_MS);
  wholeNumberOption('retry.baseMs', policy.baseMs, 0, MAX_DURATION_MS);
  wholeNumberOption('retry.maxMs', policy.maxMs, 0, MAX_DURATION_MS);
  if (policy.attempts !== undefined) wholeNumberOption('retry.attempts', policy.attempts, 1, MAX_ATTEMPTS);
  return policy;
}

/**
 * Retry after `max(back-off, Retry-After)`, cut to what is left of the budget, so
 * the last try starts when the budget ends; give up when the budget is spent or the
 * tries reach the cap. The back-off is full jitter: a random share of
 * `min(maxMs, baseMs * 2^(attempt-1))`, which spreads clients apart.
 */
export function decideRetry(policy: RetryPolicy, failed: FailedTry, random: () => number): RetryDecision {
  const tries = `${failed.attempt} ${failed.attempt === 1 ? 'try' : 'tries'} in ${seconds(failed.elapsedMs)}`;
  if (policy.attempts !== undefined && failed.attempt >= policy.attempts)
    return { action: 'give up', reason: `${failed.failure}; ${tries}, the most allowed (${policy.attempts})` };
  const left = policy.budgetMs - failed.elapsedMs;
  if (left <= 0)
    return {
      action: 'give up',
      reason: `${failed.failure}; ${tries}: the retry budget of ${seconds(policy.budgetMs)} is spent`,
    };
  const cap = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.min(failed.attempt - 1, 52));
  const backoff = Math.round(random() * cap);
  const asked = failed.retryAfterMs ?? 0;
  const wanted = Math.max(backoff, asked);
  const waitMs = Math.min(wanted, left);
  const why =
    asked >= backoff && failed.retryAfterMs !== undefined
      ? `Retry-After ${seconds(asked)}`
      : `back-off ${backoff} ms of at most ${cap} ms`;
  const cut = waitMs < wanted ? `, cut to the ${seconds(left)} left of the retry budget` : '';
  return { action: 'retry', waitMs, reason: `${failed.failure}; ${why}${cut}` };
}

/** `1.5 s`: one decimal, as people read waits. */
function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** The keys whose value is not undefined, so `{ attempts: undefined }` does not hide a default. */
function withoutUndefined(partial: Partial<RetryPolicy>): Partial<RetryPolicy> {
  return Object.fromEntries(Object.entries(partial).filter(([, v]) => v !== undefined));
}
