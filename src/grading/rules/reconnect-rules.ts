/** Rules about coming back: back-off between refused attempts, reconnecting, noticing a stall, configuring again. */
import type { AuthRefusedEntry, WsCloseEntry, WsRefusedEntry } from '../../base/journal';
import type { Finding } from '../report';
import { finding, formatMs, type GradingContext, groupBy, type Rule, type RuleTable } from '../grading-context';
import { configuredAt, openAt, refusedBy, remoteOf, type SessionRecord, type Timed } from '../journal-index';
import { pathOf } from './auth-rules';

/** Closes the test harness makes; not the device misbehaving. */
const HARNESS_REASONS = new Set(['reset by the emulator', 'device shutting down']);
/** A digest refusal this close after another of the same request is its re-send (one attempt). */
const SAME_ATTEMPT_MS = 1000;
/** Closes this close together are one episode (a device dropping every session at once). */
const EPISODE_MS = 1000;

/** `reconnect-no-backoff`: a run of refused attempts after which the client waited a median below the minimum. */
export const reconnectNoBackoff: Rule = (context) => {
  const findings: Finding[] = [];
  const { minRetryRun, minRetryIntervalMs } = context.thresholds;
  for (const attempts of attemptsByClient(context)) {
    for (const run of runsOf(context, attempts)) {
      if (run.length < minRetryRun) continue;
      // The client's waits: from the refusal that ended an attempt to the next attempt, so a
      // device slow to refuse does not make a loop that never waits look backed off.
      const intervals = run.slice(1).map((a, i) => a.at - run[i].endAt);
      const median = [...intervals].sort((a, b) => a - b)[Math.floor(intervals.length / 2)];
      if (median >= minRetryIntervalMs) continue;
      const { device, remote } = run[0].entry;
      const span = run[run.length - 1].at - run[0].at;
      const message =
        `${run.length} refused connection attempts in ${formatMs(span)}, a median ${formatMs(median)} apart ` +
        `(intervals ${intervals.map(formatMs).join(', ')}); expected at least ${formatMs(minRetryIntervalMs)}, growing`;
      findings.push(finding('reconnect-no-backoff', device, context.index.client(remote), message, run));
    }
  }
  return findings;
};

/** `no-reconnect` and `reconnect-slow`: after the device ended a client's sessions, when did it come back? */
export const reconnectAfterDrop: Rule = (context) => {
  const { reconnectWithinMs } = context.thresholds;
  const findings: Finding[] = [];
  for (const episode of dropEpisodes(context)) {
    const { device, remote, since, closes } = episode;
    if (since === undefined) continue; // a reboot still under way
    // Opened after the last close (by journal order: on one clock tick times are equal).
    const after = closes[closes.length - 1].entry.seq;
    const back = context.index.sessionsOf(device, remote).find((s) => s.open.entry.seq > after);
    const client = context.index.client(remote);
    const how = `${closes.length === 1 ? 'its session' : `its ${closes.length} sessions`} (${describeClose(closes)})`;
    if (back) {
      const took = back.open.at - since;
      if (took <= reconnectWithinMs) continue;
      const message = `came back ${formatMs(took)} after the device ended ${how}; expected within ${formatMs(reconnectWithinMs)}`;
      findings.push(finding('reconnect-slow', device, client, message, [...closes, back.open]));
    } else if (context.now - since >= reconnectWithinMs) {
      const message = `did not come back within ${formatMs(context.now - since)} after the device ended ${how}`;
      findings.push(finding('no-reconnect', device, client, message, closes));
    }
  }
  return findings;
};

