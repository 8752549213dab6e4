/**
 * Watching the scenario files the emulator was given: one watch per file, however many
 * devices play it; a good save replays it on each of them (placeholders filled per
 * device), a bad one is reported once and the last good version keeps running.
 */
import type { Logger } from '../base/log';
import { err, ok, type Result } from '../base/result';
import { readFailure, yamlErrors, type YamlErrors } from '../base/yaml-load';
import { overrideProblems } from './scenario-overrides';
import type { ScenarioErrorCode } from '../scenario/load';
import type { Scenario } from '../scenario/schema';
import { type ScenarioWatcher, watchScenario } from '../scenario/watcher';
import type { RunningDevice } from './running-device';

/** A watched scenario file and the device playing it. */
export interface ReloadedFile {
  readonly device: string;
  readonly file: string;
}

/** A save of a watched file that has errors: every one of them, and which file of which device. */
export type ScenarioReloadError = YamlErrors<ScenarioErrorCode> & ReloadedFile;

/** What became of a save of a watched scenario file. */
export type ScenarioReload = Result<ReloadedFile, ScenarioReloadError>;

/** A file to watch and the devices playing it, each with how it fills the scenario in. */
export interface WatchedFile {
  file: string;
  players: { device: RunningDevice; prepare: (scenario: Scenario) => Scenario }[];
}

/** Watches each file; resolves once every watch is established (a save right after start is seen). */
export async function watchScenarioFiles(
  files: readonly WatchedFile[],
  logger: Logger | undefined,
  onReload: ((reload: ScenarioReload) => void) | undefined,
): Promise<ScenarioWatcher[]> {
  const watchers = files.map(({ file, players }) => {
    const device = players[0].device.device.serial;
    const log = logger?.child({ file });
    return watchScenario(
      file,
      (reloaded) => {
        const problems = overrideProblems(reloaded.scenario);
        if (problems.length > 0) {
          const errors = problems.map((message) => ({ ...readFailure(file, message), code: 'INVALID_VALUE' as const }));
          log?.warn({ errors: problems }, 'scenario changed but has errors: the last good version keeps running');
          return onReload?.(err({ ...yamlErrors(errors).error, device, file }));
        }
        for (const player of players) player.device.setScenario(player.prepare(reloaded.scenario));
        log?.info({ devices: players.length }, 'scenario changed: restarted with the new version');
        onReload?.(ok({ device, file }));
      },
      (errors) => {
        const texts = errors.map((e) => e.text);
        log?.warn({ errors: texts }, 'scenario changed but has errors: the last good version keeps running');
        onReload?.(err({ ...yamlErrors(errors).error, device, file }));
      },
      {
        onError: (e) => log?.error({ err: e.message }, 'scenario reload failed; the last good version keeps running'),
      },
    );
  });
  await Promise.all(watchers.map((w) => w.ready));
  return watchers;
}
