/**
 * Plays a loaded scenario against a device: initial states and flags, then the
 * timeline's steps at their times, loops, groups and `on:` triggers.
 *
 * Timing rules (all offsets in scenario milliseconds, divided by `speed`):
 * - A list (the timeline, a group, an inline `steps`) has a cursor: the end of its
 *   previous step. `at` is an offset from the list start, `after` from the cursor,
 *   and a step with neither runs at the cursor.
 * - A step ends when its action ends: `pause` and `run`/`steps` last their length,
 *   others take no time. `every: p, times: n` runs at start + p, start + 2p, ...
 *   start + n*p and ends at its last run; `every` without `times` never ends.
 * - `jitter: j` delays each run by a random amount in [0, j) from the seeded PRNG;
 *   it does not move the cursor, so jitter never accumulates.
 * - A list's length is the latest end of its steps. `loop` starts iteration k at
 *   k * length of the timeline; a timeline whose length is infinite plays once.
 * Every timer is set for an absolute time computed from the start, so nothing drifts.
 */
import { EmulatorError } from '../base/errors';
import type { LogFields } from '../base/log';
import type { NotificationMessage } from '../events/notification-message';
import { seededRandom } from '../base/random';
import { realScheduler, type Scheduler } from './scheduler';
import type { ScenarioTarget } from './scenario-target';
import type { ActionKey, EmitAction, Scenario, StateAction, Step } from './schema';
import { StepLengths } from './step-lengths';

/** What a scenario acts on (its own file; the public face reads it from here). */
export type { ScenarioTarget };

/** The cancel function of a step not armed yet. */
const NOTHING = (): void => undefined;

/** The `done` of a run that has ended. */
const SETTLED: Promise<void> = Promise.resolve();

/** Whether a timer belongs to the timeline (counted for `done`) or to an `on:` trigger. */
type PlayedBy = 'timeline' | 'trigger';

/** A step waiting for its scenario time `at`, and how to cancel its timer. */
interface PendingStep {
  readonly at: number;
  readonly part: PlayedBy;
  readonly fn: (at: number) => void;
  cancel: () => void;
  /** Where it is in the player's list of pending steps. */
  slot: number;
}

/** What action `K` of a step does when it runs: `value` is the step's value of `K`, `at` its scenario time. */
type ActionPlay<K extends ActionKey> = (
  player: ScenarioPlayer,
  value: NonNullable<Step[K]>,
  at: number,
  part: PlayedBy,
) => void;

/** Options of {@link ScenarioPlayer}. */
export interface ScenarioPlayerOptions {
  /** Where time and timers come from; default the real clock. */
  scheduler?: Scheduler;
  /** Playback speed: 2 plays twice as fast (every offset is halved). Default 1. */
  speed?: number;
  /** Seed of the jitter PRNG; the same seed gives the same jitter. Default 1. */
  seed?: number;
  /** Receives one line per notable thing (errors, loop iterations). */
  log?: (msg: string, fields?: LogFields) => void;
  /** Told, synchronously, when the timeline has played every step (not on stop()). */
  onFinish?: () => void;
}

/** Plays a {@link Scenario}; see the module comment for the timing rules. */
export class ScenarioPlayer {
  private readonly scheduler: Scheduler;
  /** Playback speed: scenario ms per scheduler ms. */
  readonly speed: number;
  private readonly seed: number;
  private readonly log: (msg: string, fields?: LogFields) => void;
  private readonly onFinish: (() => void) | undefined;
  /** The jitter PRNG, seeded on first use: most scenarios have no jitter. */
  private random: (() => number) | undefined;
  /**
   * The pending steps, each knowing its slot; none while nothing is pending (a finished or
   * quiet scenario). A list, not a map: a fleet's 100,000 players hold one or two steps each.
   */
  private timers: PendingStep[] | undefined = undefined;
  private timelineTimers = 0;
  private startedAt = 0;
  private running = false;
  /** Scheduler time of pause(), while paused. */
  private pausedAt: number | undefined;
  /** Scenario time the position holds at: where the timeline's last step ran, or where stop() stopped it. */
  private heldAt: number | undefined;
  /** The `done` promise, made when first asked for (a fleet's 100,000 players are seldom asked), and its resolve. */
  private donePromise: Promise<void> | undefined = undefined;
  private resolveDone: (() => void) | undefined = undefined;
  /** Whether this run's `done` is settled (by stop() or the timeline's end). */
  private doneSettled = false;
  /** The lengths of the scenario's lists, shared with every player of the same scenario. */
  private lengths: StepLengths;

