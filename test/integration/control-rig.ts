/**
 * An emulator for the control API's tests: the quiet scenario (or another), scenario time
 * and the live feed's timers on a ManualScheduler (moved by hand, no sleeps), its log lines
 * captured; closed after each test.
 */
import {
  createLogger,
  type EmulatorHandle,
  type EmulatorOptions,
  ManualScheduler,
  type Scenario,
  startEmulator,
} from '../../src';
import { scenarioOf } from '../helpers/scenario-of';

/**
 * A scenario that plays and publishes nothing for an hour. (Not `pause: 1h`: a timeline
 * whose last step is a pause counts as finished once its last action has run.)
 */
export const QUIET = scenarioOf(
  'name: quiet\ntimeline:\n  - { every: 1h, emit: { topic: tns1:Device/tnsvendor:Test/Quiet } }\n',
);

/** A log line as pino writes it. */
export interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

/** A running emulator, its first device's control URL, its scheduler and its log. */
export interface ControlRig {
  emulator: EmulatorHandle;
  /** `http://127.0.0.1:port/_emu` of the first device. */
  control: string;
  scheduler: ManualScheduler;
  logs: LogLine[];
}

const running: EmulatorHandle[] = [];

/** Closes what {@link startRig} started; call it in `afterEach`. */
export async function closeRigs(): Promise<void> {
  await Promise.all(running.splice(0).map((emulator) => emulator.close()));
}

/** Starts an emulator playing `scenario` on port 0 with a ManualScheduler at time 0. */
export async function startRig(scenario: Scenario = QUIET, options: EmulatorOptions = {}): Promise<ControlRig> {
  const scheduler = new ManualScheduler(0);
  const logs: LogLine[] = [];
  const logger = createLogger({ level: 'debug', format: 'json', write: (l) => logs.push(JSON.parse(l) as LogLine) });
  const emulator = await startEmulator({
    scenarios: [{ scenario }],
    device: { port: 0, logger },
    scheduler,
    ...options,
  });
  running.push(emulator);
  return { emulator, control: `${emulator.devices[0].device.url}/_emu`, scheduler, logs };
}
