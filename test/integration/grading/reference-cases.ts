/**
 * The cases of the reference-client matrix (reference-matrix.test.ts): every fault switch a
 * client can meet and every scenario step that disturbs clients, and for each what shows that
 * the client really went through it (so a case that disturbs nothing cannot pass).
 */
import type { GradingReport } from '../../../src/grading/report';
import type { FaultName } from '../../../src/protocol/fault-catalogue';
import type { ACTION_KEYS } from '../../../src/scenario/schema';
import { until } from '../../helpers/until';
import {
  type CaseRun,
  count,
  notifications,
  notifiedAfter,
  openThrough,
  otherClient,
  reconnected,
  refusedWith,
  saw,
} from './reference-checks';
import { MOTION, PORT, VIRTUAL } from './reference-settings';

/** A scenario action (`disconnect`, `fault`, ...). */
export type ActionKey = (typeof ACTION_KEYS)[number];

/** One case of the matrix. */
export interface MatrixCase {
  readonly name: string;
  /** The switch turned on once the client has configured, with its parameters. */
  readonly fault?: { readonly name: FaultName; readonly params: Record<string, unknown> };
  /** Steps (YAML flow maps) added to the device's scenario, played from when the client has configured. */
  readonly steps?: readonly string[];
  /** Runs on an HTTPS device (the clients trust its certificate). */
  readonly tls?: boolean;
  /** What the case does after the switch is on, e.g. a drop that makes the client reconnect under it. */
  readonly then?: (run: CaseRun) => Promise<void>;
  /** How long the disturbance lasts from its start; the client runs SETTLE_MS (reference-settings.ts) more. */
  readonly lastsMs?: number;
  /** Throws unless the client went through the case. */
  readonly exercised: (run: CaseRun, report: GradingReport) => void;
}

/** Fault switches without a matrix case, each with the reason. */
export const EXEMPT_FAULTS: Partial<Record<FaultName, string>> = {};

/** Scenario actions that disturb no client (no case needed), each with the reason. */
export const UNDISTURBING_ACTIONS: Partial<Record<ActionKey, string>> = {
  emit: 'publishes an event: every case has the base scenario emitting (the storm and flap cases at rates)',
  set: 'changes a state: the base scenario toggles the Port state throughout every case',
  'set-flag': 'changes a feature flag, which the clients only read (listAll): no session or login is touched',
  pause: 'only moves the timeline cursor',
  run: 'plays a group of steps (the base scenario does); what the steps do is covered by their own keys',
  steps: 'plays inline steps; what the steps do is covered by their own keys',
};

/** Drops the client's session so that it reconnects under the switch that is on. */
const dropAfter = async (run: CaseRun): Promise<void> => {
  await run.emulator.fault('drop', { mode: 'close', code: 1001, reason: 'going away' }, { device: run.serial });
};

/** A stall without pings, which a client must notice and reconnect from: a disturbance of the mistake matrix too. */
export const STALL_WITHOUT_PINGS = {
  name: 'stall without pings',
  fault: { name: 'stall', params: { pings: false, forMs: 7500 } },
  lastsMs: 7500,
  exercised: (run: CaseRun) => {
    saw(run, 'notice the unanswered pings', count(run, 'ping-timeout') >= 1);
    reconnected(run);
  },
} as const satisfies MatrixCase;

/** The cases, in catalogue order, then the scenario steps. */

