/** Rules about credentials: session tokens, digest nonces, `stale=true`, refused logins. */
import type { AuthRefusedEntry, HttpEntry, WsOpenEntry } from '../../base/journal';
import type { RefusalCode } from '../../base/refusal-codes';
import { finding, formatMs, type GradingContext, groupBy, plural, type Rule, type RuleTable } from '../grading-context';
import { lastBefore, positionOf, remoteOf, type Timed } from '../journal-index';
import type { Finding } from '../report';

/** Codes that are part of a working exchange, or judged by a rule of their own. */
const NORMAL_OR_OWN_RULE: ReadonlySet<RefusalCode> = new Set<RefusalCode>([
  'NO_CREDENTIALS',
  'STALE_NONCE',
  'REJECTING',
  'TOKEN_EXPIRED',
  'TOKEN_REUSED',
]);
/** Refusals of a try whose credentials were right, or not looked at: the try answered the challenge. */
const NO_FAULT_OF_CREDENTIALS: ReadonlySet<RefusalCode> = new Set<RefusalCode>(['STALE_NONCE', 'REJECTING']);
/** How close a 401 must come before a digest request to count as its first leg. */
const FIRST_LEG_MS = 2000;
/** Digest requests a client must make before its nonce habit is judged. */
const MIN_DIGEST_REQUESTS = 3;

/** `token-expired`: a token refused as expired, with the request that fetched it and its age. */
export const tokenExpired: Rule = (context) =>
  refusalsWith(context, 'TOKEN_EXPIRED').map(([refusals, device, remote]) => {
    const tokens = tokenEntries(context, device);
    const tokenFetches = tokenFetchesOf(context, device, refusals[0].entry.remote);
    const fetches = refusals.map((r) => tokens.fetch(r.entry.token) ?? lastBefore(tokenFetches, r.entry.seq));
    const ages = refusals.flatMap((r, i) => (fetches[i] ? [r.at - fetches[i].at] : []));
    const fetched = fetches.filter((f) => f !== undefined);
    const oldest = ages.reduce((a, b) => Math.max(a, b), Number.NEGATIVE_INFINITY);
    const age = ages.length > 0 ? `, ${formatMs(oldest)} after the token was fetched` : '';
    const message = `${plural(refusals.length, 'handshake')} used an expired session token${age}`;
    return finding('token-expired', device, context.index.client(remote), message, [...refusals, ...fetched]);
  });

/** `token-reused`: a token refused because it had been used already, with its fetch and its first use. */
export const tokenReused: Rule = (context) =>
  refusalsWith(context, 'TOKEN_REUSED').map(([refusals, device, remote]) => {
    const tokens = tokenEntries(context, device);
    const firstUses = refusals.flatMap((r) => [tokens.fetch(r.entry.token), tokens.use(r.entry.token)]);
    const linked = firstUses.filter((e) => e !== undefined);
    const opened = refusals.filter((r) => tokens.use(r.entry.token) !== undefined);
    const first = opened[0] && tokens.use(opened[0].entry.token);
    const how = first ? ` (first: session ${first.entry.session})` : '';
    return finding(
      'token-reused',
      device,
      context.index.client(remote),
      `${plural(refusals.length, 'handshake')} used a session token that had opened a stream already${how}`,
      [...refusals, ...linked],
    );
  });

/**
 * `token-altered`: a handshake refused with a token the device does not know that is one it
 * issued sent back altered (the device names the issued one: `token` on a TOKEN_UNKNOWN
 * refusal, how in its reason), with the fetch of that token.
 */
export const tokenAltered: Rule = (context) =>
  refusalsWith(context, 'TOKEN_UNKNOWN').flatMap(([unknown, device, remote]) => {
    const refusals = unknown.filter((r) => r.entry.token !== undefined);
    if (refusals.length === 0) return [];
    const tokens = tokenEntries(context, device);
    const fetched = refusals.map((r) => tokens.fetch(r.entry.token)).filter((e) => e !== undefined);
    const how = [...new Set(refusals.map((r) => r.entry.reason.replace(/^.*? sent back /, '')))].join('; ');
    const message = `${plural(refusals.length, 'handshake')} sent back a session token the device issued, altered: ${how}`;
    return [finding('token-altered', device, context.index.client(remote), message, [...refusals, ...fetched])];
  });

/**
 * The journal's entries of each session token of `device` by its number: the `wssession.cgi`
 * answer that fetched it and the session it opened.
 */
