/**
 * Rules about work the client makes the device do for nothing: one CGI method polled many times
 * a second, session tokens fetched and never used.
 */
import type { HttpEntry } from '../../base/journal';
import { finding, formatMs, type GradingContext, groupBy, plural, type Rule, type RuleTable } from '../grading-context';
import { remoteOf, type Timed } from '../journal-index';
import type { Finding } from '../report';
import { pathOf } from './auth-rules';
import { callOf } from './refusal-rules';

/** How long a `wssession.cgi` token is valid when the device's facts do not say: one younger may still be used. */
const TOKEN_LIFETIME_MS = 15_000;

/** `polling`: more than `pollingMaxRequests` requests to one CGI method from one client within `pollingWindowMs`. */
export const polling: Rule = (context) => {
  const { pollingWindowMs, pollingMaxRequests } = context.thresholds;
  const counted = context.index.ofKind('http').filter((h) => countsAsCall(context, h.entry));
  const findings: Finding[] = [];
  const groups = groupBy(counted, (h) => `${h.entry.device} ${remoteOf(h.entry.remote)} ${callOf(h.entry)}`);
  for (const calls of groups.values()) {
    const busiest = busiestWindow(calls, pollingWindowMs);
    if (busiest.length <= pollingMaxRequests) continue;
    const { device, remote } = calls[0].entry;
    const span = busiest[busiest.length - 1].at - busiest[0].at;
    const message =
      `${busiest.length} requests to ${callOf(calls[0].entry)} within ${formatMs(span)}, ` +
      `one every ${formatMs(span / (busiest.length - 1))} on average ` +
      `(at most ${pollingMaxRequests} per ${formatMs(pollingWindowMs)} expected; ${calls.length} in all)`;
    findings.push(finding('polling', device, context.index.client(remote), message, busiest));
  }
  return findings;
};

/**
 * `token-unused`: `wssession.cgi` tokens no handshake attempt of the client used, at least
 * `minUnusedTokens` of them. An attempt that names its token's number (a session opened, a
 * reused or expired token refused) used that one; any other (refused before the token was
 * looked at: during a reboot, no slot) the newest fetched before it and not used yet. A token
 * still valid now may yet be used.
 */
export const tokenUnused: Rule = (context) => {
  const findings: Finding[] = [];
  const steps = [...context.index.ofKind('http'), ...handshakes(context)].filter((t) => tokenStep(context, t));
  for (const group of groupBy(steps, (t) => `${t.entry.device} ${remoteOf(remoteOfStep(t))}`).values()) {
    group.sort((a, b) => a.entry.seq - b.entry.seq);
    const pending: Timed[] = [];
    let fetched = 0;
    for (const step of group) {
      if (tokenStep(context, step) === 'fetch') {
        pending.push(step);
        fetched++;
        continue;
      }
      const token = tokenOf(step);
      const used = token === undefined ? -1 : pending.findIndex((fetch) => tokenOf(fetch) === token);
      if (used >= 0) pending.splice(used, 1);
      else pending.pop();
    }
    const lifetime = context.devices.get(group[0].entry.device)?.tokenLifetimeMs ?? TOKEN_LIFETIME_MS;
    const unused = pending.filter((fetch) => context.now - fetch.at >= lifetime);
    if (unused.length < context.thresholds.minUnusedTokens) continue;
    const message = `${unused.length} of ${plural(fetched, 'session token')} fetched ${unused.length === 1 ? 'was' : 'were'} never used for a handshake`;
    const { device } = group[0].entry;
    findings.push(finding('token-unused', device, context.index.client(remoteOfStep(group[0])), message, unused));
  }
  return findings;
};

/** The rules of this file by the ids they find (../grade joins the files' tables). */
export const WASTE_RULES = {
  polling: polling,
  'token-unused': tokenUnused,
} satisfies RuleTable;

/**
 * Whether a request counts as a call: answered (one the client gave up on, as under a `cgi` delay,
 * is not), not a 401 (a digest first leg, a refused login), not a token fetch (`token-unused`).
 */
function countsAsCall(context: GradingContext, entry: HttpEntry): boolean {
  if (entry.status === undefined || entry.status === 401) return false;
  return !samePath(entry.path, context.devices.get(entry.device)?.tokenPath);
}

/** The most calls (oldest first) within any `windowMs` from one of them: two fingers over the times. */
function busiestWindow(calls: readonly Timed[], windowMs: number): readonly Timed[] {
  let best: [number, number] = [0, 0];
  let start = 0;
  for (let end = 0; end < calls.length; end++) {
    while (calls[end].at - calls[start].at >= windowMs && start < end) start++;
    if (end - start > best[1] - best[0]) best = [start, end];
  }
  return calls.slice(best[0], best[1] + 1);
}

/** The handshake attempts of every client: sessions opened and handshakes refused (for any reason). */
function handshakes(context: GradingContext): Timed[] {
  return [
    ...context.index.ofKind('ws-open'),
    ...context.index.ofKind('ws-refused'),
    ...context.index.ofKind('auth-refused'),
  ];
}

/** What an entry is to `token-unused`: a token fetched, a handshake attempt, or neither. */
function tokenStep(context: GradingContext, { entry }: Timed): 'fetch' | 'attempt' | undefined {
  const facts = context.devices.get(entry.device);
  if (!facts) return undefined;
  if (entry.kind === 'http') return entry.status === 200 && samePath(entry.path, facts.tokenPath) ? 'fetch' : undefined;
  if (entry.kind === 'ws-open' || entry.kind === 'ws-refused') return 'attempt';
  if (entry.kind === 'auth-refused') return samePath(entry.path, facts.streamPath) ? 'attempt' : undefined;
  return undefined;
}

/** The number of the session token an entry names (a fetch, a session opened, a token refused), if any. */
function tokenOf({ entry }: Timed): number | undefined {
  return 'token' in entry ? entry.token : undefined;
}

/** The address of the client that took a token step, when its entry names one. */
function remoteOfStep({ entry }: Timed): string | undefined {
  return 'remote' in entry ? entry.remote : undefined;
}

/** Whether a journaled path (with its query) is `route` as the device matches it (case-insensitive). */
function samePath(path: string, route: string | undefined): boolean {
  return route !== undefined && pathOf(path).toLowerCase() === route.toLowerCase();
}