export const MATRIX_CASES: readonly MatrixCase[] = [
  {
    name: 'no fault',
    exercised: (run) => {
      saw(run, 'configure', count(run, 'configured') >= 1);
      saw(run, 'receive notifications', count(run, 'notification') >= 5);
      saw(run, 'poll listAll', count(run, 'poll', (l) => l.what === 'listAll') >= 3);
    },
  },
  {
    name: 'stall with pings',
    fault: { name: 'stall', params: { pings: true, forMs: 2000 } },
    lastsMs: 2000,
    exercised: (run) => {
      saw(run, 'keep a session through the stall', openThrough(run, 'stall'));
      saw(run, 'get notifications again after the stall', notifiedAfter(run, 'stall', 'off'));
    },
  },
  STALL_WITHOUT_PINGS,
  {
    name: 'drop (reset)',
    fault: { name: 'drop', params: { mode: 'reset' } },
    exercised: reconnected,
  },
  {
    name: 'drop (close 1011)',
    fault: { name: 'drop', params: { mode: 'close', code: 1011 } },
    exercised: (run) => {
      saw(run, 'be closed with 1011', count(run, 'close', (l) => l.code === 1011) >= 1);
      reconnected(run);
    },
  },
  {
    name: 'reboot',
    fault: { name: 'reboot', params: { downMs: 400 } },
    exercised: (run) => {
      saw(run, 'meet the device down', count(run, 'error') >= 1);
      reconnected(run);
    },
  },
  {
    name: 'reboot refusing logins',
    // Logins refused for longer than the clients' back-off cap (1.2 s) and a slow request, so that
    // a client meets a refusal however late a loaded machine makes its tries.
    fault: { name: 'reboot', params: { downMs: 400, refuseLoginsMs: 1800 } },
    lastsMs: 1800,
    exercised: (run) => {
      saw(run, 'be refused a login', count(run, 'http-error', (l) => l.status === 401) >= 1);
      reconnected(run);
    },
  },
  {
    name: 'digest nonce expiry (stale=true)',
    fault: { name: 'digest', params: { nonceLifetimeMs: 500 } },
    then: dropAfter,
    exercised: (run) => {
      saw(run, 'meet expired nonces', refusedWith(run, 'STALE_NONCE', (e) => e.stale) >= 1);
      reconnected(run);
    },
  },
  {
    name: 'digest nonce expiry (no stale)',
    fault: { name: 'digest', params: { nonceLifetimeMs: 500, stale: false } },
    then: dropAfter,
    exercised: (run) => {
      saw(run, 'meet expired nonces without stale=true', refusedWith(run, 'STALE_NONCE', (e) => !e.stale) >= 1);
      reconnected(run);
    },
  },
  {
    name: 'digest nonce once',
    fault: { name: 'digest', params: { nonceOnce: true } },
    then: dropAfter,
    exercised: (run) => {
      saw(run, 'meet used nonces', refusedWith(run, 'STALE_NONCE') >= 1);
      saw(run, 'keep polling', count(run, 'poll') >= 3);
      reconnected(run);
    },
  },
  {
    name: 'slots (refuse)',
    fault: { name: 'slots', params: { max: 1, overflow: 'refuse', forMs: 3000 } },
    lastsMs: 3000,
    then: async (run) => {
      // Another client takes the one slot while this one is away; it leaves after two refusals.
      await run.emulator.fault('drop', { mode: 'reset' }, { device: run.serial });
      await until(() => run.emulator.sessions({ device: run.serial }).length === 0, 'the dropped session gone');
      const other = await otherClient(run);
      await run.client.waitFor('error', 2, (l) => l.status === 503);
      await other.close();
    },
    exercised: (run) => {
      saw(run, 'be refused a slot (503)', count(run, 'error', (l) => l.status === 503) >= 2);
      reconnected(run);
    },
  },
  {
    name: 'slots (evict)',
    fault: { name: 'slots', params: { max: 1, overflow: 'evict', forMs: 3000 } },
    lastsMs: 3000,
    then: async (run) => {
      const other = await otherClient(run); // knocks the client's session out
      await run.client.waitFor('configured', 2);
      await other.close();
    },
    exercised: (run) => {
      saw(run, 'be evicted (1008)', count(run, 'close', (l) => l.code === 1008) >= 1);
      reconnected(run);
    },
  },
  {
    name: 'stuck states',
    fault: { name: 'stuck-states', params: { forMs: 2500 } },
    lastsMs: 2500,
    exercised: (run) => {
      saw(run, 'stay subscribed through the stuck states', openThrough(run, 'stuck-states'));
      saw(run, 'get notifications again after it', notifiedAfter(run, 'stuck-states', 'off'));
    },
  },
  {
    name: 'no initial states',
    fault: { name: 'no-initial-states', params: { forMs: 2500 } },
    lastsMs: 2500,
    then: dropAfter,
    exercised: reconnected,
  },
  {
    name: 'flap',
    fault: { name: 'flap', params: { times: 6, withinMs: 10 } },
    exercised: (run) => saw(run, 'receive the flapping Port', count(run, 'notification', (l) => l.topic === PORT) >= 6),
  },
  {
    name: 'storm',
    fault: { name: 'storm', params: { topic: VIRTUAL, ratePerSecond: 1000, forMs: 1000 } },
    exercised: (run) =>
      saw(run, 'receive all 1000 storm events', count(run, 'notification', (l) => l.topic === VIRTUAL) >= 1000),
  },
  {
    name: 'clock skewed',
    fault: { name: 'clock', params: { skewMs: -3_600_000, forMs: 2000 } },
    lastsMs: 2000,
    exercised: (run) =>
      saw(
        run,
        'receive timestamps an hour off',
        notifications(run).some((l) => Date.now() - Number(l.timestamp) > 3_000_000),
      ),
  },
  {
    name: 'clock backwards',
    fault: { name: 'clock', params: { backwardsStepMs: 1000, forMs: 2000 } },
    lastsMs: 2000,
    exercised: (run) => {
      const times = notifications(run).map((l) => Number(l.timestamp));
      saw(
        run,
        'receive timestamps running backwards',
        times.some((t, i) => i > 0 && t < times[i - 1] - 500),
      );
    },
  },
  {
    name: 'clock missing',
    fault: { name: 'clock', params: { missing: true, forMs: 2000 } },
    lastsMs: 2000,
    exercised: (run) =>
      saw(
        run,
        'receive notifications without a timestamp',
        notifications(run).some((l) => l.timestamp === null),
      ),
  },
  {
    name: 'no websocket',
    fault: { name: 'no-websocket', params: { forMs: 2000 } },
    lastsMs: 2000,
    then: dropAfter,
    exercised: (run) => {
      saw(
        run,
        'fall back to polling',
        count(run, 'fallback') >= 1 && count(run, 'poll', (l) => l.what === 'fallback') >= 1,
      );
      saw(run, 'leave the fallback', count(run, 'fallback-end') >= 1);
      reconnected(run);
    },
  },
  {
    name: 'cgi delay',
    fault: { name: 'cgi', params: { delayMs: 400, forMs: 2500 } },
    lastsMs: 2500,
    then: dropAfter,
    exercised: (run) => {
      saw(run, 'wait for a slow CGI', count(run, 'poll', (l) => Number(l.ms) >= 400) >= 1);
      reconnected(run);
    },
  },
  {
    name: 'cgi 503',
    fault: { name: 'cgi', params: { status: 503, forMs: 1500 } },
    lastsMs: 1500,
    then: dropAfter,
    exercised: (run) => {
      saw(run, 'be told the device is busy', count(run, 'busy', (l) => l.what === 'token') >= 1);
      reconnected(run);
    },
  },
  {
    name: 'tls host',
    tls: true,
    fault: { name: 'tls-host', params: { forMs: 1500 } },
    lastsMs: 1500,
    then: dropAfter,
    exercised: (run) => {
      saw(
        run,
        'refuse the wrong certificate',
        count(run, 'error', (l) => /certificate|SSL|CERT/i.test(String(l.message) + String(l.type))) >= 1,
      );
      reconnected(run);
    },
  },
  {
    name: 'scenario disconnect',
    steps: ['{ at: 300ms, disconnect: null }'],
    lastsMs: 300,
    exercised: (run) => {
      saw(run, 'be closed with 1001', count(run, 'close', (l) => l.code === 1001) >= 1);
      reconnected(run);
    },
  },
  {
    name: 'scenario disconnect with a code',
    steps: ['{ at: 300ms, disconnect: { code: 4000, reason: maintenance } }'],
    lastsMs: 300,
    exercised: (run) => {
      saw(run, 'be closed with 4000', count(run, 'close', (l) => l.code === 4000) >= 1);
      reconnected(run);
    },
  },
  {
    name: 'scenario reject-auth',
    steps: ['{ at: 300ms, reject-auth: { for: 1s } }', '{ at: 300ms, disconnect: null }'],
    lastsMs: 1300,
    exercised: (run) => {
      saw(run, 'be refused a login', count(run, 'http-error', (l) => l.status === 401) >= 1);
      reconnected(run);
    },
  },
  {
    name: 'scenario override (wssession.cgi 503 once)',
    steps: [
      '{ at: 300ms, override: { cgi: wssession.cgi, answer: { status: 503, body: busy }, times: 1 } }',
      '{ at: 300ms, disconnect: null }',
    ],
    lastsMs: 1300,
    exercised: (run) => {
      saw(run, 'be told the device is busy', count(run, 'busy', (l) => l.what === 'token') >= 1);
      reconnected(run);
    },
  },
  {
    name: 'scenario fault step (reboot)',
    steps: ['{ at: 300ms, fault: { name: reboot, downMs: 400 } }'],
    lastsMs: 700,
    exercised: (run) => {
      saw(run, 'meet the device down', count(run, 'error') >= 1);
      reconnected(run);
    },
  },
  {
    name: 'scenario expect',
    steps: [
      '{ at: 300ms, disconnect: null }',
      '{ at: 300ms, expect: { that: connected, within: 2s } }',
      `{ at: 300ms, expect: { that: configured, topic: "${MOTION}", within: 2s } }`,
    ],
    lastsMs: 2300,
    exercised: (run, report) => {
      reconnected(run);
      const held = report.expectations.filter((e) => e.status === 'held').length;
      saw(run, `meet both expectations (${held} held)`, report.expectations.length === 2 && held === 2);
    },
  },
];
