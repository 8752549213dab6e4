/**
 * The cases of the one-mistake matrix (mistake-matrix.test.ts): each mistake client
 * (mistake-clients/mistake_client.py, the Python reference client with one behaviour changed),
 * the disturbance that brings its mistake out, the rule that must name it, and what shows that
 * the client really made it (so a case where nothing happened cannot pass). The correct client
 * runs under every disturbance used here too, and must get nothing.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { DEFAULT_THRESHOLDS } from '../../../src/grading/report';
import type { RuleId } from '../../../src/grading/rule-catalogue';
import type { FaultName } from '../../../src/protocol/fault-catalogue';
import { type CaseRun, count, notifications, reconnected, refusedWith, saw } from './reference-checks';
import type { ClientLine } from './reference-client';
import { STALL_WITHOUT_PINGS } from './reference-cases';
import { THRESHOLDS, VIRTUAL } from './reference-settings';

/**
 * The devices of the second emulator: a session token lives 1 s (15 s on the first), so that a
 * token fetched ahead of time expires within a case and an unused one is judged within it; and
 * 128 KiB may wait for a stream client (4 MiB on the first), as on a small device, so that a
 * storm overflows a reader that falls behind sooner (see the slow reader's known miss).
 */
export const SMALL_DEVICE = { tokenLifetimeMs: 1000, maxBufferedBytes: 128 * 1024 } as const;

/** What happens to a client once it has started: a device, and a fault (or nothing). */
export interface Disturbance {
  readonly name: string;
  /** Runs on the second emulator ({@link SMALL_DEVICE}). */
  readonly small?: boolean;
  /** The switch turned on once the client has configured. */
  readonly fault?: { readonly name: FaultName; readonly params: Record<string, unknown> };
  /** What the case does after the client has configured (and the switch is on). */
  readonly then?: (run: CaseRun) => Promise<void>;
  /** How long the disturbance lasts; the client runs SETTLE_MS (reference-settings.ts) more. */
  readonly lastsMs: number;
  /** Throws unless the correct client went through it. */
  readonly exercised: (run: CaseRun) => void;
}

/** One mistake client. */
export interface MistakeCase {
  /** The client's `--mistake`. */
  readonly mistake: string;
  /** The mistake in words (docs/grading.md lists it). */
  readonly what: string;
  readonly disturbance: Disturbance;
  /** The rule that names the mistake: it must have a warning or an error. */
  readonly rule: RuleId;
  /** Throws unless the client made its mistake. */
  readonly made: (run: CaseRun) => void;
  /**
   * Set when the rule does not name the mistake yet (reported to whoever owns the rules): the
   * case then asserts that it is still missed, so that a rule fixed makes this entry go.
   */
  readonly knownMiss?: string;
  /**
   * Set when the rule misses the mistake under a condition only (reported to whoever owns the
   * rules): a miss then passes when `holds` says the condition was met (it still counts against
   * the recall), and fails otherwise.
   */
  readonly missedWhen?: { readonly because: string; readonly holds: (run: CaseRun) => boolean };
}

/** The matrix's `minRetryIntervalMs`: retries closer than this (median) are "no back-off". */
const MIN_RETRY_INTERVAL_MS = THRESHOLDS.minRetryIntervalMs ?? DEFAULT_THRESHOLDS.minRetryIntervalMs;

/** The matrix's `minRetryRun`: refused attempts in a row before the back-off is judged. */
const MIN_RETRY_RUN = THRESHOLDS.minRetryRun ?? DEFAULT_THRESHOLDS.minRetryRun;

/** When the late drop comes after the client configured: once the token it fetched then has expired. */
const LATE_DROP_MS = SMALL_DEVICE.tokenLifetimeMs + 200;

/** Drops the client's session with a close frame (1011) once it has run longer than a small device's token life. */
const dropLate = async (run: CaseRun): Promise<void> => {
  await delay(LATE_DROP_MS); // real time: the client is another process
  await run.emulator.fault('drop', { mode: 'close', code: 1011 }, { device: run.serial });
};

/**
 * How long the reboot waits after the client configured: until every client has started. While
 * thirty interpreters start on two cores, one login attempt (two requests) takes ~100 ms, as long
 * as the matrix's shortened `minRetryIntervalMs`, and a client retrying at once looks backed off.
 */