/** `stall-undetected`: a stall with unanswered pings that a client with a session did not react to in time. */
export const stallUndetected: Rule = (context) => {
  const { stallDetectWithinMs } = context.thresholds;
  const findings: Finding[] = [];
  const faults = context.index.ofKind('fault').filter((f) => f.entry.name === 'stall');
  for (const on of faults.filter((f) => f.entry.state === 'on' && f.entry.params.pings === false)) {
    const off = faults.find((f) => f.at >= on.at && f.entry.device === on.entry.device && f.entry.state === 'off');
    const end = off?.at ?? context.now;
    if (end - on.at < stallDetectWithinMs) continue;
    const stalled = context.index.sessions.filter((s) => s.device === on.entry.device && openAt(s, on.at));
    for (const [remote, sessions] of groupBy(stalled, (s) => s.remote)) {
      const deadline = on.at + stallDetectWithinMs;
      const reacted = context.index
        .sessionsOf(on.entry.device, remote)
        .some(
          (s) =>
            (s.open.at > on.at && s.open.at <= deadline) ||
            (s.close?.entry.by === 'client' && s.close.at > on.at && s.close.at <= deadline),
        );
      if (reacted) continue;
      const message =
        `kept ${sessions.length === 1 ? 'its session' : `${sessions.length} sessions`} open for ` +
        `${formatMs(end - on.at)} while the device answered no ping; expected a reconnect within ${formatMs(stallDetectWithinMs)}`;
      const client = context.index.client(remote);
      findings.push(
        finding('stall-undetected', on.entry.device, client, message, [on, ...sessions.map((s) => s.open)]),
      );
    }
  }
  return findings;
};

/** `configure-missing`: sessions that lived past the configure window without a successful configure. */
export const configureMissing: Rule = (context) => {
  const { configureWithinMs } = context.thresholds;
  const findings: Finding[] = [];
  const missing = context.index.sessions.filter((s) => {
    // A configure sent while the device read nothing (a stall) counts from when it read again.
    const deadline = Math.max(s.open.at, s.heldUntil ?? s.open.at) + configureWithinMs;
    if (configuredAt(s, deadline)) return false;
    // The client did try, and was refused: invalid-filter or message-refused names the refusal.
    if (refusedBy(s, deadline)) return false;
    if (s.close && s.close.at <= deadline) return false;
    return context.now >= deadline;
  });
  for (const sessions of groupBy(missing, (s) => `${s.device} ${s.remote}`).values()) {
    const { device, remote } = sessions[0];
    const first = sessions[0].open.entry.seq;
    const earlier = context.index.sessionsOf(device, remote).filter((s) => s.open.entry.seq < first);
    const reconnect = earlier.some((s) => configuredAt(s) !== undefined);
    const message =
      `${sessions.length === 1 ? 'a session was' : `${sessions.length} sessions were`} not configured within ` +
      `${formatMs(configureWithinMs)} of opening${reconnect ? ' after a reconnect (the session before was configured)' : ''}`;
    const evidence = sessions.flatMap((s) => [s.open, ...(s.close ? [s.close] : [])]);
    findings.push(finding('configure-missing', device, context.index.client(remote), message, evidence));
  }
  return findings;
};

/** The rules of this file by the ids they find (../grade joins the files' tables). */
export const RECONNECT_RULES = {
  'reconnect-no-backoff': reconnectNoBackoff,
  'no-reconnect': reconnectAfterDrop,
  'reconnect-slow': reconnectAfterDrop,
  'stall-undetected': stallUndetected,
  'configure-missing': configureMissing,
} satisfies RuleTable;

/** A client's sessions ended by the device at about one time, and when the device was there again. */
interface DropEpisode {
  device: string;
  remote: string;
  closes: Timed<WsCloseEntry>[];
  /** When the client could have come back: the close, or the end of a reboot; undefined while it lasts. */
  since: number | undefined;
}

function dropEpisodes(context: GradingContext): DropEpisode[] {
  const episodes: DropEpisode[] = [];
  const dropped = context.index.sessions.filter(
    (s) => s.close?.entry.by === 'device' && !HARNESS_REASONS.has(s.close.entry.reason),
  );
  for (const sessions of groupBy(dropped, (s) => `${s.device} ${s.remote}`).values()) {
    let current: DropEpisode | undefined;
    const closed = sessions.map((s) => ({ s, close: s.close as Timed<WsCloseEntry> }));
    for (const { s, close } of closed.sort((a, b) => a.close.entry.seq - b.close.entry.seq)) {
      // A client that still has another session is not cut off.
      if (stillConnected(context, s, close)) continue;
      if (current && close.at - current.closes[current.closes.length - 1].at <= EPISODE_MS) {
        current.closes.push(close);
        continue;
      }
      current = { device: s.device, remote: s.remote, closes: [close], since: backAt(context, s.device, close.at) };
      episodes.push(current);
    }
  }
  return episodes;
}

/** Whether the client had another session, opened before `close` and open past the episode. */
function stillConnected(context: GradingContext, session: SessionRecord, close: Timed<WsCloseEntry>): boolean {
  return context.index
    .sessionsOf(session.device, session.remote)
    .some(
      (s) =>
        s !== session &&
        s.open.entry.seq < close.entry.seq &&
        (s.close === undefined || s.close.at > close.at + EPISODE_MS),
    );
}

