/**
 * The reference well-behaved clients (examples/reference-clients, Python and Node) under every
 * fault switch and every scenario step that disturbs clients (reference-cases.ts), all at once
 * in real time: one emulator with a device per case and client (the grader tells clients apart
 * by device and address), each client its own process, the timings shortened and the grading
 * thresholds scaled to them. A correct client must get no warning or error; each case also
 * shows that the client went through it. The HTTPS case runs on a second emulator of the same
 * process (TLS is an option of every device of an emulator).
 *
 * The coverage tests fail when a fault switch, a value of one of its modes, or a scenario
 * action has no case (or no exemption with a reason).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { inspect } from 'node:util';
import { z } from 'zod';
import { type EmulatorHandle, loadScenario, startEmulator } from '../../../src';
import type { GradingReport } from '../../../src/grading/report';
import { RULE_IDS } from '../../../src/grading/rule-catalogue';
import { FAULT_CATALOGUE, FAULT_NAMES, type FaultName } from '../../../src/protocol/fault-catalogue';
import { ACTION_KEYS, type Scenario, type Step } from '../../../src/scenario/schema';
import { pythonModules } from '../../helpers/python-script';
import { type CaseRun, caseRun, dumpRuns, problems } from './reference-checks';
import { EXEMPT_FAULTS, MATRIX_CASES, type MatrixCase, UNDISTURBING_ACTIONS } from './reference-cases';
import { BASE_SCENARIO, CLIENT_OPTIONS, SETTLE_MS, THRESHOLDS } from './reference-settings';
import { CLIENT_KINDS, type ClientExit, type ClientKind, ReferenceClient, startQueue } from './reference-client';

/** Checked when the file loads: without Python's modules only the Node client runs (or the run fails in CI). */
const PYTHON = pythonModules(['requests', 'websocket'], 'reference matrix (Python client)');
const KINDS = CLIENT_KINDS.filter((kind) => kind !== 'python' || PYTHON !== undefined);

/** What one client did under one case. */
interface Outcome {
  readonly matrixCase: MatrixCase;
  readonly run: CaseRun;
  readonly exit: ClientExit;
  readonly report: GradingReport;
  /** What went wrong while the case was played (a wait that timed out), if anything. */
  readonly error: Error | undefined;
}