function tokenEntries(
  context: GradingContext,
  device: string,
): {
  fetch(token: number | undefined): Timed<HttpEntry> | undefined;
  use(token: number | undefined): Timed<WsOpenEntry> | undefined;
} {
  const fetches = new Map<number, Timed<HttpEntry>>();
  const uses = new Map<number, Timed<WsOpenEntry>>();
  for (const h of context.index.ofKind('http'))
    if (h.entry.device === device && h.entry.token !== undefined) fetches.set(h.entry.token, h);
  for (const o of context.index.ofKind('ws-open'))
    if (o.entry.device === device && o.entry.token !== undefined) uses.set(o.entry.token, o);
  return {
    fetch: (token) => (token === undefined ? undefined : fetches.get(token)),
    use: (token) => (token === undefined ? undefined : uses.get(token)),
  };
}

/**
 * `auth-failed` and `auth-recovered`: refusals a working client never gets, one finding per client
 * and code; `auth-recovered` where the next try of the request got past the credentials in time.
 * One rule function for both ids, so the refusals are split once per report.
 */
export const authFailedOrRecovered: Rule = (context) => {
  const { failed, recovered } = credentialRefusals(context);
  return [
    ...byClientAndCode(failed).map((group) => {
      const { device, remote, code, reason, user } = group[0].entry;
      const who = user === undefined ? '' : ` as "${user}"`;
      const message = `${plural(group.length, 'request')}${who} refused with ${code}: ${reason}`;
      return finding('auth-failed', device, context.index.client(remote), message, group);
    }),
    ...byClientAndCode(recovered).map((group) => {
      const { device, remote, code } = group[0].entry;
      const message =
        `${plural(group.length, 'request')} refused with ${code} ${group.length === 1 ? 'was' : 'were'} ` +
        `tried again and got past the credentials within ${formatMs(context.thresholds.recoverWithinMs)}`;
      return finding('auth-recovered', device, context.index.client(remote), message, group);
    }),
  ];
};

/**
 * The refusals a working client never gets, split by what came next: `recovered` when the
 * client's next try of the same request (same method and path; for the event stream, its next
 * handshake) got past the credentials, or was refused for something no credentials pass (logins
 * refused during a reboot, a stale nonce), within the recover window.
 * That is how an HTTP library answers a nonce the device no longer knows (after a reboot, or in
 * a new emulator process): it takes the new challenge and sends the request again.
 */
function credentialRefusals(context: GradingContext): {
  failed: Timed<AuthRefusedEntry>[];
  recovered: Timed<AuthRefusedEntry>[];
} {
  const failed: Timed<AuthRefusedEntry>[] = [];
  const recovered: Timed<AuthRefusedEntry>[] = [];
  const tries = triesByRequest(context);
  for (const refusal of context.index.ofKind('auth-refused')) {
    if (NORMAL_OR_OWN_RULE.has(refusal.entry.code)) continue;
    const list = tries.get(tryKey(refusal.entry)) ?? [];
    const next = list[positionOf(list, refusal.entry.seq + 1)];
    // Not judged while the client still has time to try again.
    if (next === undefined && !context.clientStopped && context.now - refusal.at < context.thresholds.recoverWithinMs)
      continue;
    const gotPast =
      next !== undefined &&
      next.at - refusal.at <= context.thresholds.recoverWithinMs &&
      (next.entry.kind !== 'auth-refused' || NO_FAULT_OF_CREDENTIALS.has(next.entry.code));
    (gotPast ? recovered : failed).push(refusal);
  }
  return { failed, recovered };
}

/**
 * Every try of each request (by {@link tryKey}), oldest first: its refusals, its answers
 * past the credentials (`http` entries other than the 401 and 429 of a refusal) and, for the
 * event stream path, the sessions opened.
 */
function triesByRequest(context: GradingContext): Map<string, Timed[]> {
  const tries = context.index.entries.filter(({ entry }) => {
    // A request sent without credentials starts a try over: its digest leg is the try.
    if (entry.kind === 'auth-refused') return entry.code !== 'NO_CREDENTIALS';
    if (entry.kind === 'ws-open') return true;
    return entry.kind === 'http' && entry.status !== 401 && entry.status !== 429;
  });
  return groupBy(tries, ({ entry }) =>
    entry.kind === 'ws-open'
      ? tryKey({ device: entry.device, remote: entry.remote, method: 'GET', path: streamPathOf(context, entry.device) })
      : tryKey(entry as HttpEntry | AuthRefusedEntry),
  );
}

/** Refusals grouped per device, client and code, first-seen order. */
function byClientAndCode(refusals: readonly Timed<AuthRefusedEntry>[]): Timed<AuthRefusedEntry>[][] {
  return [...groupBy(refusals, (r) => `${r.entry.device} ${remoteOf(r.entry.remote)} ${r.entry.code}`).values()];
}