/** When the device could be reached again after a close at `at`: the end of a reboot under way, else `at`. */
function backAt(context: GradingContext, device: string, at: number): number | undefined {
  const reboots = context.index.ofKind('fault').filter((f) => f.entry.device === device && f.entry.name === 'reboot');
  const start = reboots.filter((f) => f.entry.state === 'start' && f.at <= at + EPISODE_MS).pop();
  if (!start) return at;
  const end = reboots.find((f) => f.entry.state === 'end' && f.at >= start.at);
  if (end && end.at < at) return at;
  return end?.at;
}

function describeClose(closes: readonly Timed<WsCloseEntry>[]): string {
  const { code, reason } = closes[0].entry;
  return `close code ${code}${reason ? `, "${reason}"` : ''}`;
}

/**
 * A refused connection attempt (a handshake or a token fetch): its first refusal, and when its
 * last one (the HTTP library's re-send) was answered, from which the client's wait counts.
 */
interface Attempt extends Timed<AuthRefusedEntry | WsRefusedEntry> {
  endAt: number;
}

/** Refused handshakes and token fetches, one per attempt, oldest first, per device and client. */
function attemptsByClient(context: GradingContext): Attempt[][] {
  const attempts = context.index.entries.filter((t): t is Timed<AuthRefusedEntry | WsRefusedEntry> => {
    const { entry } = t;
    if (entry.kind === 'ws-refused') return true;
    if (entry.kind !== 'auth-refused' || entry.code === 'NO_CREDENTIALS') return false;
    const facts = context.devices.get(entry.device);
    const path = pathOf(entry.path);
    return path === facts?.streamPath || path === facts?.tokenPath;
  });
  return [...groupBy(attempts, (t) => `${t.entry.device} ${remoteOf(t.entry.remote)}`).values()].map(mergeLegs);
}

/**
 * The attempts in a client's refusals: an HTTP client answers a 401 by sending the same request
 * once more with digest credentials for the new challenge (Python requests, curl, urllib), so
 * a refusal and a digest re-send of the same method and path right after it are one attempt,
 * which ends with the re-send's refusal (a token handshake answers no challenge: each is an
 * attempt). A re-send is never the start of another pair: two refusals per attempt at most.
 */
function mergeLegs(list: readonly Timed<AuthRefusedEntry | WsRefusedEntry>[]): Attempt[] {
  const merged: Attempt[] = [];
  let open: { first: Timed<AuthRefusedEntry | WsRefusedEntry>; attempt: Attempt } | undefined;
  for (const t of list) {
    if (open && isResend(open.first, t)) {
      open.attempt.endAt = t.at;
      open = undefined;
      continue;
    }
    const attempt: Attempt = { entry: t.entry, at: t.at, endAt: t.at };
    merged.push(attempt);
    open = { first: t, attempt };
  }
  return merged;
}

/** Whether `next` is the re-send of `first` with credentials (see {@link mergeLegs}). */
function isResend(
  first: Timed<AuthRefusedEntry | WsRefusedEntry>,
  next: Timed<AuthRefusedEntry | WsRefusedEntry>,
): boolean {
  const a = first.entry;
  const b = next.entry;
  if (a.kind !== 'auth-refused' || b.kind !== 'auth-refused' || b.scheme !== 'digest') return false;
  return next.at - first.at <= SAME_ATTEMPT_MS && a.method === b.method && pathOf(a.path) === pathOf(b.path);
}

/** Splits a client's attempts (all of one device and client) where a session opened in between. */
function runsOf(context: GradingContext, attempts: readonly Attempt[]): Attempt[][] {
  const { device, remote } = attempts[0].entry;
  const opens = context.index.sessionsOf(device, remoteOf(remote)).map((s) => s.open.entry.seq);
  const runs: Attempt[][] = [];
  let run: Attempt[] = [];
  for (const attempt of attempts) {
    const previous = run[run.length - 1];
    if (previous && opens.some((seq) => seq > previous.entry.seq && seq < attempt.entry.seq)) {
      runs.push(run);
      run = [];
    }
    run.push(attempt);
  }
  if (run.length > 0) runs.push(run);
  return runs;
}