  constructor(
    private scenario: Scenario,
    private readonly target: ScenarioTarget,
    options: ScenarioPlayerOptions = {},
  ) {
    this.scheduler = options.scheduler ?? realScheduler;
    this.speed = options.speed ?? 1;
    if (!(this.speed > 0) || !Number.isFinite(this.speed))
      throw new EmulatorError('BAD_OPTION', `speed must be a positive number, got ${this.speed}`);
    this.seed = options.seed ?? 1;
    this.log = options.log ?? (() => undefined);
    this.onFinish = options.onFinish;
    this.random = undefined;
    this.lengths = StepLengths.of(scenario);
  }

  /** Resolves when a finite timeline has played every step (loops included), or on stop(). */
  get done(): Promise<void> {
    if (this.doneSettled) return SETTLED;
    return (this.donePromise ??= new Promise<void>((resolve) => {
      this.resolveDone = resolve;
    }));
  }

  /** How many of the player's timers are set (timeline and triggers). */
  get pendingTimers(): number {
    return this.timers?.length ?? 0;
  }

  /**
   * Whether the timeline has played every step (loops included): from then on until a
   * restart, only `on:` triggers play. False before start() and after stop().
   */
  get finished(): boolean {
    return this.running && this.timelineTimers === 0;
  }

  /**
   * Where the scenario is, in scenario ms from its start (speed applied): it stands still
   * while paused, and holds at the scenario time of the timeline's last step once that has
   * played (however late its timer ran); 0 before start.
   */
  get positionMs(): number {
    if (this.heldAt !== undefined) return this.heldAt;
    return this.running ? this.livePosition() : 0;
  }

  /** Applies `states` and `flags`, then schedules the timeline from now. Does nothing if already playing. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.heldAt = undefined;
    this.startedAt = this.scheduler.now();
    for (const state of this.scenario.states ?? []) this.guard('state', () => this.publishState(state));
    if (this.scenario.flags) this.setFlags(this.scenario.flags);
    this.startIteration(0);
    this.checkDone(0);
  }

  /** True between pause() and resume() (or stop()). */
  get paused(): boolean {
    return this.pausedAt !== undefined;
  }

  /** Holds every pending step and trigger until resume(): nothing is published, the scenario's clock stands still. */
  pause(): void {
    if (!this.running || this.pausedAt !== undefined) return;
    this.pausedAt = this.scheduler.now();
    for (const timer of this.timers ?? []) timer.cancel();
  }

  /** Goes on where pause() held it: every pending step keeps its place in scenario time. */
  resume(): void {
    if (this.pausedAt === undefined) return;
    this.startedAt += this.scheduler.now() - this.pausedAt;
    this.pausedAt = undefined;
    for (const timer of this.timers ?? []) this.arm(timer);
  }

  /** Cancels every timer and resolves `done`; calling it again does nothing. */
  stop(): void {
    if (this.running) this.heldAt ??= this.livePosition();
    for (const timer of this.timers ?? []) timer.cancel();
    this.timers = undefined;
    this.timelineTimers = 0;
    this.running = false;
    this.pausedAt = undefined;
    this.settleDone();
  }

  /** Stops, optionally switches to another scenario, and starts again from its beginning with a fresh seed. */
  restart(scenario?: Scenario): void {
    this.stop();
    if (scenario) this.scenario = scenario;
    this.lengths = StepLengths.of(this.scenario);
    this.random = undefined;
    this.doneSettled = false;
    this.start();
  }

  /** A client connected: runs the `on: connect` steps (after their `after` offset). */
  onConnect(): void {
    this.fireTriggers((step) => step.on === 'connect');
  }

  /** A client configured a subscription: runs `on: { configure: topic }` steps whose topic `matches`. */
  onConfigure(matches: (topic: string) => boolean): void {
    this.fireTriggers((step) => typeof step.on === 'object' && step.on !== null && matches(step.on.configure));
  }

  /** Settles this run's `done` (a next run, after a restart, has its own). */
  private settleDone(): void {
    this.doneSettled = true;
    this.resolveDone?.();
    this.resolveDone = undefined;
    this.donePromise = undefined;
  }

