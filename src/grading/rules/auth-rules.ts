/** Rules about credentials: session tokens, digest nonces, `stale=true`, refused logins. */
import type { AuthRefusedEntry, HttpEntry } from '../../base/journal';
import { finding, formatMs, type GradingContext, groupBy, plural, type Rule } from '../grading-context';
import { remoteOf, type Timed } from '../journal-index';
import type { Finding } from '../report';

/** Codes that are part of a working exchange, or judged by a rule of their own. */
const NORMAL_OR_OWN_RULE = new Set(['NO_CREDENTIALS', 'STALE_NONCE', 'REJECTING', 'TOKEN_EXPIRED', 'TOKEN_REUSED']);
/** How close a 401 must come before a digest request to count as its first leg. */
const FIRST_LEG_MS = 2000;
/** Digest requests a client must make before its nonce habit is judged. */
const MIN_DIGEST_REQUESTS = 3;

/** `token-expired`: a token refused as expired, with the request that fetched it and its age. */
export const tokenExpired: Rule = (context) =>
  refusalsWith(context, 'TOKEN_EXPIRED').map(([refusals, device, remote]) => {
    const fetches = refusals.map((r) => lastTokenFetch(context, r));
    const ages = refusals.flatMap((r, i) => (fetches[i] ? [r.at - fetches[i].at] : []));
    const fetched = fetches.filter((f) => f !== undefined);
    const age = ages.length > 0 ? `, ${formatMs(Math.max(...ages))} after the token was fetched` : '';
    const message = `${plural(refusals.length, 'handshake')} used an expired session token${age}`;
    return finding('token-expired', device, context.index.client(remote), message, [...refusals, ...fetched]);
  });

/** `token-reused`: a token refused because it had been used already. */
export const tokenReused: Rule = (context) =>
  refusalsWith(context, 'TOKEN_REUSED').map(([refusals, device, remote]) =>
    finding(
      'token-reused',
      device,
      context.index.client(remote),
      `${plural(refusals.length, 'handshake')} used a session token that had opened a stream already`,
      refusals,
    ),
  );

/** `auth-failed`: refusals a working client never gets, one finding per client and code. */
export const authFailed: Rule = (context) => {
  const refused = context.index.ofKind('auth-refused').filter((r) => !NORMAL_OR_OWN_RULE.has(r.entry.code));
  const groups = groupBy(refused, (r) => `${r.entry.device} ${remoteOf(r.entry.remote)} ${r.entry.code}`);
  return [...groups.values()].map((group) => {
    const { device, remote, code, reason, user } = group[0].entry;
    const who = user === undefined ? '' : ` as "${user}"`;
    const message = `${plural(group.length, 'request')}${who} refused with ${code}: ${reason}`;
    return finding('auth-failed', device, context.index.client(remote), message, group);
  });
};

/** `stale-not-retried`: a `stale=true` 401 not followed by a successful retry of the same path in time. */
export const staleNotRetried: Rule = (context) => {
  const { thresholds, now } = context;
  const givenUp = context.index
    .ofKind('auth-refused')
    .filter((r) => r.entry.code === 'STALE_NONCE' && r.entry.stale)
    .filter((r) => now - r.at >= thresholds.staleRetryWithinMs)
    .filter((r) => !retried(context, r));
  return [...groupBy(givenUp, (r) => `${r.entry.device} ${remoteOf(r.entry.remote)}`).values()].map((group) => {
    const { device, remote } = group[0].entry;
    const message =
      `${plural(group.length, 'request')} answered 401 with stale=true ` +
      `${group.length === 1 ? 'was' : 'were'} not repeated within ${formatMs(thresholds.staleRetryWithinMs)}`;
    return finding('stale-not-retried', device, context.index.client(remote), message, group);
  });
};

