/**
 * One device of the emulator with what it plays: the device, its scenario run (replaced
 * on a reload, a new scenario or a reset), and the scenario controls (pause, play, restart) the handle and the control API use.
 */
import type { LogFields, Logger } from '../base/log';
import { startDevice } from '../device/device';
import type { DeviceHandle } from '../device/device-handle';
import type { DeviceOptions } from '../device/device-options';
import type { ConnectionFile } from '../protocol/connection-file';
import type { Scheduler } from '../scenario/scheduler';
import type { Scenario } from '../scenario/schema';
import { deviceTopics } from './device-facts';
import type { DeviceAccess, EmulatedDevice, ScenarioState } from './handle';
import { checkScenarioOverrides } from './scenario-overrides';
import { deviceOptionsForScenario, playOnDevice, type PlayOnDeviceOptions, type ScenarioRun } from './play-on-device';

/** A scenario and the file it came from (undefined when it was built in code). */
export interface LoadedScenario {
  file?: string;
  scenario: Scenario;
}

/** How the emulator starts each device. */
export interface RunningDeviceOptions {
  /** The device's options, the scenario's `device:` section not yet applied. */
  device: DeviceOptions;
  speed: number;
  seed: number;
  connection: ConnectionFile | undefined;
  logger: Logger | undefined;
  /** Where the scenario's time and timers come from (default the wall clock). */
  scheduler?: Scheduler;
}

/** A device of the emulator, with the operations the handle needs. */
export interface RunningDevice extends EmulatedDevice {
  /** The topics its scenario publishes, initial states included, in its namespace, sorted (made once per scenario). */
  readonly topics: readonly string[];
  /** Grows at each change of course of its scenario: a new one, a restart, a reset, a pause, a play, the end. */
  readonly revision: number;
  /** Replaces the scenario and plays it from the start. */
  setScenario(scenario: Scenario): void;
  pause(): void;
  play(): void;
  /** Plays the scenario from zero again. */
  restart(): void;
  /** The device as it started (see DeviceHandle.reset) with its scenario restarted from zero. */
  reset(): Promise<void>;
  /** Stops the scenario and the watch, and closes the device. */
  stop(): Promise<void>;
}

/** Starts a device for `source` and plays it. */
export async function startRunningDevice(
  source: LoadedScenario,
  options: RunningDeviceOptions,
): Promise<RunningDevice> {
  const device = await startDevice(deviceOptionsForScenario(source.scenario, options.device));
  return new PlayingDevice(device, source, options, options.device.control !== undefined);
}

/**
 * A device and its scenario run. A class, not an object of closures: a fleet holds a
 * thousand of these, and methods on a prototype cost nothing per device.
 */
class PlayingDevice implements RunningDevice {
  readonly file: string | undefined;
  private current: Scenario;
  private readonly playerOptions: PlayOnDeviceOptions;
  private playing: ScenarioRun;
  /** The topics of the current scenario on this device, once read. */
  private topicList: readonly string[] | undefined = undefined;
  private changes = 0;
  private readonly logger: Logger | undefined;
  /** The scenario's logger, made on its first line: most scenarios of a fleet never log. */
  private log: Logger | undefined = undefined;

  constructor(
    readonly device: DeviceHandle,
    source: LoadedScenario,
    options: RunningDeviceOptions,
    /** Whether the control API is on. */
    private readonly controlled: boolean,
  ) {
    this.file = source.file;
    this.current = source.scenario;
    this.logger = options.logger;
    const scenarioName = source.scenario.name ?? source.file;
    this.playerOptions = {
      speed: options.speed,
      seed: options.seed,
      log: (msg: string, fields?: LogFields) => this.logLine(scenarioName, msg, fields),
      connection: options.connection,
      scheduler: options.scheduler,
      // Only the current run can finish: the runs before it were stopped.
      onFinish: () => void this.changes++,
    };
    checkScenarioOverrides(this.current);
    this.playing = playOnDevice(this.device, this.current, this.playerOptions);
  }

  /** How to reach the device and log in as its admin (made on each read: it is seldom read). */
  get access(): DeviceAccess {
    return accessOf(this.device, this.controlled);
  }

  get scenario(): Scenario {
    return this.current;
  }

  get run(): ScenarioRun {
    return this.playing;
  }

  get playState(): ScenarioState {
    const { player } = this.playing;
    if (player.paused) return 'paused';
    return player.finished ? 'finished' : 'playing';
  }

  get topics(): readonly string[] {
    return (this.topicList ??= deviceTopics(this.device, this.current));
  }

  get revision(): number {
    return this.changes;
  }

  setScenario(scenario: Scenario): void {
    // Checked before the running scenario stops: a bad one leaves it running.
    checkScenarioOverrides(scenario);
    this.playing.stop();
    if (scenario !== this.current) this.topicList = undefined;
    this.current = scenario;
    this.changes++;
    this.playing = playOnDevice(this.device, this.current, this.playerOptions);
  }

  pause(): void {
    this.changeCourse(() => this.playing.player.pause());
  }

  play(): void {
    this.changeCourse(() => this.playing.player.resume());
  }

  restart(): void {
    this.setScenario(this.current);
  }

  async reset(): Promise<void> {
    this.playing.stop();
    await this.device.reset();
    this.setScenario(this.current);
  }

  async stop(): Promise<void> {
    this.playing.stop();
    await this.device.close();
  }

  /** Logs a line of the scenario (named as it was when the device started). */
  private logLine(scenario: string | undefined, msg: string, fields: LogFields | undefined): void {
    if (!this.logger) return;
    this.log ??= this.logger.child({ device: this.device.serial, scenario });
    this.log.info({ ...fields }, msg);
  }

  /** Runs `change` (a pause, a play), counting it as a change only when the state changed (a second pause is none). */
  private changeCourse(change: () => void): void {
    const before = this.playState;
    change();
    if (this.playState !== before) this.changes++;
  }
}

/** How to reach `device` and log in as its admin. */
function accessOf(device: DeviceHandle, control: boolean): DeviceAccess {
  const o = device.options;
  const admin = o.auth === 'none' ? undefined : o.accounts[0];
  return {
    serial: device.serial,
    urls: device.urls,
    user: admin?.name,
    password: admin?.password,
    realm: device.realm,
    control: control ? `${device.url}/_emu` : undefined,
  };
}
