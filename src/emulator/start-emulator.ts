/**
 * The emulator: one or more devices, each playing a scenario, with the scenario files
 * watched for saves and one journal of what crossed their sockets. This is the layer
 * that composes devices, scenario players and watchers; the command line and test
 * fixtures both start it through {@link startEmulator} and drive it through its handle.
 */
import { systemClock } from '../base/clock';
import { EmulatorError } from '../base/errors';
import { checkOptionNames, type OptionNames, wholeNumberOption } from '../base/option-checks';
import { DEFAULT_JOURNAL_CAPACITY, Journal } from '../base/journal';
import { hostAllowList } from '../base/host-allow-list';
import { createLogger, type Logger } from '../base/log';
import { controlRouter, FeedHubs } from '../control/control-router';
import type { ControlState } from '../control/route';
import { deviceOf } from '../device/device-context';
import { DEFAULT_HOST, DEFAULT_SERIAL, DEVICE_OPTION_NAMES, type DeviceOptions } from '../device/device-options';
import { emulatorHandle } from './create-handle';
import type { EmulatorHandle, GradingOptions } from './handle';
import { addressRange, FleetPlaces, progressOf } from './fleet-places';
import { runGrading } from './run-grading';
import { type LoadedScenario, type RunningDevice, startRunningDevice } from './running-device';
import { type ScenarioReload, watchScenarioFiles, type WatchedFile } from './scenario-watches';
import { gradingSelection } from '../grading/report-selection';
import type { ConnectionFile } from '../protocol/connection-file';
import { loadScenarioFile } from '../scenario/load';
import type { Scheduler } from '../scenario/scheduler';
import { scenarioPath } from '../scenario/shipped';
import type { Scenario } from '../scenario/schema';
import { fillPlaceholders, hasPlaceholders } from '../scenario/template';
import type { ScenarioWatcher } from '../scenario/watcher';

/** The most devices one emulator runs (in ports mode the ports and the file descriptor limit come first). */
export const MAX_DEVICES = 100_000;

/** The largest `deviceIndexBase`. */
export const MAX_INDEX_BASE = 1_000_000_000;

/** A control token: visible ASCII, no spaces (it travels in an Authorization header). */
const CONTROL_TOKEN = /^[\x21-\x7e]+$/;

export type { LoadedScenario } from './running-device';
export type { ReloadedFile, ScenarioReload, ScenarioReloadError } from './scenario-watches';
export type * from './handle';

/** A scenario to play: a shipped name (`motion`), a file path, or one already loaded. */
export type ScenarioSource = string | LoadedScenario;

/** Options of {@link startEmulator}; every field is optional. */
export interface EmulatorOptions {
  /** One device per scenario. Default: one device playing the shipped `default` scenario. */
  scenarios?: readonly ScenarioSource[];
  /**
   * What every device starts with. With several devices, the i-th listens on `port + i`
   * (0: free ports, consecutive where free; see `addressRange` for one port for all) and has
   * the i-th next serial, unless its scenario names one.
   */
  device?: DeviceOptions;
  /** Playback speed of every scenario (2 = twice as fast). Default 1. */
  speed?: number;
  /** Seed of the scenarios' jitter. Default 1. */
  seed?: number;
  /**
   * Where scenario time and timers come from, and the control API's live feed timers (its
   * batches, snapshots, keepalives). Default: the wall clock. Tests pass a `ManualScheduler`
   * and move time by hand instead of sleeping.
   */
  scheduler?: Scheduler;
  /** Reload a scenario file when it is saved (scenarios given by name or path only). Default false. */
  watch?: boolean;
  /** Where the scenarios' `body-worn:` recordings are uploaded; without it they are not. */
  connection?: ConnectionFile;
  /** Logs of the devices and players; silent by default. */
  logger?: Logger;
  /** Told of every reload of a watched file, good or bad (the last good version keeps running on errors). */
  onReload?: (reload: ScenarioReload) => void;
  /** Entries the journal keeps before the oldest go (counted in `journalDropped`). Default 10,000. */
  journalCapacity?: number;
  /**
   * The thresholds and rules `report()` and `GET /_emu/report` apply unless a report asks for
   * others (docs/grading.md). Default: every rule, the default thresholds.
   */
  grading?: GradingOptions;
  /**
   * Segments of the report (a reset ends one) kept with their findings; older ones leave only
   * their counts. Default 1,000.
   */
  segmentCapacity?: number;
  /**
   * A fleet: this many devices (default: one per scenario). With one scenario every device
   * plays it; with several, there must be one per device. Device i listens on `port + i`
   * (with 0, free ports, consecutive where free), or in address mode (`addressRange`) at
   * address + i, and has serial `serial` + (`deviceIndexBase` + i).
   */
  devices?: number;
  /** Index of the first device, so that several processes own disjoint serial ranges. Default 0. */
  deviceIndexBase?: number;
  /**
   * Address mode: device i at this IPv4 address + i (e.g. `127.1.0.1`: 127.1.0.1, 127.1.0.2,
   * ...), every device on the same port, `device.port` (default 80, 443 with TLS; 0 a free one),
   * as real cameras are reached. One listener on every interface at that port serves them all,
   * by the address a connection came to: any of 127.0.0.0/8 needs no set-up on Linux; other
   * addresses must be the machine's (e.g. added with `ip addr add`). Without it (ports mode)
   * each device has a port of its own, `device.port` + i.
   */
  addressRange?: string;
  /** Told how many devices have started, as they start (every 1%, and at the end), for a progress line. */
  onProgress?: (started: number, total: number) => void;
  /**
   * The control API at `/_emu` on every device's port: on by default, answering loopback
   * only; with `token`, any address with `Authorization: Bearer <token>`; `false` turns it off.
   * `maxFeeds`: live feeds (`GET /_emu/feed`, the dashboard's) open at once over every device,
   * 503 past it; default 100.
   */
  control?: false | { token?: string; maxFeeds?: number };
}

