/**
 * One device of the emulator with what it plays: the device, its scenario run (replaced
 * on a reload, a new scenario or a reset), and the scenario controls (pause, play, restart) the handle and the control API use.
 */
import type { Logger } from '../base/log';
import { type DeviceHandle, startDevice } from '../device/device';
import type { DeviceOptions } from '../device/device-options';
import type { ConnectionFile } from '../protocol/connection-file';
import type { Scenario } from '../scenario/schema';
import type { DeviceAccess, EmulatedDevice, ScenarioPlayState } from './handle';
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
}

/** A device of the emulator, with the operations the handle needs. */
export interface RunningDevice extends EmulatedDevice {
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

/** Starts a device for `source`, plays it, and watches its file when asked. */
export async function startRunningDevice(
  source: LoadedScenario,
  options: RunningDeviceOptions,
): Promise<RunningDevice> {
  const device = await startDevice(deviceOptionsForScenario(source.scenario, options.device));
  const log = options.logger?.child({ device: device.serial, scenario: source.scenario.name ?? source.file });
  const playerOptions: PlayOnDeviceOptions = {
    speed: options.speed,
    seed: options.seed,
    log: (msg: string, fields?: object) => log?.info(fields ?? {}, msg),
    ...(options.connection ? { connection: options.connection } : {}),
  };
  let scenario = source.scenario;
  let finished = false;
  /** Plays `scenario` from its start; `finished` follows this run only. */
  const play = (): ScenarioRun => {
    finished = false;
    const started = playOnDevice(device, scenario, playerOptions);
    void started.done.then(() => {
      if (started === run) finished = true;
    });
    return started;
  };
  let run = play();
  /** Plays `next` from its start in place of the current run. */
  const replay = (next: Scenario): void => {
    run.stop();
    scenario = next;
    run = play();
  };
  const access = accessOf(device, options.device.control !== undefined);
  return {
    device,
    access,
    file: source.file,
    get scenario() {
      return scenario;
    },
    get run(): ScenarioRun {
      return run;
    },
    get playState(): ScenarioPlayState {
      if (run.player.paused) return 'paused';
      return finished ? 'finished' : 'playing';
    },
    setScenario: replay,
    pause: () => run.player.pause(),
    play: () => run.player.resume(),
    restart: () => replay(scenario),
    reset: async () => {
      run.stop();
      await device.reset();
      replay(scenario);
    },
    stop: async () => {
      run.stop();
      await device.close();
    },
  };
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
