/**
 * The emulator: one or more devices, each playing a scenario, with the scenario files
 * watched for saves. This is the layer that composes devices, scenario players and
 * watchers; the command line and test fixtures both start it through
 * {@link startEmulator} and stop it with `close()`.
 */
import { EmulatorError } from './base/errors';
import type { Logger } from './base/log';
import { err, ok, type Result } from './base/result';
import { yamlErrors, type YamlErrors } from './base/yaml-load';
import { type DeviceHandle, startDevice } from './device/device';
import type { DeviceOptions } from './device/device-options';
import { deviceOptionsForScenario, playOnDevice, type ScenarioRun } from './emulator/play-on-device';
import type { ConnectionFile } from './protocol/connection-file';
import { loadScenarioFile, type ScenarioErrorCode } from './scenario/load';
import type { Scenario } from './scenario/schema';
import { scenarioPath } from './scenario/shipped';
import { type ScenarioWatcher, watchScenario } from './scenario/watcher';

/** A scenario to play: a shipped name (`motion`), a file path, or one already loaded. */
export type ScenarioSource = string | LoadedScenario;

/** A scenario and the file it came from (undefined when it was built in code). */
export interface LoadedScenario {
  file?: string;
  scenario: Scenario;
}

/** A watched scenario file and the device playing it. */
export interface ReloadedFile {
  readonly device: string;
  readonly file: string;
}

/** A save of a watched file that has errors: every one of them, and which file of which device. */
export type ScenarioReloadError = YamlErrors<ScenarioErrorCode> & ReloadedFile;

/** What became of a save of a watched scenario file. */
export type ScenarioReload = Result<ReloadedFile, ScenarioReloadError>;

/** Options of {@link startEmulator}; every field is optional. */
export interface EmulatorOptions {
  /** One device per scenario. Default: one device playing the shipped `default` scenario. */
  scenarios?: readonly ScenarioSource[];
  /**
   * What every device starts with. With several devices, the i-th listens on `port + i`
   * (0: each a free port) and has the i-th next serial, unless its scenario names one.
   */
  device?: DeviceOptions;
  /** Playback speed of every scenario (2 = twice as fast). Default 1. */
  speed?: number;
  /** Seed of the scenarios' jitter. Default 1. */
  seed?: number;
  /** Reload a scenario file when it is saved (scenarios given by name or path only). Default false. */
  watch?: boolean;
  /** Where the scenarios' `body-worn:` recordings are uploaded; without it they are not. */
  connection?: ConnectionFile;
  /** Logs of the devices and players; silent by default. */
  logger?: Logger;
  /** Told of every reload of a watched file, good or bad (the last good version keeps running on errors). */
  onReload?: (reload: ScenarioReload) => void;
}

/** One running device and what it plays. */
export interface EmulatedDevice {
  readonly device: DeviceHandle;
  /** The file of its scenario; undefined for a scenario built in code. */
  readonly file: string | undefined;
  /** The scenario playing now (the latest good version of a watched file). */
  readonly scenario: Scenario;
  /** The current run of that scenario. */
  readonly run: ScenarioRun;
}

/** A running emulator. */
export interface EmulatorHandle {
  /** The devices, in the order of their scenarios. */
  readonly devices: readonly EmulatedDevice[];
  /** Stops every scenario and watcher and closes every device; resolves when all is closed. */
  close(): Promise<void>;
}

/**
 * Starts a device for each scenario and plays it; resolves once every device listens and
 * every watch is established. Throws {@link EmulatorError}: `BAD_SCENARIO` with every error
 * of every scenario (`file:line:col: message`), `BAD_OPTION`, `PORT_IN_USE`, ... Nothing is
 * left running when it throws.
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<EmulatorHandle> {
  const sources = options.scenarios?.length ? options.scenarios : ['default'];
  const loaded = await Promise.all(sources.map(loadSource));
  const devices: RunningDevice[] = [];
  const close = async (): Promise<void> => {
    await Promise.all(devices.map((d) => d.stop()));
  };
  try {
    for (const [i, scenario] of loaded.entries()) {
      // The implicit default is not watched: only files the caller named.
      const watch = options.watch === true && sources === options.scenarios && typeof sources[i] === 'string';
      devices.push(await startOne(scenario, i, watch, options));
    }
  } catch (err) {
    await close();
    throw err;
  }
  return { devices, close };
}

/** A device with its scenario run and watcher (replaced on a reload), and how to stop all three. */
interface RunningDevice {
  device: DeviceHandle;
  file: string | undefined;
  scenario: Scenario;
  run: ScenarioRun;
  stop(): Promise<void>;
}

/** Starts the i-th device, plays its scenario, and watches the file when asked. */
async function startOne(
  source: LoadedScenario,
  i: number,
  watch: boolean,
  options: EmulatorOptions,
): Promise<RunningDevice> {
  const base = options.device ?? {};
  const logger = base.logger ?? options.logger;
  const device = await startDevice(
    deviceOptionsForScenario(source.scenario, {
      ...base,
      ...(logger ? { logger } : {}),
      port: base.port && base.port + i,
      ...(i > 0 && base.serial ? { serial: nextSerial(base.serial, i) } : {}),
    }),
  );
  const log = logger?.child({ device: device.serial, scenario: source.scenario.name ?? source.file });
  const playerOptions = {
    speed: options.speed ?? 1,
    seed: options.seed ?? 1,
    log: (msg: string, fields?: object) => log?.info(fields ?? {}, msg),
    ...(options.connection ? { connection: options.connection } : {}),
  };
  let watcher: ScenarioWatcher | undefined;
  const entry: RunningDevice = {
    device,
    file: source.file,
    scenario: source.scenario,
    run: playOnDevice(device, source.scenario, playerOptions),
    stop: async () => {
      entry.run.stop();
      await watcher?.close();
      await device.close();
    },
  };
  if (watch && source.file !== undefined) {
    const file = source.file;
    watcher = watchScenario(
      file,
      (reloaded) => {
        entry.run.stop();
        entry.scenario = reloaded.scenario;
        entry.run = playOnDevice(device, reloaded.scenario, playerOptions);
        log?.info({ file }, 'scenario changed: restarted with the new version');
        options.onReload?.(ok({ device: device.serial, file }));
      },
      (errors) => {
        log?.warn(
          { file, errors: errors.map((e) => e.text) },
          'scenario changed but has errors: the last good version keeps running',
        );
        options.onReload?.(err({ ...yamlErrors(errors).error, device: device.serial, file }));
      },
      {
        onError: (err) =>
          log?.error({ file, err: err.message }, 'scenario reload failed; the last good version keeps running'),
      },
    );
    await watcher.ready; // a save right after start is seen
  }
  return entry;
}

/** Loads a scenario by shipped name or path; throws `BAD_SCENARIO` with every error, one a line. */
async function loadSource(source: ScenarioSource): Promise<LoadedScenario> {
  if (typeof source !== 'string') return source;
  const file = scenarioPath(source);
  const result = await loadScenarioFile(file);
  if (!result.ok) {
    const lines = result.error.errors.map((e) => `  ${e.text}`).join('\n');
    throw new EmulatorError('BAD_SCENARIO', `scenario ${source} has errors:\n${lines}`);
  }
  return { file, scenario: result.value };
}

/** `ACCC8E000001` + 2 -> `ACCC8E000003`: the serial of the i-th extra device. */
function nextSerial(serial: string, i: number): string {
  const match = /^(.*?)(\d+)$/.exec(serial);
  if (!match) return `${serial}-${i + 1}`;
  return `${match[1]}${String(Number(match[2]) + i).padStart(match[2].length, '0')}`;
}
