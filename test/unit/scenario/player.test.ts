import { ScenarioPlayer, type ScenarioPlayerOptions, type ScenarioTarget } from '../../../src/scenario/player';
import { seededRandom } from '../../../src/base/random';
import { ManualScheduler } from '../../../src/scenario/scheduler';
import { ACTION_KEYS, type Scenario } from '../../../src/scenario/schema';
import { scenarioOf } from '../../helpers/scenario-of';

interface Call {
  t: number;
  kind: string;
  topic?: string;
  data?: Record<string, string>;
  stateful?: boolean;
  timestamp?: number | null;
  value?: unknown;
}

/** A target that records every call with the scheduler's time. */
function fakeTarget(scheduler: ManualScheduler): ScenarioTarget & { calls: Call[] } {
  const calls: Call[] = [];
  return {
    calls,
    publish(topic, message, options) {
      calls.push({
        t: scheduler.now(),
        kind: 'publish',
        topic,
        data: message.data,
        stateful: options.stateful,
        timestamp: options.timestamp,
      });
    },
    setFlags(values) {
      calls.push({ t: scheduler.now(), kind: 'flags', value: values });
      return Promise.resolve();
    },
    fault(name, params) {
      calls.push({ t: scheduler.now(), kind: 'fault', value: [name, params] });
      return name === 'reboot' ? Promise.reject(new Error('busy')) : Promise.resolve();
    },
    closeSessions(code, reason) {
      calls.push({ t: scheduler.now(), kind: 'close', value: [code, reason] });
      return 1;
    },
    rejectAuth(forMs) {
      calls.push({ t: scheduler.now(), kind: 'reject', value: forMs });
    },
    override(spec) {
      calls.push({ t: scheduler.now(), kind: 'override', value: spec });
    },
    expect(expectation) {
      calls.push({ t: scheduler.now(), kind: 'expect', value: expectation });
    },
  };
}

function setup(scenario: Scenario, options: ScenarioPlayerOptions = {}) {
  const scheduler = new ManualScheduler(1000);
  const target = fakeTarget(scheduler);
  const player = new ScenarioPlayer(scenario, target, { scheduler, ...options });
  /** Times of publishes relative to the start (1000), optionally for one topic. */
  const times = (topic?: string): number[] =>
    target.calls.filter((c) => c.kind === 'publish' && (!topic || c.topic === topic)).map((c) => c.t - 1000);
  return { scheduler, target, player, times };
}

const A = 'tns1:Test/A';
const B = 'tns1:Test/B';

describe('ManualScheduler', () => {
  it('runs due timers in time order, including ones set while advancing, and cancels', () => {
    const s = new ManualScheduler();
    const seen: string[] = [];
    s.setTimer(20, () => seen.push(`b@${s.now()}`));
    s.setTimer(10, () => {
      seen.push(`a@${s.now()}`);
      s.setTimer(15, () => seen.push(`c@${s.now()}`));
    });
    const cancel = s.setTimer(12, () => seen.push('never'));
    cancel();
    expect(s.pending).toBe(2);
    s.advance(30);
    expect(seen).toEqual(['a@10', 'c@15', 'b@20']);
    expect(s.now()).toBe(30);
    expect(s.pending).toBe(0);
  });
});

describe('seededRandom', () => {
  it('is reproducible and in [0, 1)', () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    const xs = Array.from({ length: 100 }, () => a());
    expect(Array.from({ length: 100 }, () => b())).toEqual(xs);
    for (const x of xs) expect(x >= 0 && x < 1).toBe(true);
    expect(seededRandom(43)()).not.toBe(xs[0]);
  });
});

