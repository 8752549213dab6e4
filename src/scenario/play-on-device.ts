/**
 * Binds a {@link ScenarioPlayer} to a running device: the player acts on the device
 * handle (publish, flags, sessions, auth) and the device's session changes fire the
 * scenario's `on: connect` and `on: { configure: topic }` triggers.
 */
import type { DeviceHandle } from '../device/device';
import type { DeviceOptions } from '../device/device-options';
import { DEFAULT_FLAGS } from '../device/feature-flags';
import { ScenarioPlayer, type ScenarioPlayerOptions } from './player';
import type { Scenario } from './schema';

/** A scenario playing on a device. */
export interface ScenarioRun {
  readonly player: ScenarioPlayer;
  /** Resolves when a finite scenario has played every step, or when stopped. */
  readonly done: Promise<void>;
  /** Stops the timeline and the triggers; the device keeps running. */
  stop(): void;
}

/** Starts `scenario` on `device` at once. */
export function playOnDevice(device: DeviceHandle, scenario: Scenario, options: ScenarioPlayerOptions = {}): ScenarioRun {
  const player = new ScenarioPlayer(scenario, device, options);
  const unwatch = device.watchSessions((change) => {
    if (change.kind === 'connect') player.onConnect();
    else if (change.kind === 'configure') player.onConfigure((topic) => change.subscribesTo(topic));
  });
  player.start();
  return {
    player,
    get done() {
      return player.done;
    },
    stop: () => {
      unwatch();
      player.stop();
    },
  };
}

/**
 * `base` completed with what a scenario's `device:` section sets (serial, model,
 * name, firmware); what `base` says explicitly wins, as a command line flag should. The scenario's `states` replace the device's default ones
 * (the player publishes them when it starts), and a flag in `flags` that the device
 * does not have is added to it, with the scenario's value as its default.
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
    flags: withScenarioFlags(base.flags ?? [...DEFAULT_FLAGS], scenario.flags ?? {}),
  };
}

function withScenarioFlags(flags: NonNullable<DeviceOptions['flags']>, wanted: Record<string, boolean>): NonNullable<DeviceOptions['flags']> {
  const known = new Set(flags.map((f) => f.name));
  const added = Object.entries(wanted)
    .filter(([name]) => !known.has(name))
    .map(([name, value]) => ({ name, defaultValue: value, description: 'Defined by the scenario' }));
  return [...flags, ...added];
}