  /** Plays the `on:` steps `select` picks, from now; none while stopped or paused. */
  private fireTriggers(select: (step: Step) => boolean): void {
    if (!this.running || this.pausedAt !== undefined) return;
    const steps = (this.scenario.timeline ?? []).filter((step) => step.on !== undefined && select(step));
    if (steps.length === 0) return;
    const now = (this.scheduler.now() - this.startedAt) * this.speed;
    // Each trigger step plays on its own: its `after` counts from the trigger.
    for (const step of steps) this.playList([step], now, 'trigger');
  }

  /** Schedules timeline iteration `k` and, if the loop goes on, the start of the next one. */
  private startIteration(k: number): void {
    const timeline = (this.scenario.timeline ?? []).filter((step) => step.on === undefined);
    const length = this.lengths.listLength(timeline);
    const base = k === 0 ? 0 : k * length; // 0 * Infinity is NaN
    if (k > 0) this.log('scenario loop', { iteration: k + 1 });
    this.playList(timeline, base, 'timeline');
    const loop = this.scenario.loop;
    const iterations = loop === true ? Infinity : typeof loop === 'object' ? loop.times : 1;
    if (k + 1 >= iterations || !Number.isFinite(length)) return;
    if (length <= 0 && iterations === Infinity) {
      this.log('scenario loop skipped: the timeline takes no time', {});
      return;
    }
    this.schedule((k + 1) * length, 'timeline', () => this.startIteration(k + 1));
  }

  /** Schedules every step of `steps`, laid out from scenario time `base`. */
  private playList(steps: Step[], base: number, part: PlayedBy): void {
    let cursor = 0;
    for (const step of steps) {
      const start = step.at !== undefined ? step.at : cursor + (step.after ?? 0);
      if (!Number.isFinite(start)) continue; // after a step that never ends
      if (step.every !== undefined) this.scheduleEvery(step, base + start, 1, part);
      else this.schedule(base + start + this.jitter(step), part, (at) => this.runAction(step, at, part));
      cursor = start + this.lengths.stepSpan(step);
    }
  }

  /** Schedules run `k` of an `every` step whose runs count from `origin`; each run schedules the next. */
  private scheduleEvery(step: Step, origin: number, k: number, part: PlayedBy): void {
    const period = step.every ?? 0;
    if (step.times !== undefined && k > step.times) return;
    this.schedule(origin + k * period + this.jitter(step), part, (at) => {
      // The next run is set first, so a run that throws cannot end the series.
      this.scheduleEvery(step, origin, k + 1, part);
      this.runAction(step, at, part);
    });
  }

  /**
   * What each action of a step does when it runs at scenario time `at`: one entry per action
   * the step schema declares (./schema's ACTION_KEYS), so an action without one does not compile.
   */
  private static readonly ACTIONS: { readonly [K in ActionKey]: ActionPlay<K> } = {
    emit: (player, emit) => player.guard('emit', () => player.publishEmit(emit)),
    set: (player, state) => player.guard('set', () => player.publishState(state)),
    'set-flag': (player, values) => player.setFlags(values),
    disconnect: (player, { code, reason }) =>
      player.guard('disconnect', () => player.target.closeSessions(code ?? 1001, reason)),
    'reject-auth': (player, { for: forMs }) => {
      const scaled = forMs / player.speed;
      player.guard('reject-auth', () => player.target.rejectAuth(scaled));
    },
    fault: (player, { name, params }) => {
      const scaled =
        typeof params.forMs === 'number'
          ? { ...params, forMs: Math.max(1, Math.round(params.forMs / player.speed)) }
          : params;
      player.guard('fault', () => player.target.fault(name, scaled));
    },
    override: (player, spec) => player.guard('override', () => player.target.override(spec)),
    expect: (player, expect) => {
      const expectation = { ...expect, withinMs: expect.withinMs / player.speed };
      player.guard('expect', () => player.target.expect(expectation));
    },
    // A pause does nothing when it runs: it only moves the cursor (./step-lengths).
    pause: () => undefined,
    run: (player, name, at, part) => {
      const group = player.scenario.groups?.[name];
      if (group) player.playList(group, at, part);
      else player.log('scenario: unknown group', { group: name });
    },
    steps: (player, steps, at, part) => player.playList(steps, at, part),
  };

  /** The actions, in the step schema's order (a step has one: the order only picks a malformed step's). */
  private static readonly ACTION_ORDER = Object.keys(ScenarioPlayer.ACTIONS) as ActionKey[];

