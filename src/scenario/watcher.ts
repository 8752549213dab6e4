/**
 * Watches one scenario file and reloads it whenever it is saved, so an edited scenario
 * can be picked up without restarting. The file's directory is watched (filtered to the
 * file's name) rather than the file itself, so editor-style atomic saves (write a
 * temporary file, then rename it over the original) and delete-then-recreate are seen.
 * Bursts of events from one save are debounced into a single reload.
 */
import { stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { watch } from 'chokidar';
import { readFailure } from '../base/yaml-load';
import { loadScenarioFile, type ScenarioError } from './load';
import type { Scenario } from './schema';

/** Options for {@link watchScenario}. */
export interface WatchScenarioOptions {
  /** Quiet period after the last file event before reloading, in milliseconds. Default 100. */
  readonly debounceMs?: number;
  /** Told of a failed reload or watch (a callback that threw, a watch error); default: a process warning. */
  readonly onError?: (err: Error) => void;
}

/** A running watch; `close()` stops it and leaves no timers or file handles open. */
export interface ScenarioWatcher {
  /** Resolves once the watch is established; changes made before then may be missed. */
  readonly ready: Promise<void>;
  close(): Promise<void>;
}

/**
 * Calls `onValid` with the reloaded scenario, or `onInvalid` with every error in it, each
 * time `file` settles after a change. A deleted file is reported through `onInvalid` as a
 * single READ_FAILED error; the next save reloads it. The file's initial contents are not
 * reported; await `ready` before relying on changes being seen.
 */
export function watchScenario(
  file: string,
  onValid: (loaded: { file: string; scenario: Scenario }) => void,
  onInvalid: (errors: ScenarioError[]) => void,
  options: WatchScenarioOptions = {},
): ScenarioWatcher {
  const debounceMs = options.debounceMs ?? 100;
  const onError = options.onError ?? ((err: Error) => process.emitWarning(`scenario watch of ${file}: ${err.message}`));
  const target = resolve(file);
  const dir = dirname(target);
  let timer: NodeJS.Timeout | undefined;
  let generation = 0; // a reload reports only if no newer change arrived while it ran
  let closed = false;
  let inFlight: Promise<void> = Promise.resolve();

  const watcher = watch(dir, {
    ignoreInitial: true,
    depth: 0,
    atomic: true,
    awaitWriteFinish: false,
    // Only the directory itself and the watched file; other files in it are not watched.
    ignored: (path: string) => {
      const full = resolve(path);
      return full !== dir && full !== target;
    },
  });

  const reload = async (): Promise<void> => {
    const mine = ++generation;
    const exists = await stat(target).then(
      (s) => s.isFile(),
      () => false,
    );
    if (!exists) {
      if (closed || mine !== generation) return;
      onInvalid([readFailure(file, 'the scenario file was deleted; it will be reloaded when it is saved again')]);
      return;
    }
    const result = await loadScenarioFile(file);
    if (closed || mine !== generation) return;
    if (result.ok) onValid({ file, scenario: result.value });
    else onInvalid(result.error.errors);
  };

  const schedule = (path: string): void => {
    if (closed || resolve(path) !== target) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      inFlight = reload().catch((err: unknown) => onError(err instanceof Error ? err : new Error(String(err))));
    }, debounceMs);
  };

  watcher.on('add', schedule);
  watcher.on('change', schedule);
  watcher.on('unlink', schedule);
  const ready = new Promise<void>((resolveReady) => watcher.once('ready', () => resolveReady()));
  // Watch errors (e.g. EPERM on a vanished entry) are not fatal: the next event reloads.
  watcher.on('error', (err: unknown) => onError(err instanceof Error ? err : new Error(String(err))));

  return {
    ready,
    async close(): Promise<void> {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      await watcher.close();
      await inFlight; // a reload already running finishes silently (closed is set)
    },
  };
}
