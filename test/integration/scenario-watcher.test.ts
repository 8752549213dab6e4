/**
 * Watching a scenario file on a real file system: each save reloads it exactly once
 * (valid -> onValid, invalid -> onInvalid with file:line:col errors), editor-style
 * atomic saves and deletions are seen, and close() leaves nothing running.
 */
import { mkdtempSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Scenario, ScenarioError } from '../../src';
import { watchScenario, type ScenarioWatcher } from '../../src/scenario/watcher';

type Call = { kind: 'valid'; file: string; scenario: Scenario } | { kind: 'invalid'; errors: ScenarioError[] };

/** Records every callback and lets a test await the n-th one. */
class Recorder {
  readonly calls: Call[] = [];
  private waiters: { count: number; resolve: () => void }[] = [];

  readonly onValid = (loaded: { file: string; scenario: Scenario }): void => this.push({ kind: 'valid', ...loaded });
  readonly onInvalid = (errors: ScenarioError[]): void => this.push({ kind: 'invalid', errors });

  /** Resolves with the call numbered `count` (1-based) once it has happened. */
  async waitFor(count: number): Promise<Call> {
    if (this.calls.length < count) await new Promise<void>((resolve) => this.waiters.push({ count, resolve }));
    return this.calls[count - 1];
  }

  private push(call: Call): void {
    this.calls.push(call);
    this.waiters = this.waiters.filter((w) => (this.calls.length >= w.count ? (w.resolve(), false) : true));
  }
}

const settle = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const count = (kind: string): number => process.getActiveResourcesInfo().filter((r) => r === kind).length;
/** Closed handles leave the active list only after libuv's close callbacks have run. */
const flushHandles = async (): Promise<void> => {
  for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
};

let dir: string;
let file: string;
let watcher: ScenarioWatcher | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'bwc-watch-'));
  file = join(dir, 'scenario.yaml');
  writeFileSync(file, 'name: first\n');
});
afterEach(async () => {
  await watcher?.close();
  watcher = undefined;
  rmSync(dir, { recursive: true, force: true });
});

async function start(recorder: Recorder): Promise<ScenarioWatcher> {
  watcher = watchScenario(file, recorder.onValid, recorder.onInvalid);
  await watcher.ready;
  return watcher;
}

test('each save reloads once: valid, invalid with positions, fixed again', async () => {
  const rec = new Recorder();
  await start(rec);

  writeFileSync(file, 'name: second\nloop: true\n');
  const first = await rec.waitFor(1);
  expect(first).toMatchObject({ kind: 'valid', file, scenario: { name: 'second', loop: true } });

  writeFileSync(file, 'name: third\nloop: maybe\nbogus: 1\n');
  const second = await rec.waitFor(2);
  if (second.kind !== 'invalid') throw new Error(`expected onInvalid, got ${JSON.stringify(second)}`);
  expect(second.errors.map((e) => [e.code, e.line, e.col])).toEqual([
    ['INVALID_VALUE', 2, 7],
    ['UNKNOWN_KEY', 3, 1],
  ]);
  for (const error of second.errors) expect(error.text).toBe(`${file}:${error.line}:${error.col}: ${error.message}`);

  writeFileSync(file, 'name: fixed\n');
  expect(await rec.waitFor(3)).toMatchObject({ kind: 'valid', scenario: { name: 'fixed' } });
  expect(rec.calls.map((c) => c.kind)).toEqual(['valid', 'invalid', 'valid']);
});

test('an atomic save (temp file renamed over) reloads exactly once', async () => {
  const rec = new Recorder();
  await start(rec);

  const temp = join(dir, '.scenario.yaml.swp');
  writeFileSync(temp, 'name: atomic\n');
  renameSync(temp, file);
  expect(await rec.waitFor(1)).toMatchObject({ kind: 'valid', scenario: { name: 'atomic' } });
  await settle(400); // the one real wait: prove no second reload follows
  expect(rec.calls).toHaveLength(1);
});

test('a deleted file is one clear error, and the next save reloads it', async () => {
  const rec = new Recorder();
  await start(rec);

  unlinkSync(file);
  const deleted = await rec.waitFor(1);
  if (deleted.kind !== 'invalid') throw new Error(`expected onInvalid, got ${JSON.stringify(deleted)}`);
  expect(deleted.errors).toHaveLength(1);
  expect(deleted.errors[0]).toMatchObject({ code: 'READ_FAILED', file, line: 1, col: 1 });
  expect(deleted.errors[0].text).toMatch(/^.*scenario\.yaml:1:1: the scenario file was deleted/);

  writeFileSync(file, 'name: back\n');
  expect(await rec.waitFor(2)).toMatchObject({ kind: 'valid', scenario: { name: 'back' } });
});

test('close() with a reload pending clears its timer and closes every watch', async () => {
  const DEBOUNCE = 4321; // a delay no other timer uses, to pick out the watcher's debounce timer
  await flushHandles(); // handles of earlier tests' watchers finish closing
  const watchesBefore = count('FSEventWrap');
  const setSpy = jest.spyOn(global, 'setTimeout');
  const clearSpy = jest.spyOn(global, 'clearTimeout');
  try {
    const rec = new Recorder();
    const w = (watcher = watchScenario(file, rec.onValid, rec.onInvalid, { debounceMs: DEBOUNCE }));
    await w.ready;
    expect(count('FSEventWrap')).toBeGreaterThan(watchesBefore);

    writeFileSync(file, 'name: never\n');
    // Wait until the change has been seen: the debounce timer is then pending.
    const debounceTimers = (): unknown[] =>
      setSpy.mock.calls.flatMap((call, i) => (call[1] === DEBOUNCE ? [setSpy.mock.results[i].value as unknown] : []));
    const deadline = Date.now() + 3000;
    while (debounceTimers().length === 0 && Date.now() < deadline) await settle(5);
    const pending = debounceTimers();
    expect(pending.length).toBeGreaterThan(0);

    await w.close();
    watcher = undefined;
    const cleared = new Set(clearSpy.mock.calls.map((call) => call[0]));
    for (const timer of pending) expect(cleared.has(timer as NodeJS.Timeout)).toBe(true);
    await flushHandles();
    expect(count('FSEventWrap')).toBe(watchesBefore);
    expect(rec.calls).toEqual([]);
  } finally {
    setSpy.mockRestore();
    clearSpy.mockRestore();
  }
});

test('a callback that throws is told to onError, and the next save still reloads', async () => {
  const errors: string[] = [];
  const names: string[] = [];
  let throwNext = true;
  let told: () => void = () => undefined;
  const nextCall = (): Promise<void> => new Promise((resolve) => (told = resolve));
  watcher = watchScenario(
    file,
    ({ scenario }) => {
      names.push(scenario.name ?? '');
      told();
      if (throwNext) {
        throwNext = false;
        throw new Error('callback broke');
      }
    },
    () => undefined,
    { onError: (err) => errors.push(err.message) },
  );
  await watcher.ready;
  let call = nextCall();
  writeFileSync(file, 'name: second\n');
  await call;
  await settle(50); // the rejection reaches onError on a later tick
  expect(errors).toEqual(['callback broke']);
  call = nextCall();
  writeFileSync(file, 'name: third\n');
  await call;
  expect(names).toEqual(['second', 'third']);
});