describe('ScenarioPlayer', () => {
  it('has one entry per action of the step schema, in its order', () => {
    // The compiler checks the set (a missing entry does not compile); this, the order.
    expect(Object.keys(ScenarioPlayer['ACTIONS'])).toEqual(ACTION_KEYS);
  });

  it('plays at and after steps against the list cursor', () => {
    const { scheduler, player, times } = setup(
      scenarioOf(
        'timeline:',
        `  - { at: 1s, emit: { topic: ${A} } }`,
        `  - { after: 500ms, emit: { topic: ${B} } }`,
        `  - { emit: { topic: ${A} } }`,
        `  - { at: 300ms, emit: { topic: ${B} } }`,
      ),
    );
    player.start();
    scheduler.advance(10_000);
    expect(times()).toEqual([300, 1000, 1500, 1500]);
    expect(times(B)).toEqual([300, 1500]);
  });

  it('maps emit timestamps: device, none, a number', () => {
    const { scheduler, target, player } = setup(
      scenarioOf(
        'timeline:',
        `  - emit: { topic: ${A}, timestamp: device }`,
        `  - emit: { topic: ${A}, timestamp: none }`,
        `  - emit: { topic: ${A}, timestamp: 1234 }`,
        `  - emit: { topic: ${A}, data: { x: 1 } }`,
      ),
    );
    player.start();
    scheduler.advance(0);
    expect(target.calls.map((c) => c.timestamp)).toEqual([undefined, null, 1234, undefined]);
    expect(target.calls.every((c) => c.stateful === false)).toBe(true);
    expect(target.calls[3].data).toEqual({ x: '1' });
  });

  it('runs every with times at start + k * period, then the next step after it', async () => {
    const { scheduler, player, times } = setup(
      scenarioOf(
        'timeline:',
        `  - { every: 2s, times: 3, emit: { topic: ${A} } }`,
        `  - { after: 1s, emit: { topic: ${B} } }`,
      ),
    );
    player.start();
    scheduler.advance(60_000);
    expect(times(A)).toEqual([2000, 4000, 6000]);
    expect(times(B)).toEqual([7000]);
    await expect(player.done).resolves.toBeUndefined();
    expect(scheduler.pending).toBe(0);
  });

  it('runs every without times forever, until stop', async () => {
    const { scheduler, player, times } = setup(scenarioOf('timeline:', `  - { every: 1s, emit: { topic: ${A} } }`));
    player.start();
    scheduler.advance(100_000);
    expect(times()).toHaveLength(100);
    expect(times()[99]).toBe(100_000);
    let done = false;
    void player.done.then(() => (done = true));
    await Promise.resolve();
    expect(done).toBe(false);
    player.stop();
    player.stop();
    await player.done;
    expect(scheduler.pending).toBe(0);
    scheduler.advance(10_000);
    expect(times()).toHaveLength(100);
  });

  it('draws jitter from the seed, within [0, jitter), without drift', () => {
    const text = ['timeline:', `  - { every: 1s, times: 50, jitter: 300ms, emit: { topic: ${A} } }`];
    const run = (seed: number): number[] => {
      const { scheduler, player, times } = setup(scenarioOf(...text), { seed });
      player.start();
      scheduler.advance(100_000);
      return times();
    };
    const first = run(7);
    expect(run(7)).toEqual(first);
    expect(run(8)).not.toEqual(first);
    expect(first).toHaveLength(50);
    first.forEach((t, i) => {
      const nominal = (i + 1) * 1000;
      expect(t).toBeGreaterThanOrEqual(nominal);
      expect(t).toBeLessThan(nominal + 300);
    });
  });

  it('pause moves the cursor', () => {
    const { scheduler, player, times } = setup(
      scenarioOf(
        'timeline:',
        `  - emit: { topic: ${A} }`,
        '  - pause: 2s',
        `  - emit: { topic: ${A} }`,
        `  - { after: 1s, emit: { topic: ${A} } }`,
      ),
    );
    player.start();
    scheduler.advance(10_000);
    expect(times()).toEqual([0, 2000, 3000]);
  });

  it('plays a group with its own timing from the run step, and the next step after the group', () => {
    const { scheduler, player, times } = setup(
      scenarioOf(
        'groups:',
        `  burst: [ { emit: { topic: ${A} } }, { pause: 200ms }, { emit: { topic: ${A} } }, { at: 50ms, emit: { topic: ${A} } } ]`,
        'timeline:',
        '  - { at: 1s, run: burst }',
        `  - { emit: { topic: ${B} } }`,
        '  - { after: 1s, run: burst }',
      ),
    );
    player.start();
    scheduler.advance(10_000);
    expect(times(A)).toEqual([1000, 1050, 1200, 2200, 2250, 2400]);
    expect(times(B)).toEqual([1200]);
  });

  it('plays inline steps relative to their step', () => {
    const { scheduler, player, times } = setup(
      scenarioOf(
        'timeline:',
        '  - at: 2s',
        '    steps:',
        `      - { after: 100ms, emit: { topic: ${A} } }`,
        `      - { every: 1s, times: 2, emit: { topic: ${A} } }`,
        `  - emit: { topic: ${B} }`,
      ),
    );
    player.start();
    scheduler.advance(10_000);
    expect(times(A)).toEqual([2100, 3100, 4100]);
    expect(times(B)).toEqual([4100]);
  });

  it('loops n times with each iteration starting exactly at a multiple of its length', async () => {
    const { scheduler, player, times } = setup(
      scenarioOf(
        'timeline:',
        `  - { emit: { topic: ${A} } }`,
        `  - { at: 700ms, jitter: 200ms, emit: { topic: ${B} } }`,
        '  - { at: 1s, pause: 500ms }',
        'loop: { times: 4 }',
      ),
    );
    player.start();
    scheduler.advance(100_000);
    expect(times(A)).toEqual([0, 1500, 3000, 4500]);
    const b = times(B);
    expect(b).toHaveLength(4);
    b.forEach((t, i) => expect(t - i * 1500).toBeGreaterThanOrEqual(700));
    await player.done;
    expect(scheduler.pending).toBe(0);
  });

  it('loops forever with loop: true, without drift', () => {
    const { scheduler, player, times } = setup(
      scenarioOf('timeline:', `  - { every: 300ms, times: 3, emit: { topic: ${A} } }`, 'loop: true'),
    );
    player.start();
    scheduler.advance(900 * 1000);
    const t = times();
    expect(t).toHaveLength(3000);
    expect(t.slice(-3)).toEqual([899_400, 899_700, 900_000]);
    t.forEach((x, i) => expect(x).toBe(Math.floor(i / 3) * 900 + ((i % 3) + 1) * 300));
  });

  it('speed 2 halves every time and reject-auth duration', () => {
    const { scheduler, target, player, times } = setup(
      scenarioOf(
        'timeline:',
        `  - { at: 1s, emit: { topic: ${A} } }`,
        `  - { every: 400ms, times: 2, emit: { topic: ${A} } }`,
        '  - { after: 1s, reject-auth: { for: 10s } }',
        'loop: { times: 2 }',
      ),
      { speed: 2 },
    );
    player.start();
    scheduler.advance(100_000);
    expect(times()).toEqual([500, 700, 900, 500 + 1400, 700 + 1400, 900 + 1400]);
    expect(target.calls.filter((c) => c.kind === 'reject')).toEqual([
      { t: 1000 + 1400, kind: 'reject', value: 5000 },
      { t: 1000 + 2800, kind: 'reject', value: 5000 },
    ]);
  });

  it('records expect steps at their time, with a made-up name when none is given and within scaled by speed', () => {
    const { scheduler, target, player } = setup(
      scenarioOf(
        'timeline:',
        '  - { at: 2s, expect: { that: connected, within: 10s } }',
        `  - expect: { name: back, that: configured, topic: "${A}", within: 1m }`,
      ),
      { speed: 2 },
    );
    player.start();
    scheduler.advance(10_000);
    expect(target.calls.filter((c) => c.kind === 'expect')).toEqual([
      { t: 2000, kind: 'expect', value: { name: 'connected', that: 'connected', topic: undefined, withinMs: 5000 } },
      { t: 2000, kind: 'expect', value: { name: 'back', that: 'configured', topic: A, withinMs: 30_000 } },
    ]);
  });

  it('refuses an expect step with a topic for that: connected, and an unknown that', () => {
    const bad = (): unknown =>
      scenarioOf(
        'timeline:',
        `  - expect: { that: connected, topic: "${A}", within: 1s }`,
        '  - expect: { that: gone, within: 1s }',
      );
    expect(bad).toThrow('topic: goes with that: configured');
    expect(bad).toThrow('that: is connected or configured');
  });

  it('turns fault switches on with their parameters, for scaled by speed, and logs a failed one', async () => {
    const logged: string[] = [];
    const { scheduler, target, player } = setup(
      scenarioOf(
        'timeline:',
        '  - { at: 1s, fault: { name: stall, pings: false, for: 10s } }',
        '  - { at: 2s, fault: { name: reboot, downMs: 50 } }',
      ),
      { speed: 2, log: (msg, fields) => logged.push(`${msg} ${JSON.stringify(fields)}`) },
    );
    player.start();
    scheduler.advance(5_000);
    await Promise.resolve();
    expect(target.calls.filter((c) => c.kind === 'fault')).toEqual([
      { t: 1500, kind: 'fault', value: ['stall', { pings: false, forMs: 5000 }] },
      { t: 2000, kind: 'fault', value: ['reboot', { downMs: 50, refuseLoginsMs: 0 }] },
    ]);
    expect(logged.join('\n')).toContain('scenario fault failed {"error":"busy"}');
  });

  it('makes answer overrides, and refuses a malformed one at load with its field', () => {
    const { scheduler, target, player } = setup(
      scenarioOf(
        'timeline:',
        '  - { at: 1s, override: { cgi: featureflag.cgi, method: listAll, answer: { error: { code: 2104, message: busy } }, times: 1 } }',
      ),
    );
    player.start();
    scheduler.advance(2_000);
    expect(target.calls.filter((c) => c.kind === 'override')).toEqual([
      {
        t: 2000,
        kind: 'override',
        value: {
          cgi: 'featureflag.cgi',
          method: 'listAll',
          answer: { error: { code: 2104, message: 'busy' } },
          times: 1,
        },
      },
    ]);
    const bad = (): unknown => scenarioOf('timeline:', '  - override: { cgi: featureflag.cgi, answer: { oops: 1 } }');
    expect(bad).toThrow('answer is one of');
  });

  it('runs set, set-flag and disconnect actions', () => {
    const { scheduler, target, player } = setup(
      scenarioOf(
        'timeline:',
        `  - set: { topic: ${A}, data: { state: 1 } }`,
        '  - set-flag: { x: true }',
        '  - disconnect:',
        '  - disconnect: { code: 4000, reason: bye }',
      ),
    );
    player.start();
    scheduler.advance(0);
    expect(target.calls.map((c) => [c.kind, c.stateful ?? c.value])).toEqual([
      ['publish', true],
      ['flags', { x: true }],
      ['close', [1001, undefined]],
      ['close', [4000, 'bye']],
    ]);
  });

  it('applies states and flags at start, before any step', () => {
    const { target, player } = setup(
      scenarioOf(
        'flags: { rec: true }',
        'states:',
        `  - { topic: ${A}, source: { port: 1 }, data: { state: 0 } }`,
        'timeline:',
        `  - emit: { topic: ${B} }`,
      ),
    );
    player.start();
    expect(target.calls).toEqual([
      { t: 1000, kind: 'publish', topic: A, data: { state: '0' }, stateful: true, timestamp: undefined },
      { t: 1000, kind: 'flags', value: { rec: true } },
    ]);
  });

  it('runs connect and configure triggers with their after offset, only when they match', () => {
    const { scheduler, player, times } = setup(
      scenarioOf(
        'timeline:',
        `  - { on: connect, after: 1s, emit: { topic: ${A} } }`,
        `  - { on: { configure: ${B} }, steps: [ { emit: { topic: ${B} } }, { after: 200ms, emit: { topic: ${B} } } ] }`,
        `  - { at: 10s, emit: { topic: tns1:Test/C } }`,
      ),
    );
    player.onConnect(); // not started: ignored
    player.start();
    scheduler.advance(2000);
    expect(times()).toEqual([]);
    player.onConnect();
    player.onConfigure((topic) => topic === 'tns1:Test/Other');
    scheduler.advance(500);
    player.onConfigure((topic) => topic === B);
    scheduler.advance(5000);
    expect(times(A)).toEqual([3000]);
    expect(times(B)).toEqual([2500, 2700]);
    scheduler.advance(5000);
    expect(times('tns1:Test/C')).toEqual([10_000]);
  });

  it('resolves done for a finite scenario (and an empty one) and leaves no timers', async () => {
    const { scheduler, player } = setup(scenarioOf('timeline:', `  - { at: 3s, emit: { topic: ${A} } }`));
    let done = false;
    void player.done.then(() => (done = true));
    player.start();
    scheduler.advance(2999);
    await Promise.resolve();
    expect(done).toBe(false);
    scheduler.advance(1);
    await player.done;
    expect(scheduler.pending).toBe(0);
    const empty = setup(scenarioOf('name: empty'));
    empty.player.start();
    await empty.player.done;
  });

  it('stop cancels every pending timer, triggers included', async () => {
    const { scheduler, player } = setup(
      scenarioOf(
        'groups: { g: [ { at: 5s, emit: { topic: tns1:Test/A } } ] }',
        'timeline:',
        '  - { on: connect, after: 9s, run: g }',
        '  - { at: 1s, run: g }',
        '  - { every: 1s, jitter: 10ms, emit: { topic: tns1:Test/B } }',
        'loop: true',
      ),
    );
    player.start();
    player.onConnect();
    scheduler.advance(1500);
    expect(scheduler.pending).toBeGreaterThan(0);
    expect(player.pendingTimers).toBe(scheduler.pending);
    player.stop();
    expect(scheduler.pending).toBe(0);
    expect(player.pendingTimers).toBe(0);
    await player.done;
  });

  it('restart plays from the beginning again, optionally another scenario', async () => {
    const { scheduler, player, times } = setup(
      scenarioOf('timeline:', `  - { at: 1s, emit: { topic: ${A} } }`, `  - { at: 5s, emit: { topic: ${A} } }`),
    );
    player.start();
    scheduler.advance(2000);
    player.restart();
    scheduler.advance(10_000);
    expect(times(A)).toEqual([1000, 3000, 7000]);
    await player.done;
    player.restart(scenarioOf('timeline:', `  - { at: 1s, emit: { topic: ${B} } }`));
    scheduler.advance(1000);
    expect(times(B)).toEqual([13_000]);
    await player.done;
    expect(scheduler.pending).toBe(0);
  });

  it('logs a failing publish and goes on', () => {
    const logged: string[] = [];
    const scheduler = new ManualScheduler();
    const target = fakeTarget(scheduler);
    let first = true;
    const failing: ScenarioTarget = {
      ...target,
      publish(topic, message, options) {
        if (first) {
          first = false;
          throw new Error('boom');
        }
        return target.publish(topic, message, options);
      },
    };
    const player = new ScenarioPlayer(
      scenarioOf('timeline:', `  - { every: 1s, times: 3, emit: { topic: ${A} } }`),
      failing,
      { scheduler, log: (msg) => logged.push(msg) },
    );
    player.start();
    scheduler.advance(5000);
    expect(logged).toEqual(['scenario emit failed']);
    expect(target.calls.map((c) => c.t)).toEqual([2000, 3000]);
  });
});