const CALM_MS = 2000;

/** Reboots the device (400 ms down, logins refused for 1 s after) once the machine is calm. */
const rebootWhenCalm = async (run: CaseRun): Promise<void> => {
  await delay(CALM_MS); // real time: the clients are other processes
  await run.emulator.fault('reboot', { downMs: 400, refuseLoginsMs: 1000 }, { device: run.serial });
};

/** The disturbances the mistakes are played under. */
export const DISTURBANCES = {
  quiet: { name: 'no fault', lastsMs: 2000, exercised: (run) => reconfigured(run, 1) },
  drop: {
    name: 'drop (close 1011)',
    fault: { name: 'drop', params: { mode: 'close', code: 1011 } },
    lastsMs: 0,
    exercised: reconnected,
  },
  reboot: {
    name: 'reboot refusing logins',
    then: rebootWhenCalm,
    lastsMs: CALM_MS + 1000,
    exercised: (run) => {
      saw(run, 'be refused a login', count(run, 'http-error', (l) => l.status === 401) >= 1);
      reconnected(run);
    },
  },
  nonceExpiry: {
    name: 'digest nonce expiry (stale=true)',
    fault: { name: 'digest', params: { nonceLifetimeMs: 500 } },
    lastsMs: 1000,
    exercised: (run) => saw(run, 'meet expired nonces', refusedWith(run, 'STALE_NONCE', (e) => e.stale) >= 1),
  },
  stall: STALL_WITHOUT_PINGS,
  smallQuiet: { name: 'no fault, 1 s tokens', small: true, lastsMs: 2000, exercised: (run) => reconfigured(run, 1) },
  smallDropLate: {
    name: 'drop after 1.2 s, 1 s tokens',
    small: true,
    then: dropLate,
    lastsMs: LATE_DROP_MS,
    exercised: (run) => {
      saw(run, 'be closed with 1011', count(run, 'close', (l) => l.code === 1011) >= 1);
      reconnected(run);
    },
  },
  smallStorm: {
    name: 'storm 2,000/s, 128 KiB buffer',
    small: true,
    fault: { name: 'storm', params: { topic: VIRTUAL, ratePerSecond: 2000, forMs: 1000 } },
    lastsMs: 1000,
    exercised: (run) =>
      saw(run, 'receive all 2,000 storm events', count(run, 'notification', (l) => l.topic === VIRTUAL) >= 2000),
  },
} as const satisfies Record<string, Disturbance>;