/** The names of {@link EmulatorOptions}, checked against it by the compiler: what `startEmulator` accepts. */
export const EMULATOR_OPTION_NAMES = {
  scenarios: true,
  device: true,
  speed: true,
  seed: true,
  scheduler: true,
  watch: true,
  connection: true,
  logger: true,
  onReload: true,
  journalCapacity: true,
  grading: true,
  segmentCapacity: true,
  devices: true,
  deviceIndexBase: true,
  addressRange: true,
  onProgress: true,
  control: true,
} as const satisfies OptionNames<EmulatorOptions>;

/** The names of the `control` options. */
const CONTROL_NAMES = { token: true, maxFeeds: true } as const satisfies OptionNames<
  Exclude<EmulatorOptions['control'], false | undefined>
>;

/** The names of the `grading` options. */
const GRADING_NAMES = { thresholds: true, rules: true, skipRules: true } as const satisfies OptionNames<GradingOptions>;

/**
 * Starts a device for each scenario and plays it; resolves once every device listens and
 * every watch is established. Throws {@link EmulatorError}: `BAD_SCENARIO` with every error
 * of every scenario (`file:line:col: message`), `BAD_OPTION`, `PORT_IN_USE`, ... Nothing is
 * left running when it throws.
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<EmulatorHandle> {
  checkEmulatorOptionNames(options);
  const sources = options.scenarios?.length ? options.scenarios : ['default'];
  const count = fleetSize(options.devices, sources.length);
  const indexBase = wholeNumberOption('deviceIndexBase', options.deviceIndexBase ?? 0, 0, MAX_INDEX_BASE);
  const base = options.device ?? {};
  const addresses = options.addressRange === undefined ? undefined : addressRange(options.addressRange, count);
  // Checked before anything starts: a fleet that ran out of ports would fail halfway.
  if (!addresses && count > 1 && base.port && base.port <= 65535 && base.port + count - 1 > 65535)
    throw new EmulatorError(
      'BAD_OPTION',
      `devices ${count} from port ${base.port} would go past port 65535; use port 0 for free ports`,
    );
  const token = options.control === false ? undefined : options.control?.token;
  if (token !== undefined && !CONTROL_TOKEN.test(token))
    throw new EmulatorError('BAD_OPTION', 'control token must be one or more visible ASCII characters, without spaces');
  const standing = gradingSelection(options.grading);
  const loaded = await Promise.all(sources.map(loadSource));
  const journal = new Journal(base.clock ?? systemClock, options.journalCapacity ?? DEFAULT_JOURNAL_CAPACITY);
  // One logger for the fleet, made here when the caller gave none: a root logger costs
  // ~10 KB, which a device making its own would pay a thousand times.
  const logger = base.logger ?? options.logger ?? createLogger({ level: base.logLevel });
  const devices: RunningDevice[] = [];
  let watchers: ScenarioWatcher[] = [];
  let state: ControlState = 'starting';
  const close = async (): Promise<void> => {
    state = 'closing';
    await Promise.all(watchers.map((w) => w.close()));
    await Promise.all(devices.map((d) => d.stop()));
  };
  const handle = emulatorHandle(
    devices,
    journal,
    runGrading(devices, journal, standing, options.segmentCapacity),
    close,
  );
  // Two routers for every port (the first device's also serves the fleet routes), shared by
  // every device: a request's device is the one whose port it came to.
  // One cap on the live feeds for every port: they share one event loop. The control API's
  // modules load with this one even when it is off: loading them only when it is on saved
  // nothing measurable (bench/README.md, lazy loading).
  const feeds = options.control === false ? undefined : new FeedHubs(options.control?.maxFeeds);
  const routers =
    feeds === undefined
      ? undefined
      : ([true, false] as const).map((fleetRoutes) =>
          controlRouter({
            emulator: handle,
            state: () => state,
            device: (res) => deviceOf(res).options.serial,
            fleetRoutes,
            token,
            hosts: hostAllowList(base.host ?? DEFAULT_HOST, base.allowedHosts),
            log: logger,
            scheduler: options.scheduler,
            feeds,
          }),
        );
  // The implicit default is not watched: only files the caller named.
  const named = options.watch === true && sources === options.scenarios;
  const watched = loaded.map((source, k) => named && typeof sources[k] === 'string' && source.file !== undefined);
  // Which devices play which watched source, and how each fills the scenario in.
  const players = loaded.map(() => [] as WatchedFile['players']);
  const progress = progressOf(options.onProgress, count);
  const where = new FleetPlaces(base, addresses);
  try {
    for (let i = 0; i < count; i++) {
      const k = loaded.length === 1 ? 0 : i;
      const index = indexBase + i;
      // A cloned device's serial is the original's (a persona file is as explicit as a flag).
      const cloned = typeof base.persona === 'object' ? base.persona.identity.SerialNumber : undefined;
      const serial = nextSerial(base.serial ?? cloned ?? loaded[k].scenario.device?.serial ?? DEFAULT_SERIAL, index);
      const start = (place: DeviceOptions): Promise<RunningDevice> =>
        startRunningDevice(
          { ...loaded[k], scenario: prepare(loaded[k].scenario, serial, index) },
          {
            device: {
              ...base,
              logger,
              ...(routers ? { control: routers[i === 0 ? 0 : 1] } : {}),
              journal,
              ...place,
              serial,
            },
            speed: options.speed ?? 1,
            seed: options.seed ?? 1,
            connection: options.connection,
            logger,
            scheduler: options.scheduler,
          },
        );
      const device = await where.start(i, start);
      devices.push(device);
      progress(i + 1);
      if (watched[k]) players[k].push({ device, prepare: (scenario) => prepare(scenario, serial, index) });
    }
    const files = loaded.flatMap((source, k) =>
      watched[k] && source.file !== undefined ? [{ file: source.file, players: players[k] }] : [],
    );
    watchers = await watchScenarioFiles(files, logger, options.onReload);
  } catch (err) {
    await close();
    throw err;
  }
  state = 'ready';
  return handle;
}

/**
 * Refuses unknown names, at the top level and in the nested option objects, before anything
 * starts: `port` or `auth` at the top level, a natural guess, belong under `device`.
 */