describe('ScenarioPlayer pause and resume', () => {
  const every = (): Scenario =>
    scenarioOf('timeline:', '  - every: 100ms', '    times: 5', `    emit: { topic: '${A}' }`);

  it('publishes nothing while paused, then goes on with every step at its place in scenario time', async () => {
    const { scheduler, player, times } = setup(every());
    player.start();
    scheduler.advance(250); // steps at 100, 200
    player.pause();
    expect(player.paused).toBe(true);
    scheduler.advance(1000); // held
    expect(times(A)).toEqual([100, 200]);
    player.resume();
    expect(player.paused).toBe(false);
    scheduler.advance(400); // the rest: 300, 400, 500 in scenario time = 1300, 1400, 1500 in wall time
    expect(times(A)).toEqual([100, 200, 1300, 1400, 1500]);
    await player.done;
  });

  it('holds triggers while paused, and stop() ends a pause', () => {
    const { scheduler, player, times } = setup(
      scenarioOf('timeline:', '  - on: connect', `    emit: { topic: '${B}' }`),
    );
    player.start();
    player.pause();
    player.onConnect();
    scheduler.advance(10);
    expect(times(B)).toEqual([]);
    player.stop();
    expect(player.paused).toBe(false);
    player.resume(); // nothing to resume
    expect(scheduler.pending).toBe(0);
  });

  it('does not resolve done while paused', async () => {
    const { scheduler, player } = setup(every());
    let done = false;
    void player.done.then(() => (done = true));
    player.start();
    player.pause();
    scheduler.advance(10_000);
    await Promise.resolve();
    expect(done).toBe(false);
    player.resume();
    scheduler.advance(1000);
    await player.done;
    expect(done).toBe(true);
  });
});