/** `stale-not-retried`: a `stale=true` 401 not followed by a successful retry of the same path in time. */
export const staleNotRetried: Rule = (context) => {
  const { thresholds, now } = context;
  const givenUp = context.index
    .ofKind('auth-refused')
    .filter((r) => r.entry.code === 'STALE_NONCE' && r.entry.stale)
    .filter((r) => context.clientStopped || now - r.at >= thresholds.staleRetryWithinMs)
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
  const legsOf = groupBy(
    context.index.ofKind('auth-refused').filter((r) => r.entry.code === 'NO_CREDENTIALS'),
    (r) => requestKey(r.entry),
  );
  for (const requests of groupBy(digest, (h) => `${h.entry.device} ${remoteOf(h.entry.remote)}`).values()) {
    if (requests.length < MIN_DIGEST_REQUESTS) continue;
    // Each 401 is the first leg of one request at most: a client reusing its nonce pays one.
    const taken = new Set<Timed<AuthRefusedEntry>>();
    const legs = requests.map((h) => {
      const leg = firstLeg(legsOf.get(requestKey(h.entry)) ?? [], h, taken);
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

/** The rules of this file by the ids they find (../grade joins the files' tables). */
export const AUTH_RULES = {
  'token-expired': tokenExpired,
  'token-reused': tokenReused,
  'token-altered': tokenAltered,
  'auth-failed': authFailedOrRecovered,
  'auth-recovered': authFailedOrRecovered,
  'stale-not-retried': staleNotRetried,
  'nonce-not-reused': nonceNotReused,
} satisfies RuleTable;

/** Refusals with `code`, grouped by device and client: [refusals, device, remote]. */
function refusalsWith(context: GradingContext, code: RefusalCode): [Timed<AuthRefusedEntry>[], string, string][] {
  const refused = context.index.ofKind('auth-refused').filter((r) => r.entry.code === code);
  return [...groupBy(refused, (r) => `${r.entry.device} ${remoteOf(r.entry.remote)}`).values()].map((group) => [
    group,
    group[0].entry.device,
    remoteOf(group[0].entry.remote),
  ]);
}

/** The client's successful `wssession.cgi` requests on `device`, oldest first. */
function tokenFetchesOf(context: GradingContext, device: string, remote: string | undefined): Timed<HttpEntry>[] {
  const tokenPath = context.devices.get(device)?.tokenPath;
  return context.index
    .ofKind('http')
    .filter(
      ({ entry: e }) => e.device === device && e.remote === remote && e.status === 200 && pathOf(e.path) === tokenPath,
    );
}

/** Whether the request refused as stale was repeated with success in time. */
function retried(context: GradingContext, refusal: Timed<AuthRefusedEntry>): boolean {
  const { device, remote, path } = refusal.entry;
  const until = refusal.at + context.thresholds.staleRetryWithinMs;
  const stream = context.devices.get(device)?.streamPath;
  const { entries } = context.index;
  for (let i = positionOf(entries, refusal.entry.seq); i < entries.length && entries[i].at <= until; i++) {
    const { entry } = entries[i];
    if (entry.device !== device || !('remote' in entry) || entry.remote !== remote) continue;
    if (entry.kind === 'ws-open' && pathOf(path) === stream) return true;
    if (entry.kind === 'http' && pathOf(entry.path) === pathOf(path) && (entry.status ?? 500) < 400) return true;
  }
  return false;
}

/**
 * The NO_CREDENTIALS refusal of the same request (`legs`: those of its device, client, method
 * and path, oldest first) just before `request` and not taken by another one, if any.
 */
function firstLeg(
  legs: readonly Timed<AuthRefusedEntry>[],
  request: Timed<HttpEntry>,
  taken: ReadonlySet<Timed<AuthRefusedEntry>>,
): Timed<AuthRefusedEntry> | undefined {
  for (let i = positionOf(legs, request.entry.seq) - 1; i >= 0 && legs[i].at >= request.at - FIRST_LEG_MS; i--)
    if (!taken.has(legs[i])) return legs[i];
  return undefined;
}

/** What makes two tries one request's: device, client, method and path without its query (a token, a nonce). */
function tryKey(e: { device: string; remote: string | undefined; method: string; path: string }): string {
  return `${e.device} ${remoteOf(e.remote)} ${e.method} ${pathOf(e.path)}`;
}

/** The event stream path of `device` (none known: a path no request has). */
function streamPathOf(context: GradingContext, device: string): string {
  return context.devices.get(device)?.streamPath ?? '\u0000';
}

/** What makes two requests the same request: device, client, method and path. */
function requestKey(e: { device: string; remote: string | undefined; method: string; path: string }): string {
  return `${e.device} ${remoteOf(e.remote)} ${e.method} ${e.path}`;
}

/** A path without its query. */
export function pathOf(path: string): string {
  const q = path.indexOf('?');
  return q < 0 ? path : path.slice(0, q);
}
