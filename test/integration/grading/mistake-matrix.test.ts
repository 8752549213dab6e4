/**
 * The rules' recall on clients that each make one realistic mistake (mistake-cases.ts): the
 * Python reference client with one behaviour changed (mistake-clients/mistake_client.py), each
 * on a device of its own under the disturbance that brings its mistake out, all at once in real
 * time with the reference matrix's shortened timings and thresholds (reference-settings.ts).
 * Each case checks that the client made its mistake, then that the rule naming it has a warning
 * or an error; the correct client runs under every disturbance used and must get nothing. A
 * recall table (mistake, disturbance, expected rule, rules found) is printed.
 *
 * Issue 28 asks that at least 14 of 16 such mistakes be named by the right rule: the recall
 * over all cases must be at least 14/16. A mistake no rule names yet is a `knownMiss` of its
 * case, asserted to be still missed, so that fixing the rule makes the table change; one that a
 * rule misses only under a condition (the machine's load) says which in `missedWhen`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { inspect } from 'node:util';
import { type EmulatorHandle, loadScenario, startEmulator } from '../../../src';
import type { GradingReport } from '../../../src/grading/report';
import type { Scenario } from '../../../src/scenario/schema';
import { pythonModules } from '../../helpers/python-script';
import { type Disturbance, MISTAKE_CASES, type MistakeCase, SMALL_DEVICE } from './mistake-cases';
import { type CaseRun, caseRun, dumpRuns, problems } from './reference-checks';
import { type ClientExit, ReferenceClient, startQueue } from './reference-client';
import { BASE_SCENARIO, CLIENT_OPTIONS, SETTLE_MS, THRESHOLDS } from './reference-settings';

/** Checked when the file loads: without Python's modules the matrix is skipped (or fails in CI). */
const PYTHON = pythonModules(['requests', 'websocket'], 'one-mistake matrix');

const SCRIPT = join(__dirname, 'mistake-clients/mistake_client.py');

/** The correct client's `--mistake`. */
const CORRECT = 'none';

/** Issue 28: at least 14 of 16 mistakes named by the right rule. */
const RECALL = { named: 14, of: 16 } as const;

/** One client played under one disturbance. */
interface Play {
  readonly mistake: string;
  readonly disturbance: Disturbance;
}

/** What one client did, and the report of its device. */
interface Outcome extends Play {
  readonly run: CaseRun;
  readonly exit: ClientExit;
  readonly report: GradingReport;
  /** What went wrong while the case was played (a wait that timed out), if anything. */
  readonly error: Error | undefined;
}

/** Every disturbance a mistake is played under, once each: the correct client's cases. */
const CONTROLS: readonly Disturbance[] = [...new Set(MISTAKE_CASES.map((c) => c.disturbance))];

(PYTHON ? describe : describe.skip)('clients that make one mistake each', () => {
  const outcomes = new Map<string, Outcome>();
  const emulators: EmulatorHandle[] = [];

  beforeAll(async () => {
    const started = Date.now();
    const plays: Play[] = [
      ...MISTAKE_CASES.map((c) => ({ mistake: c.mistake, disturbance: c.disturbance })),
      ...CONTROLS.map((disturbance) => ({ mistake: CORRECT, disturbance })),
    ].sort((a, b) => b.disturbance.lastsMs - a.disturbance.lastsMs); // the longest start first
    // One emulator for each kind of device; every device listens before the first client starts.
    const fleets = await Promise.all(
      [false, true].map(async (small) => {
        const mine = plays.filter((p) => (p.disturbance.small ?? false) === small);
        const emulator = await startEmulator({
          scenarios: [{ scenario: baseScenario() }],
          devices: mine.length,
          device: { port: 0, ...(small ? SMALL_DEVICE : {}) },
          journalCapacity: 200_000,
        });
        emulators.push(emulator);
        return mine.map((p, index) => ({ ...p, emulator, index }));
      }),
    );
    const played = await Promise.all(fleets.flat().map((p) => play(p.emulator, p.index, p)));
    // Every client has stopped before the first report (a report holds the event loop).
    for (const { emulator, ...outcome } of played) {
      const report = emulator.report({ device: outcome.run.serial, thresholds: THRESHOLDS });
      outcomes.set(key(outcome), { ...outcome, report });
    }
    process.stderr.write(`mistake matrix: ${outcomes.size} clients played in ${Date.now() - started} ms\n`);
    process.stdout.write(`${recallTable(outcomes)}\n`);
    if (process.env.BWC_EMU_MATRIX_DUMP) writeFileSync(process.env.BWC_EMU_MATRIX_DUMP, dumpRuns(outcomes));
  }, 60_000);

  afterAll(async () => {
    await Promise.all(emulators.map((e) => e.close()));
  });

  describe.each(MISTAKE_CASES.map((c) => [c.mistake, c] as const))('%s', (_name, mistakeCase) => {
    const verb = mistakeCase.knownMiss ? 'is still not named (known miss)' : 'is named';
    it(`makes its mistake, and ${verb} by ${mistakeCase.rule} under ${mistakeCase.disturbance.name}`, () => {
      const { run, exit, report, error } = outcomeOf(outcomes, mistakeCase);
      if (error) throw error;
      expect({ exit, output: run.client.output }).toEqual({ exit: { code: 0, signal: null }, output: '' });
      mistakeCase.made(run);
      const found = rulesFound(report);
      const named = found.includes(mistakeCase.rule);
      if (named === !mistakeCase.knownMiss || (!named && mistakeCase.missedWhen?.holds(run))) return;
      throw new Error(
        (mistakeCase.knownMiss
          ? `${mistakeCase.rule} names the mistake now: remove the case's knownMiss (${mistakeCase.knownMiss})\n`
          : `${mistakeCase.rule} did not name the mistake; rules found: ${found.join(', ') || 'none'}\n`) +
          problems(report).join('\n'),
      );
    });
  });

  describe.each(CONTROLS.map((d) => [d.name, d] as const))('the correct client under %s', (_name, disturbance) => {
    it('goes through it and gets no warning or error', () => {
      const { run, exit, report, error } = outcomeOf(outcomes, { mistake: CORRECT, disturbance });
      if (error) throw error;
      expect({ exit, output: run.client.output }).toEqual({ exit: { code: 0, signal: null }, output: '' });
      disturbance.exercised(run);
      expect(problems(report)).toEqual([]);
    });
  });

  it(`names at least ${RECALL.named} in ${RECALL.of} mistakes by the right rule`, () => {
    const named = namedCount(outcomes);
    if (named * RECALL.of < MISTAKE_CASES.length * RECALL.named)
      throw new Error(`recall under ${RECALL.named} in ${RECALL.of}:\n${recallTable(outcomes)}`);
  });
});