describe('the reference clients under every fault and disturbing scenario step', () => {
  const outcomes = new Map<string, Outcome>();
  const emulators: EmulatorHandle[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'bwc-matrix-'));

  beforeAll(async () => {
    const started = Date.now();
    // Every device listens before the first client starts, and every client has stopped before
    // the first report: a report blocks the emulator's event loop, which would hold back the
    // pongs of clients still running.
    const fleets = await Promise.all(
      [false, true].map(async (tls) => {
        const cases = MATRIX_CASES.filter((c) => (c.tls ?? false) === tls);
        if (cases.length === 0) return [];
        const emulator = await startEmulator({
          scenarios: [{ scenario: scenarioWith([]) }],
          devices: cases.length * KINDS.length,
          device: { port: 0, tls },
          journalCapacity: 500_000,
        });
        emulators.push(emulator);
        return cases.flatMap((matrixCase, i) =>
          KINDS.map((kind, k) => ({ emulator, index: i * KINDS.length + k, matrixCase, kind })),
        );
      }),
    );
    const played = await Promise.all(fleets.flat().map((p) => play(p.emulator, p.index, p.matrixCase, p.kind, dir)));
    for (const { emulator, run, ...rest } of played) {
      const report = emulator.report({ device: run.serial, thresholds: THRESHOLDS });
      outcomes.set(key(rest.matrixCase, run.client.kind), { ...rest, run, report });
    }
    process.stderr.write(`reference matrix: ${outcomes.size} clients played in ${Date.now() - started} ms\n`);
    if (process.env.BWC_EMU_MATRIX_DUMP) writeFileSync(process.env.BWC_EMU_MATRIX_DUMP, dumpRuns(outcomes));
  }, 90_000);

  afterAll(async () => {
    await Promise.all(emulators.map((e) => e.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  describe.each(MATRIX_CASES.map((c) => [c.name, c] as const))('%s', (_name, matrixCase) => {
    // A client that cannot run here is skipped (pythonModules said why when the file loaded).
    for (const kind of CLIENT_KINDS)
      (KINDS.includes(kind) ? it : it.skip)(`the ${kind} client gets no warning or error`, () => {
        const outcome = outcomes.get(key(matrixCase, kind));
        if (!outcome) throw new Error('the case was not played (see beforeAll)');
        const { run, exit, report, error } = outcome;
        if (error) throw error;
        expect({ exit, output: run.client.output }).toEqual({ exit: { code: 0, signal: null }, output: '' });
        matrixCase.exercised(run, report);
        expect([...report.rules.map((r) => r.id)].sort()).toEqual([...RULE_IDS].sort());
        expect(problems(report)).toEqual([]);
      });
  });
});

describe('reference matrix coverage', () => {
  it('has a case for every fault switch, or an exemption with its reason', () => {
    const covered = new Set(casesFaults().map((f) => f.name));
    const missing = FAULT_NAMES.filter((name) => !covered.has(name) && !EXEMPT_FAULTS[name]?.trim());
    const exemptButCovered = FAULT_NAMES.filter((name) => covered.has(name) && EXEMPT_FAULTS[name] !== undefined);
    expect({ missing, exemptButCovered }).toEqual({ missing: [], exemptButCovered: [] });
  });

  it('has a case for every value of every mode of a switch (enums, booleans, literals)', () => {
    const faults = casesFaults();
    const missing: string[] = [];
    for (const name of FAULT_NAMES.filter((n) => !EXEMPT_FAULTS[n])) {
      const shape = (FAULT_CATALOGUE[name].params as unknown as z.ZodObject).shape;
      for (const [param, schema] of Object.entries(shape))
        for (const value of modeValues(schema as z.ZodType) ?? [])
          if (!faults.some((f) => f.name === name && f.params[param] === value))
            missing.push(`${name} ${param}=${String(value)}`);
    }
    expect(missing).toEqual([]);
  });

  it('has a case for every scenario action that disturbs clients; the others say why they do not', () => {
    const played = new Set(
      MATRIX_CASES.flatMap((c) => addedSteps(c)).flatMap((s) => ACTION_KEYS.filter((k) => k in s)),
    );
    const missing = ACTION_KEYS.filter((k) => !played.has(k) && !UNDISTURBING_ACTIONS[k]?.trim());
    expect(missing).toEqual([]);
  });
});

/** Clients starting at once: spawning and loading fifty interpreters together stalls the emulator. */
const starting = startQueue(8);

/** Starts the `kind` client on device `index`, plays the case on it and stops the client. */
async function play(
  emulator: EmulatorHandle,
  index: number,
  matrixCase: MatrixCase,
  kind: ClientKind,
  dir: string,
): Promise<Omit<Outcome, 'report'> & { emulator: EmulatorHandle }> {
  const { device } = emulator.devices[index];
  const serial = device.serial;
  const options = [...CLIENT_OPTIONS];
  if (device.certificate !== undefined) {
    const caFile = join(dir, `${serial}.pem`);
    writeFileSync(caFile, device.certificate);
    options.push('--ca-file', caFile);
  }
  const client = await starting(async () => {
    const started = new ReferenceClient(kind, [device.url, ...options, '--duration', '60']);
    await started.waitFor('start');
    return started;
  });
  const run = caseRun(emulator, serial, client);
  let error: Error | undefined;
  try {
    await client.waitFor('configured');
    const start = Date.now();
    const { fault, steps } = matrixCase;
    // One call for every switch: the case's table types the parameters per switch.
    if (fault) await emulator.fault(fault.name, fault.params, { device: serial });
    if (steps) emulator.setScenario(scenarioWith(steps), { device: serial });
    await matrixCase.then?.(run);
    // Real time by design: the clients are other processes, with their own clocks.
    await delay(Math.max(0, start + (matrixCase.lastsMs ?? 0) + SETTLE_MS - Date.now()));
  } catch (err) {
    error = err instanceof Error ? err : new Error(inspect(err));
  }
  return { emulator, matrixCase, run, exit: await client.stop(), error };
}

/** The base scenario with `steps` (YAML flow maps) added to its timeline. */
function scenarioWith(steps: readonly string[]): Scenario {
  const text = [BASE_SCENARIO, ...steps.map((step) => `  - ${step}`)].join('\n');
  const loaded = loadScenario(text, 'reference-matrix.yaml');
  if (!loaded.ok) throw new Error(loaded.error.errors.map((e) => e.text).join('\n'));
  return loaded.value;
}

/** The steps a case adds to the base scenario, as loaded. */
function addedSteps(matrixCase: MatrixCase): Step[] {
  const steps = matrixCase.steps ?? [];
  return steps.length === 0 ? [] : (scenarioWith(steps).timeline ?? []).slice(-steps.length);
}

/** Every switch the cases turn on (directly or by a scenario step), its parameters with defaults filled in. */
function casesFaults(): { name: FaultName; params: Record<string, unknown> }[] {
  return MATRIX_CASES.flatMap((c) => [
    ...(c.fault
      ? [
          {
            name: c.fault.name,
            params: FAULT_CATALOGUE[c.fault.name].params.parse(c.fault.params) as Record<string, unknown>,
          },
        ]
      : []),
    ...addedSteps(c).flatMap((s) => (s.fault ? [s.fault] : [])),
  ]);
}

/** The values a mode parameter takes (an enum, a boolean, literals; `undefined` too when optional); undefined for others. */
function modeValues(schema: z.ZodType): unknown[] | undefined {
  let inner = schema;
  let optional = false;
  for (;;) {
    if (inner instanceof z.ZodOptional) optional = true;
    else if (!(inner instanceof z.ZodDefault)) break;
    inner = inner.unwrap() as z.ZodType;
  }
  let values: unknown[] | undefined;
  if (inner instanceof z.ZodEnum) values = inner.options;
  else if (inner instanceof z.ZodBoolean) values = [true, false];
  else if (inner instanceof z.ZodLiteral) values = [...inner.values];
  return values && optional ? [...values, undefined] : values;
}

function key(matrixCase: MatrixCase, kind: ClientKind): string {
  return `${matrixCase.name} ${kind}`;
}
