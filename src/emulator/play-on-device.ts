/**
 * Binds a {@link ScenarioPlayer} to a running device: the player acts on the device
 * handle (publish, flags, sessions, auth) and the device's session changes fire the
 * scenario's `on: connect` and `on: { configure: topic }` triggers. Given a
 * connection file, the scenario's `body-worn:` recordings are uploaded as it plays
 * (./play-recordings).
 */
import type { RetryPolicy } from '../bws/swift-client';
import type { DeviceHandle } from '../device/device-handle';
import type { DeviceOptions } from '../device/device-options';
import { DEFAULT_FLAGS, type FlagDefinition } from '../device/feature-flags';
import type { ConnectionFile } from '../protocol/connection-file';
import { ScenarioPlayer, type ScenarioPlayerOptions } from '../scenario/player';
import { playRecordings, type RecordingsRun, type ScenarioRecordingReport } from '../scenario/play-recordings';
import { realScheduler } from '../scenario/scheduler';
import type { Scenario } from '../scenario/schema';
import { withNamespace } from '../scenario/template';

/** Options of {@link playOnDevice}: the player's, and where the `body-worn:` recordings go. */
export interface PlayOnDeviceOptions extends ScenarioPlayerOptions {
  /** The destination of the scenario's `body-worn:` recordings; without it they are not uploaded. */
  connection?: ConnectionFile;
  /** Hears what became of each `body-worn:` recording. */
  onRecording?: (report: ScenarioRecordingReport) => void;
  /** Retries of the uploads' requests (default: the body worn system's). */
  retry?: Partial<RetryPolicy>;
}

/** A scenario playing on a device. */
export interface ScenarioRun {
  readonly player: ScenarioPlayer;
  /** The `body-worn:` uploads, when the scenario has recordings and a connection file was given. */
  readonly recordings: RecordingsRun | undefined;
  /** Resolves when a finite scenario has played every step and every recording has its outcome, or when stopped. */
  readonly done: Promise<void>;
  /** Stops the timeline, the triggers and the uploads not yet due; the device keeps running. */
  stop(): void;
}

/**
 * Starts `scenario` on `device` at once, its `tnsvendor:` topics in the device's namespace
 * (device option `namespace`): here, so that every way a scenario reaches a device (start,
 * reload, the control API) publishes the words the device's persona uses.
 */
export function playOnDevice(device: DeviceHandle, written: Scenario, options: PlayOnDeviceOptions = {}): ScenarioRun {
  const scenario = withNamespace(written, device.options.namespace);
  const player = new ScenarioPlayer(scenario, device, options);
  // Only a scenario with `on:` steps listens to the sessions: a fleet's devices spare a watcher each.
  const unwatch = scenario.timeline?.some((step) => step.on !== undefined)
    ? device.watchSessions((change) => {
        if (change.kind === 'connect') player.onConnect();
        else if (change.kind === 'configure') player.onConfigure((topic) => change.subscribesTo(topic));
      })
    : undefined;
  player.start();
  return new DeviceRun(player, startRecordings(device, scenario, options), unwatch);
}

/** A {@link ScenarioRun}: a class, so that a fleet's thousand runs share their methods. */
class DeviceRun implements ScenarioRun {
  constructor(
    readonly player: ScenarioPlayer,
    readonly recordings: RecordingsRun | undefined,
    private readonly unwatch: (() => void) | undefined,
  ) {}

  get done(): Promise<void> {
    const { player, recordings } = this;
    return recordings ? Promise.all([player.done, recordings.done]).then(() => undefined) : player.done;
  }

  stop(): void {
    this.unwatch?.();
    this.player.stop();
    this.recordings?.stop();
  }
}

/** The `body-worn:` uploads from the scenario's start, or a log line saying why there are none. */
function startRecordings(
  device: DeviceHandle,
  scenario: Scenario,
  options: PlayOnDeviceOptions,
): RecordingsRun | undefined {
  const section = scenario['body-worn'];
  if (!section) return undefined;
  const log = options.log ?? (() => undefined);
  if (!options.connection) {
    log('body-worn recordings are not uploaded: no connection file (--connection-file)', {
      recordings: section.recordings.length,
    });
    return undefined;
  }
  const identity = device.options.identity;
  return playRecordings(section, {
    connection: options.connection,
    camera: { serial: device.serial, model: identity.ProdNbr, name: identity.ProdFullName, firmware: identity.Version },
    scheduler: options.scheduler ?? realScheduler,
    speed: options.speed ?? 1,
    log,
    onRecording: options.onRecording,
    retry: options.retry,
  });
}

/**
 * `base` completed with what a scenario's `device:` section sets (serial, model,
 * name, firmware); what `base` says explicitly wins, as a command line flag should. The scenario's `states` replace the device's default ones
 * (the player publishes them when it starts), and a flag in `flags` that the device
 * does not have is added to it, with the scenario's value as its default. `persona` and
 * `namespace` pass through from `base`: a scenario is written in the neutral namespace and
 * {@link playOnDevice} renames its topics for the device, so it never picks the words.
 */
export function deviceOptionsForScenario(scenario: Scenario, base: DeviceOptions = {}): DeviceOptions {
  const d = scenario.device ?? {};
  return {
    ...base,
    ...(base.serial === undefined && d.serial ? { serial: d.serial } : {}),
    identity: {
      ...(d.model ? { ProdNbr: d.model } : {}),
      ...(d.name ? { ProdFullName: d.name } : {}),
      ...(d.firmware ? { Version: d.firmware } : {}),
      ...base.identity,
    },
    ...(scenario.states && base.initialStates === undefined ? { initialStates: [] } : {}),
    // A cloned device starts with the flags of the device it was cloned from.
    flags: withScenarioFlags(
      base.flags ?? (typeof base.persona === 'object' ? base.persona.flags : (DEFAULT_FLAGS as FlagDefinition[])),
      scenario.flags ?? {},
    ),
  };
}

function withScenarioFlags(
  flags: NonNullable<DeviceOptions['flags']>,
  wanted: Record<string, boolean>,
): NonNullable<DeviceOptions['flags']> {
  const known = new Set(flags.map((f) => f.name));
  const added = Object.entries(wanted)
    .filter(([name]) => !known.has(name))
    .map(([name, value]) => ({ name, defaultValue: value, description: 'Defined by the scenario' }));
  // The same list when nothing is added: a fleet's devices then share it.
  return added.length === 0 ? flags : [...flags, ...added];
}