describe('the one-mistake cases', () => {
  it('cover every mistake the client can make, and only those', () => {
    const dictionary = /^MISTAKES = \{\n([\s\S]*?)\n\}/m.exec(readFileSync(SCRIPT, 'utf8'))?.[1] ?? '';
    const known = [...dictionary.matchAll(/^\s+"([a-z0-9-]+)":/gm)].map((m) => m[1]).filter((m) => m !== CORRECT);
    expect([...known].sort()).toEqual(MISTAKE_CASES.map((c) => c.mistake).sort());
  });
});

/** Clients starting at once: Python interpreters loading together stall the emulator. */
const starting = startQueue(8);

/**
 * Starts the mistake client `play.mistake` on device `index`, disturbs it (once it has configured,
 * when there is a fault or an action), lets it run and stops it.
 */
async function play(
  emulator: EmulatorHandle,
  index: number,
  { mistake, disturbance }: Play,
): Promise<Omit<Outcome, 'report'> & { emulator: EmulatorHandle }> {
  const { device } = emulator.devices[index];
  const serial = device.serial;
  const args = [device.url, ...CLIENT_OPTIONS, '--duration', '60', '--mistake', mistake];
  const client = await starting(async () => {
    const started = new ReferenceClient('python', args, SCRIPT);
    await started.waitFor('start');
    return started;
  });
  const run = caseRun(emulator, serial, client);
  let error: Error | undefined;
  try {
    const { fault, then } = disturbance;
    if (fault || then) await client.waitFor('configured');
    const start = Date.now();
    if (fault) await emulator.fault(fault.name, fault.params, { device: serial });
    await then?.(run);
    // Real time by design: the clients are other processes, with their own clocks.
    await delay(Math.max(0, start + disturbance.lastsMs + SETTLE_MS - Date.now()));
  } catch (err) {
    error = err instanceof Error ? err : new Error(inspect(err));
  }
  return { emulator, mistake, disturbance, run, exit: await client.stop(), error };
}

/** The rules with a warning or an error in `report`. */
function rulesFound(report: GradingReport): string[] {
  return [...new Set(report.findings.filter((f) => f.severity !== 'info').map((f) => f.rule))].sort();
}

/** The table printed after the run: a row per mistake, then the correct client's rows, then the recall. */
function recallTable(outcomes: ReadonlyMap<string, Outcome>): string {
  const rows = [['mistake', 'disturbance', 'expected rule', 'named', 'rules found (warning, error)']];
  for (const c of MISTAKE_CASES) {
    const found = rulesFound(outcomeOf(outcomes, c).report);
    const named = found.includes(c.rule) ? 'yes' : missOf(c, outcomeOf(outcomes, c).run);
    rows.push([c.mistake, c.disturbance.name, c.rule, named, found.join(' ') || '-']);
  }
  for (const disturbance of CONTROLS) {
    const found = rulesFound(outcomeOf(outcomes, { mistake: CORRECT, disturbance }).report);
    rows.push([`(correct client)`, disturbance.name, '-', '-', found.join(' ') || '-']);
  }
  const named = namedCount(outcomes);
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const lines = rows.map((r) =>
    r
      .map((cell, i) => cell.padEnd(widths[i]))
      .join('  ')
      .trimEnd(),
  );
  return [...lines, `recall: ${named} of ${MISTAKE_CASES.length} named by the right rule`].join('\n');
}

/** What the table says of a mistake its rule did not name. */
function missOf(mistakeCase: MistakeCase, run: CaseRun): string {
  if (mistakeCase.knownMiss) return 'known miss';
  return mistakeCase.missedWhen?.holds(run) ? 'missed (known when)' : 'NO';
}

/** How many mistakes the rule that names each found. */
function namedCount(outcomes: ReadonlyMap<string, Outcome>): number {
  return MISTAKE_CASES.filter((c) => rulesFound(outcomeOf(outcomes, c).report).includes(c.rule)).length;
}

/** The outcome of `play`, or a failure saying it was not played. */
function outcomeOf(outcomes: ReadonlyMap<string, Outcome>, played: Play | MistakeCase): Outcome {
  const outcome = outcomes.get(key(played));
  if (!outcome) throw new Error(`${key(played)} was not played (see beforeAll)`);
  return outcome;
}

function key({ mistake, disturbance }: Play): string {
  return `${mistake} under ${disturbance.name}`;
}

/** Every device's scenario: the reference matrix's (motion, the Port toggling, the storm's topic named). */
function baseScenario(): Scenario {
  const loaded = loadScenario(BASE_SCENARIO, 'mistake-matrix.yaml');
  if (!loaded.ok) throw new Error(loaded.error.errors.map((e) => e.text).join('\n'));
  return loaded.value;
}