/** `nonce-not-reused`: (nearly) every digest request of a client came right after a 401 for the same request. */
export const nonceNotReused: Rule = (context) => {
  const findings: Finding[] = [];
  const digest = context.index.ofKind('http').filter((h) => h.entry.auth === 'digest');
  for (const requests of groupBy(digest, (h) => `${h.entry.device} ${remoteOf(h.entry.remote)}`).values()) {
    if (requests.length < MIN_DIGEST_REQUESTS) continue;
    // Each 401 is the first leg of one request at most: a client reusing its nonce pays one.
    const taken = new Set<Timed<AuthRefusedEntry>>();
    const legs = requests.map((h) => {
      const leg = firstLeg(context, h, taken);
      if (leg) taken.add(leg);
      return leg;
    });
    const paid = legs.filter((leg) => leg !== undefined);
    if (paid.length < MIN_DIGEST_REQUESTS || paid.length < requests.length * 0.8) continue;
    const { device, remote } = requests[0].entry;
    const message = `${paid.length} of ${requests.length} digest requests were each preceded by a 401 round trip`;
    const evidence = requests.flatMap((h, i) => (legs[i] ? [legs[i], h] : []));
    findings.push(finding('nonce-not-reused', device, context.index.client(remote), message, evidence));
  }
  return findings;
};

/** Refusals with `code`, grouped by device and client: [refusals, device, remote]. */
function refusalsWith(context: GradingContext, code: string): [Timed<AuthRefusedEntry>[], string, string][] {
  const refused = context.index.ofKind('auth-refused').filter((r) => r.entry.code === code);
  return [...groupBy(refused, (r) => `${r.entry.device} ${remoteOf(r.entry.remote)}`).values()].map((group) => [
    group,
    group[0].entry.device,
    remoteOf(group[0].entry.remote),
  ]);
}

/** The client's last successful `wssession.cgi` request before `refusal`. */
function lastTokenFetch(context: GradingContext, refusal: Timed<AuthRefusedEntry>): Timed<HttpEntry> | undefined {
  const tokenPath = context.devices.get(refusal.entry.device)?.tokenPath;
  if (tokenPath === undefined) return undefined;
  let last: Timed<HttpEntry> | undefined;
  for (const h of context.index.ofKind('http')) {
    if (h.at > refusal.at) break;
    const { entry } = h;
    if (entry.device !== refusal.entry.device || entry.remote !== refusal.entry.remote) continue;
    if (pathOf(entry.path) === tokenPath && entry.status === 200) last = h;
  }
  return last;
}

/** Whether the request refused as stale was repeated with success in time. */
function retried(context: GradingContext, refusal: Timed<AuthRefusedEntry>): boolean {
  const { device, remote, path } = refusal.entry;
  const until = refusal.at + context.thresholds.staleRetryWithinMs;
  const stream = context.devices.get(device)?.streamPath;
  return context.index.entries.some(({ entry, at }) => {
    if (at < refusal.at || at > until || entry.device !== device) return false;
    if (entry.kind === 'ws-open') return entry.remote === remote && pathOf(path) === stream;
    return (
      entry.kind === 'http' &&
      entry.remote === remote &&
      pathOf(entry.path) === pathOf(path) &&
      (entry.status ?? 500) < 400
    );
  });
}

/** The NO_CREDENTIALS refusal of the same request just before `request`, if any. */
function firstLeg(
  context: GradingContext,
  request: Timed<HttpEntry>,
  taken: ReadonlySet<Timed<AuthRefusedEntry>>,
): Timed<AuthRefusedEntry> | undefined {
  const { device, remote, method, path } = request.entry;
  let leg: Timed<AuthRefusedEntry> | undefined;
  for (const r of context.index.ofKind('auth-refused')) {
    if (r.at > request.at) break;
    if (r.at < request.at - FIRST_LEG_MS || r.entry.code !== 'NO_CREDENTIALS' || taken.has(r)) continue;
    const e = r.entry;
    if (e.device === device && e.remote === remote && e.method === method && e.path === path) leg = r;
  }
  return leg;
}

/** A path without its query. */
export function pathOf(path: string): string {
  const q = path.indexOf('?');
  return q < 0 ? path : path.slice(0, q);
}