function checkEmulatorOptionNames(options: EmulatorOptions): void {
  const where = 'startEmulator';
  checkOptionNames(options, EMULATOR_OPTION_NAMES, { where, home: { under: 'device', names: DEVICE_OPTION_NAMES } });
  checkOptionNames(options.device, DEVICE_OPTION_NAMES, { where, at: 'device' });
  if (options.control !== false) checkOptionNames(options.control, CONTROL_NAMES, { where, at: 'control' });
  checkOptionNames(options.grading, GRADING_NAMES, { where, at: 'grading' });
}

/** `scenario` with its placeholders filled for the device with this serial and index. */
function prepare(scenario: Scenario, serial: string, index: number): Scenario {
  return hasPlaceholders(scenario) ? fillPlaceholders(scenario, { serial, index }) : scenario;
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

/** How many devices: `devices`, or one per scenario; several scenarios need one per device. */
function fleetSize(devices: number | undefined, scenarios: number): number {
  if (devices === undefined) return scenarios;
  const count = wholeNumberOption('devices', devices, 1, MAX_DEVICES);
  if (scenarios > 1 && count !== scenarios)
    throw new EmulatorError(
      'BAD_OPTION',
      `devices is ${count} but ${scenarios} scenarios were given: give one scenario for every device, or one for all`,
    );
  return count;
}

/** `ACCC8E000001` + 2 -> `ACCC8E000003`: the serial of the device `i` places after the first. */
function nextSerial(serial: string, i: number): string {
  if (i === 0) return serial;
  const match = /^(.*?)(\d+)$/.exec(serial);
  if (!match) return `${serial}-${i + 1}`;
  return `${match[1]}${String(Number(match[2]) + i).padStart(match[2].length, '0')}`;
}
