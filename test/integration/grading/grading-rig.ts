/**
 * What the end-to-end tests of the grading rules share: `describeRule` (whose names
 * coverage.test.ts collects, so every rule must have one), and a rig that starts an
 * emulator on a manual clock (the journal's times, token and nonce lifetimes, refused
 * logins all follow it: a test moves time instead of sleeping) and closes it after each test.
 */
import { type EmulatorHandle, loadScenario, startEmulator } from '../../../src';
import { ManualClock } from '../../../src/base/clock';
import type { JournalEntry } from '../../../src/base/journal';
import type { DeviceOptions } from '../../../src/device/device-options';
import type { Finding } from '../../../src/grading/report';
import type { RuleId } from '../../../src/grading/rule-catalogue';
import { openWithToken, type StreamClient } from '../../helpers/event-stream-client';

/** The e2e tests of rule `id`: `describe('rule <id>')`. coverage.test.ts counts these. */
export function describeRule(id: RuleId, fn: () => void): void {
  describe(`rule ${id}`, fn);
}

/** Topics the rig's scenario publishes (so filter rules know them). */
export const PORT = 'tns1:Device/tnsvendor:IO/Port';
export const MOTION = 'tns1:VideoSource/MotionAlarm';

/** A scenario that publishes nothing on its own but names its topics, and starts with a Port state. */
const RIG_SCENARIO = [
  'name: grading rig',
  'states:',
  `  - { topic: "${PORT}", source: { port: "1" }, data: { state: "0" } }`,
  'timeline:',
  '  - pause: 1h',
  '  - { emit: { topic: "tns1:VideoSource/MotionAlarm", data: { State: "1" } } }',
].join('\n');

/** An emulator of one device on a manual clock, and what tests do with it. */
export interface GradingRun {
  readonly emulator: EmulatorHandle;
  readonly clock: ManualClock;
  /** The device's handle (its URLs, tokens, faults). */
  readonly device: EmulatorHandle['devices'][number]['device'];
  /** Moves the clock (journal times, token and nonce ages). */
  advance(ms: number): void;
  /** The findings of the report now; only those of `rule` when given. */
  findings(rule?: RuleId): Finding[];
  /** Opens a session with a fresh token (closed after the test). */
  open(): Promise<StreamClient>;
  /** Closes `client` after the test too. */
  track(client: StreamClient): StreamClient;
}

/** Registers the `afterEach` that closes what the returned starter started. */
export function gradingRig(): (options?: DeviceOptions, scenario?: string) => Promise<GradingRun> {
  const running: EmulatorHandle[] = [];
  const clients: StreamClient[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((e) => e.close()));
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });
  return async (options = {}, scenario = RIG_SCENARIO) => {
    const clock = new ManualClock(Date.parse('2026-06-01T10:00:00.000Z'));
    const loaded = loadScenario(scenario, 'rig.yaml');
    if (!loaded.ok) throw new Error(loaded.error.errors.map((e) => e.text).join('\n'));
    const emulator = await startEmulator({
      scenarios: [{ scenario: loaded.value }],
      device: { port: 0, clock, ...options },
    });
    running.push(emulator);
    const track = (client: StreamClient): StreamClient => {
      clients.push(client);
      return client;
    };
    const device = emulator.devices[0].device;
    return {
      emulator,
      clock,
      device,
      advance: (ms) => clock.advance(ms),
      findings: (rule) => emulator.report().findings.filter((f) => rule === undefined || f.rule === rule),
      open: async () => track(await openWithToken(device)),
      track,
    };
  };
}

/** Resolves once `ready()` holds; polls every few ms, fails after `timeoutMs` (only a broken test waits that long). */
export async function until(what: string, ready: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** The journal entries of `kind`. */
export function entries(run: GradingRun, kind: JournalEntry['kind']): JournalEntry[] {
  return run.emulator.journal({ kind });
}