/** The mistakes: the sixteen and more of the same kind. */
export const MISTAKE_CASES: readonly MistakeCase[] = [
  {
    mistake: 'token-fetched-early',
    what: 'a session token fetched ahead of time, used after it expired',
    disturbance: DISTURBANCES.smallDropLate,
    rule: 'token-expired',
    made: (run) => saw(run, 'connect with a token older than its life', connectsWithTokenOlderThan(run, 1) >= 1),
  },
  {
    mistake: 'token-kept',
    what: 'the first session token kept and used again to reconnect',
    disturbance: DISTURBANCES.drop,
    rule: 'token-reused',
    made: (run) =>
      saw(run, 'connect again with the one token it fetched', count(run, 'connect') >= 2 && count(run, 'token') === 1),
  },
  {
    mistake: 'wrong-password',
    what: 'a wrong password',
    disturbance: DISTURBANCES.quiet,
    rule: 'auth-failed',
    made: (run) => {
      saw(run, 'be refused (401) again and again', count(run, 'http-error', (l) => l.status === 401) >= 3);
      saw(run, 'never get a token', count(run, 'token') === 0);
    },
  },
  {
    mistake: 'stale-gives-up',
    what: 'a hand-written digest that takes `stale=true` for a wrong password and gives up',
    disturbance: DISTURBANCES.nonceExpiry,
    rule: 'stale-not-retried',
    made: (run) => {
      saw(run, 'be told stale=true', refusedWith(run, 'STALE_NONCE', (e) => e.stale) >= 1);
      saw(run, 'give up, taking it for a wrong password', count(run, 'login-failed') === 1);
    },
  },
  {
    mistake: 'new-digest-per-request',
    what: 'a new digest state for every request (never reuses a nonce)',
    disturbance: DISTURBANCES.quiet,
    rule: 'nonce-not-reused',
    made: (run) => {
      const firstLegs = refusedWith(run, 'NO_CREDENTIALS');
      saw(run, `pay a 401 for every request (${firstLegs} first legs)`, firstLegs >= count(run, 'poll') + 1);
      saw(run, 'poll listAll', count(run, 'poll') >= 3);
    },
  },
  {
    mistake: 'reconnect-tight-loop',
    what: 'reconnects at once, with no back-off',
    disturbance: DISTURBANCES.reboot,
    rule: 'reconnect-no-backoff',
    made: (run) => {
      saw(run, 'retry at once', count(run, 'backoff', (l) => l.what === 'stream' && l.ms === 0) >= 10);
      const refused = count(run, 'http-error', (l) => l.status === 401);
      saw(run, `be refused a login enough times to be judged (${refused})`, refused >= MIN_RETRY_RUN);
    },
    missedWhen: {
      because:
        "the rule measures the client's wait from the refusal that ended one attempt to its next; on a busy " +
        'machine even the refusals of a client that does not wait at all come minRetryIntervalMs apart',
      holds: (run) =>
        medianGap(run.client.events('http-error', (l) => l.status === 401)) * 1000 >= MIN_RETRY_INTERVAL_MS,
    },
  },
  {
    mistake: 'no-reconnect',
    what: 'no reconnect after the device closed the session',
    disturbance: DISTURBANCES.drop,
    rule: 'no-reconnect',
    made: (run) => {
      saw(run, 'be closed with 1011', count(run, 'close', (l) => l.code === 1011) === 1);
      saw(run, 'end its stream there', count(run, 'stream-over') === 1 && count(run, 'connect') === 1);
    },
  },
  {
    mistake: 'no-pings',
    what: 'no pings of its own, so a silent stream goes unnoticed',
    disturbance: DISTURBANCES.stall,
    rule: 'stall-undetected',
    made: (run) =>
      saw(
        run,
        'keep its one session through the stall',
        count(run, 'connect') === 1 && count(run, 'ping-timeout') === 0,
      ),
  },
  {
    mistake: 'configure-once',
    what: 'configures its first session only, not after a reconnect',
    disturbance: DISTURBANCES.drop,
    rule: 'configure-missing',
    made: (run) =>
      saw(
        run,
        'open a second session without configuring it',
        count(run, 'open') >= 2 && count(run, 'configure') === 1,
      ),
  },
  {
    mistake: 'topic-twice',
    what: 'the same topic in two filters',
    disturbance: DISTURBANCES.quiet,
    rule: 'duplicate-subscription',
    made: (run) => saw(run, 'send the Port filter twice', count(run, 'configure', (l) => l.filters === 4) >= 1),
  },
  {
    mistake: 'topic-typo',
    what: 'a misspelt topic',
    disturbance: DISTURBANCES.quiet,
    rule: 'filter-matches-nothing',
    made: (run) =>
      saw(
        run,
        'configure a misspelt topic',
        configuredFilters(run).some((f) => f.endsWith('/MotionAlarms')),
      ),
  },
  {
    mistake: 'filter-wildcard',
    what: 'a filter in a syntax the device refuses (a glob)',
    disturbance: DISTURBANCES.quiet,
    rule: 'invalid-filter',
    made: (run) => saw(run, 'be refused its configure', count(run, 'configure-error') >= 1),
  },
  {
    mistake: 'session-leak',
    what: 'a new session on a timer without closing the old one',
    disturbance: DISTURBANCES.quiet,
    rule: 'concurrent-sessions',
    made: (run) => saw(run, 'open three sessions without closing one', opensBeforeAClose(run) >= 3),
  },
  {
    mistake: 'slow-reader',
    what: 'a reader that sleeps on every event',
    disturbance: DISTURBANCES.smallStorm,
    rule: 'slow-consumer',
    made: (run) => saw(run, 'read the storm slowly (under 100 events a second)', stormReadRate(run) < 100),
    knownMiss:
      "the client's own ping times out (its pong waits behind the unread events) and it closes and reconnects, " +
      'losing the rest of the storm; the device never closes with 1013, as the loopback socket buffers (MBs) take ' +
      'the whole storm before its 128 KiB fill, and the device does not ping: nothing in the journal shows a slow reader',
  },
  {
    mistake: 'api-version-2',
    what: 'apiVersion "2.0", which the device does not support',
    disturbance: DISTURBANCES.quiet,
    rule: 'unsupported-api-version',
    made: (run) => {
      saw(run, 'be refused its configure (2100)', count(run, 'configure-error', (l) => l.code === 2100) >= 1);
      saw(run, 'be refused listAll (2100)', count(run, 'rpc-error', (l) => l.code === 2100) >= 1);
    },
  },
  {
    mistake: 'token-per-call',
    what: 'a session token fetched for every CGI call and never used',
    disturbance: DISTURBANCES.smallQuiet,
    rule: 'token-unused',
    made: (run) =>
      saw(run, 'fetch a token for every call', count(run, 'token') >= count(run, 'connect') + count(run, 'poll')),
  },
  {
    mistake: 'poll-50ms',
    what: '`listAll` every 50 ms',
    disturbance: DISTURBANCES.quiet,
    rule: 'polling',
    made: (run) => saw(run, 'poll listAll every 50 ms', medianGap(run.client.events('poll')) < 0.1),
  },
  {
    mistake: 'flag-string',
    what: 'a flag set to the string "true"',
    disturbance: DISTURBANCES.quiet,
    rule: 'rpc-error',
    made: (run) => saw(run, 'be refused its flag (2104)', count(run, 'rpc-error', (l) => l.code === 2104) === 1),
  },
  {
    mistake: 'configure-110kib',
    what: 'a 110 KiB `events:configure`',
    disturbance: DISTURBANCES.quiet,
    rule: 'message-refused',
    made: (run) =>
      saw(
        run,
        'send a configure over 64 KiB and be told (2107)',
        count(run, 'configure', (l) => l.filters === 888) >= 1 && run.client.lines.some((l) => l.code === 2107),
      ),
  },
  {
    mistake: 'refused-resent',
    what: 'a refused request sent again and again',
    disturbance: DISTURBANCES.quiet,
    rule: 'refused-repeated',
    made: (run) => saw(run, 'send the refused set again', count(run, 'rpc-error', (l) => l.what === 'enable') >= 4),
  },
];