describe('ScenarioPlayer done, made when asked', () => {
  /** Whether `promise` has settled once the pending reactions have run. */
  async function settled(promise: Promise<void>): Promise<boolean> {
    let resolved = false;
    void promise.then(() => (resolved = true));
    await new Promise<void>((resolve) => setImmediate(resolve));
    return resolved;
  }
  const finite = (): Scenario => scenarioOf('timeline:', `  - { at: 1s, emit: { topic: ${A} } }`);
  const forever = (): Scenario => scenarioOf('timeline:', `  - { every: 1s, emit: { topic: ${A} } }`);

  it('is pending before start and while the timeline plays', async () => {
    const { scheduler, player } = setup(finite());
    expect(await settled(player.done)).toBe(false);
    player.start();
    scheduler.advance(999);
    expect(await settled(player.done)).toBe(false);
  });

  it('read only after the timeline ended, it is resolved', async () => {
    const { scheduler, player } = setup(finite());
    player.start();
    scheduler.advance(1000);
    expect(player.finished).toBe(true);
    expect(await settled(player.done)).toBe(true);
    expect(await settled(player.done)).toBe(true);
  });

  it('read before the end, it resolves at the end, and every read gives the same one', async () => {
    const { scheduler, player } = setup(finite());
    player.start();
    const early = player.done;
    expect(player.done).toBe(early);
    scheduler.advance(500);
    expect(await settled(early)).toBe(false);
    scheduler.advance(500);
    expect(await settled(early)).toBe(true);
  });

  it('read before stop, it resolves at stop (an endless timeline); read after stop, it is resolved', async () => {
    const { scheduler, player } = setup(forever());
    player.start();
    const before = player.done;
    scheduler.advance(10_000);
    expect(await settled(before)).toBe(false);
    player.stop();
    expect(await settled(before)).toBe(true);
    expect(await settled(player.done)).toBe(true);
    player.stop();
    expect(await settled(player.done)).toBe(true);
  });

  it('after a restart, a new done is pending until the new run ends; the old one stays resolved', async () => {
    const { scheduler, player } = setup(finite());
    player.start();
    scheduler.advance(1000);
    const first = player.done;
    expect(await settled(first)).toBe(true);
    player.restart();
    const second = player.done;
    expect(second).not.toBe(first);
    expect(await settled(second)).toBe(false);
    expect(await settled(first)).toBe(true);
    scheduler.advance(1000);
    expect(await settled(second)).toBe(true);
  });

  it('read before a restart of a run still playing, it resolves at the restart; the next run has its own', async () => {
    const { scheduler, player } = setup(forever());
    player.start();
    const first = player.done;
    player.restart();
    expect(await settled(first)).toBe(true);
    const second = player.done;
    expect(await settled(second)).toBe(false);
    scheduler.advance(5000);
    expect(await settled(second)).toBe(false);
    player.restart(finite());
    expect(await settled(second)).toBe(true);
    const third = player.done;
    expect(await settled(third)).toBe(false);
    scheduler.advance(1000);
    expect(await settled(third)).toBe(true);
    player.stop();
  });

  it('an empty timeline is done as it starts, and again at each restart', async () => {
    const { player } = setup(scenarioOf('name: empty'));
    player.start();
    expect(await settled(player.done)).toBe(true);
    player.restart();
    expect(await settled(player.done)).toBe(true);
  });
});
