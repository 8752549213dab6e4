/**
 * The fault switches of one device: turns them on (validating their parameters against the
 * catalogue), off by hand or after `forMs`, lists those on, and cancels everything pending
 * when the device closes. Made on a device's first fault, so a healthy fleet pays nothing.
 */
import { EmulatorError } from '../../base/errors';
import { errorOf } from '../../base/log';
import type { FaultChangeEntry } from '../../base/journal';
import {
  type ActiveFault,
  FAULT_CATALOGUE,
  FAULT_NAMES,
  type FaultName,
  type FaultParams,
  type FaultParamsInput,
  parseFaultParams,
} from '../../protocol/fault-catalogue';
import { type ActionSwitch, FAULT_SWITCHES, type StateSwitch } from './fault-switches';
import type { FaultTarget } from './fault-target';

/** A state switch that is on. */
interface OnSwitch {
  info: ActiveFault;
  off: () => void;
  cancelTimer: (() => void) | undefined;
}

/** The switches of one device. */
export class DeviceFaults {
  private readonly on = new Map<FaultName, OnSwitch>();
  /** Actions under way (a reboot, a storm): one of each at a time. */
  private readonly running = new Set<FaultName>();
  private readonly timers = new Set<NodeJS.Timeout>();
  /** Waits to end (false) when the device closes. */
  private readonly waits = new Set<(done: boolean) => void>();
  private closed = false;
  private readonly target: FaultTarget;

  constructor(target: Omit<FaultTarget, 'wait'>) {
    this.target = { ...target, wait: (ms) => this.wait(ms) };
  }

  /**
   * Turns switch `name` on with `params` (defaults filled in); a state switch already on is
   * switched again with the new parameters. Resolves when a state switch is on, or when an
   * action is over. Throws `BAD_FAULT` for an unknown switch, bad parameters, or an action
   * already under way.
   */
  async set<N extends FaultName>(name: N, params?: FaultParamsInput<N>): Promise<ActiveFault> {
    if (this.closed) throw new EmulatorError('CLOSED', 'the device is closed');
    if (!Object.hasOwn(FAULT_CATALOGUE, name))
      throw new EmulatorError('BAD_FAULT', `no fault switch "${name}"; switches: ${FAULT_NAMES.join(', ')}`);
    const parsed = parseFaultParams(name, params ?? {});
    if (!parsed.success)
      throw new EmulatorError('BAD_FAULT', `fault ${name}: ${parsed.error.issues.map(describeIssue).join('; ')}`);
    const typed: FaultParams<N> = parsed.data;
    const values: Record<string, unknown> = typed;
    const since = this.target.clock.now();
    const implementation: StateSwitch<N> | ActionSwitch<N> = FAULT_SWITCHES[name];
    if ('run' in implementation) {
      if (this.running.has(name)) throw new EmulatorError('BAD_FAULT', `fault ${name} is already under way`);
      this.running.add(name);
      this.target.log.info({ fault: name, params: paramsText(values) }, 'fault switch');
      this.record(name, 'start', values);
      try {
        await implementation.run(this.target, typed);
        this.record(name, 'end');
      } catch (err) {
        // A reboot whose port was taken meanwhile stays down: say so where the operator looks.
        this.target.log.error({ fault: name, err: errorOf(err) }, 'fault switch failed');
        throw err;
      } finally {
        this.running.delete(name);
      }
      return { name, params: values, since, until: this.target.clock.now() };
    }
    this.clear(name);
    const off = await implementation.on(this.target, typed);
    const forMs = typeof values.forMs === 'number' ? values.forMs : undefined;
    const info: ActiveFault = { name, params: values, since, until: forMs === undefined ? undefined : since + forMs };
    const cancelTimer = forMs === undefined ? undefined : this.later(forMs, () => this.clear(name));
    this.on.set(name, { info, off, cancelTimer });
    this.target.log.info({ fault: name, params: paramsText(values) }, 'fault switch on');
    this.record(name, 'on', values);
    return info;
  }

  /** Switches `name` off (every switch when undefined); returns the names switched off. */
  clear(name?: FaultName): FaultName[] {
    const names = name === undefined ? [...this.on.keys()] : this.on.has(name) ? [name] : [];
    for (const n of names) {
      const on = this.on.get(n) as OnSwitch;
      this.on.delete(n);
      on.cancelTimer?.();
      on.off();
      this.target.log.info({ fault: n }, 'fault switch off');
      this.record(n, 'off');
    }
    return names;
  }

  /** The state switches that are on, in the order they were switched on. */
  list(): ActiveFault[] {
    return [...this.on.values()].map((on) => on.info);
  }

  /** Switches everything off and cancels what is pending (a reboot's wait, a storm's ticks). */
  close(): void {
    this.clear();
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    for (const end of this.waits) end(false);
    this.waits.clear();
  }

  /** Tells the journal (the grader measures the client's reconnects from these). */
  private record(name: FaultName, state: FaultChangeEntry['state'], params: Record<string, unknown> = {}): void {
    this.target.journal?.({ kind: 'fault', name, state, params });
  }

  private wait(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      if (this.closed) return resolve(false);
      const end = (done: boolean): void => {
        this.waits.delete(end);
        resolve(done);
      };
      this.waits.add(end);
      this.later(ms, () => end(true));
    });
  }

  private later(ms: number, run: () => void): () => void {
    if (this.closed) return () => undefined;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      run();
    }, ms);
    this.timers.add(timer);
    return () => {
      clearTimeout(timer);
      this.timers.delete(timer);
    };
  }
}

function describeIssue(issue: { path: PropertyKey[]; message: string }): string {
  return issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ${issue.message}` : issue.message;
}

/** The longest parameter value a log line quotes. */
const MAX_LOGGED_PARAM = 200;

/** A fault's parameters (checked against the catalogue) as `name=value` texts for its log line. */
function paramsText(values: Record<string, unknown>): string[] {
  return Object.entries(values).map(([name, value]) => {
    const text = JSON.stringify(value) ?? String(value);
    return `${name}=${text.length > MAX_LOGGED_PARAM ? `${text.slice(0, MAX_LOGGED_PARAM)}...` : text}`;
  });
}