  /** Does what `step` does, at scenario time `at`: its action's entry in {@link ScenarioPlayer.ACTIONS}. */
  private runAction(step: Step, at: number, part: PlayedBy): void {
    for (const key of ScenarioPlayer.ACTION_ORDER) {
      const value = step[key];
      if (value === undefined) continue;
      // The entry of `key` takes `key`'s value; TypeScript cannot tie the two through the union.
      (ScenarioPlayer.ACTIONS[key] as ActionPlay<ActionKey>)(this, value, at, part);
      return;
    }
  }

  /** Publishes an `emit` step's event, with the timestamp it asks for. */
  private publishEmit(emit: EmitAction): void {
    const timestamp =
      emit.timestamp === undefined || emit.timestamp === 'device'
        ? undefined
        : emit.timestamp === 'none'
          ? null
          : emit.timestamp;
    this.target.publish(emit.topic, messageOf(emit), { stateful: false, timestamp });
  }

  /** Publishes a stateful event (a `states` entry or a `set` step). */
  private publishState(state: StateAction): void {
    this.target.publish(state.topic, messageOf(state), { stateful: true });
  }

  /** Sets feature flags on the target, a failure logged. */
  private setFlags(values: Record<string, boolean>): void {
    this.guard('set-flag', () => this.target.setFlags(values));
  }

  /**
   * Runs a step's action; what it throws, or what the promise it returns rejects with, is
   * logged, so one bad step does not stop the scenario.
   */
  private guard(what: string, fn: () => unknown): void {
    const failed = (error: unknown): void =>
      this.log(`scenario ${what} failed`, { error: error instanceof Error ? error.message : String(error) });
    try {
      const result = fn();
      if (result instanceof Promise) result.catch(failed);
    } catch (error) {
      failed(error);
    }
  }

  /** The random delay of one run of `step` (0 without `jitter`), from the seeded PRNG. */
  private jitter(step: Step): number {
    if (!step.jitter) return 0;
    this.random ??= seededRandom(this.seed);
    return this.random() * step.jitter;
  }

  /** Sets a timer for scenario time `at`; `fn` gets that time. Timeline timers count towards `done`. */
  private schedule(at: number, part: PlayedBy, fn: (at: number) => void): void {
    if (part === 'timeline') this.timelineTimers++;
    const timers = (this.timers ??= []);
    const timer: PendingStep = { at, part, fn, cancel: NOTHING, slot: timers.length };
    timers.push(timer);
    if (this.pausedAt === undefined) this.arm(timer);
  }

  /** Sets the scheduler's timer of a pending step at its scenario time. */
  private arm(timer: PendingStep): void {
    timer.cancel = this.scheduler.setTimer(this.startedAt + timer.at / this.speed, () => {
      if (!this.unlist(timer)) return;
      if (timer.part === 'timeline') this.timelineTimers--;
      timer.fn(timer.at);
      if (timer.part === 'timeline') this.checkDone(timer.at);
    });
  }

  /**
   * Takes a step that is due out of the pending list (the last one fills its slot); false when
   * it is no longer there (the run was stopped or restarted meanwhile).
   */
  private unlist(timer: PendingStep): boolean {
    const timers = this.timers;
    if (timers === undefined || timers[timer.slot] !== timer) return false;
    const last = timers.pop() as PendingStep;
    if (last !== timer) {
      timers[timer.slot] = last;
      last.slot = timer.slot;
    }
    if (timers.length === 0) this.timers = undefined;
    return true;
  }

  /** After the timeline step at scenario time `at` (0: the start): once it was the last, holds there and tells. */
  private checkDone(at: number): void {
    if (!this.finished || this.heldAt !== undefined) return;
    this.heldAt = at;
    this.settleDone();
    this.onFinish?.();
  }

  /** Scenario time now: scheduler time since the start, less the pauses (the pause under way too), times the speed. */
  private livePosition(): number {
    return ((this.pausedAt ?? this.scheduler.now()) - this.startedAt) * this.speed;
  }
}

/** The message parts of an emit or state, leaving out absent ones. */
function messageOf(action: EmitAction | StateAction): NotificationMessage {
  const message: NotificationMessage = {};
  if (action.source) message.source = action.source;
  if (action.key) message.key = action.key;
  if (action.data) message.data = action.data;
  return message;
}