/** The correct client configured at least `times` times. */
function reconfigured(run: CaseRun, times: number): void {
  saw(run, `configure ${times} time(s)`, count(run, 'configured') >= times);
}

/** The topic filters the device accepted from the client. */
function configuredFilters(run: CaseRun): string[] {
  return run
    .journal('configure')
    .flatMap((e) => (e.kind === 'configure' && !e.error ? e.filters.map((f) => f.topicFilter ?? '') : []));
}

/** Connects whose token (the client's last `token` line before it) was fetched more than `seconds` earlier. */
function connectsWithTokenOlderThan(run: CaseRun, seconds: number): number {
  let fetched: ClientLine | undefined;
  let old = 0;
  for (const line of run.client.lines) {
    if (line.event === 'token') fetched = line;
    else if (line.event === 'connect' && fetched && line.t - fetched.t > seconds) old++;
  }
  return old;
}

/** Sessions the device saw the client open before it saw one close. */
function opensBeforeAClose(run: CaseRun): number {
  const firstClose = run.journal('ws-close')[0]?.seq ?? Infinity;
  return run.journal('ws-open').filter((e) => e.seq < firstClose).length;
}

/** Storm events the client logged per second, between its first and its last (Infinity for fewer than ten). */
function stormReadRate(run: CaseRun): number {
  const storm = notifications(run).filter((l) => l.topic === VIRTUAL);
  if (storm.length < 10) return Infinity;
  return (storm.length - 1) / (storm[storm.length - 1].t - storm[0].t);
}

/** The median time between successive `lines`, in seconds (Infinity for fewer than ten). */
function medianGap(lines: readonly ClientLine[]): number {
  if (lines.length < 10) return Infinity;
  const gaps = lines.slice(1).map((line, i) => line.t - lines[i].t);
  return gaps.sort((a, b) => a - b)[Math.floor(gaps.length / 2)];
}
