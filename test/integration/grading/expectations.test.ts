/**
 * A scenario's `expect:` step over real sockets: pending while its time runs, held when the
 * client configures in time, broken when it does not. The scenario player runs on real
 * timers (its steps come at `at: 0s`, right after the start); the journal and the grader
 * follow the rig's manual clock, which the tests move.
 */
import type { ExpectationResult } from '../../../src/grading/report';
import { MOTION, PORT, gradingRig, type GradingRun } from './grading-rig';

const start = gradingRig();

/** Drops every session at once, then expects the client back on the motion topic within 60 s. */
const SCENARIO = [
  'name: expect back',
  'states:',
  `  - { topic: "${PORT}", source: { port: "1" }, data: { state: "0" } }`,
  'timeline:',
  '  - { at: 0s, disconnect: { code: 1011, reason: "restarting the event service" } }',
  `  - expect: { name: back, that: configured, topic: "${MOTION}", within: 60s }`,
  '  - pause: 1h',
  `  - { emit: { topic: "${MOTION}", data: { State: "1" } } }`,
].join('\n');

/** Resolves once `ready()` holds; polls every few ms, fails after `timeoutMs`. */
async function until(what: string, ready: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** Starts the rig with the scenario and waits until its expect step has run. */
async function startExpecting(): Promise<GradingRun> {
  const run = await start({}, SCENARIO);
  await until('the expect step', () => run.emulator.journal({ kind: 'expect' }).length === 1);
  return run;
}

/** The report's expectations. */
function expectations(run: GradingRun): readonly ExpectationResult[] {
  return run.emulator.report().expectations;
}

const SINCE = '2026-06-01T10:00:00.000Z';

describe('scenario expect: configured', () => {
  it('records the step in the journal and is pending while its 60 s run', async () => {
    const run = await startExpecting();
    expect(run.emulator.journal({ kind: 'expect' })).toEqual([
      expect.objectContaining({ kind: 'expect', name: 'back', that: 'configured', topic: MOTION, withinMs: 60_000 }),
    ]);
    run.advance(59_000);
    expect(expectations(run)).toEqual([
      {
        device: run.device.serial,
        name: 'back',
        that: 'configured',
        topic: MOTION,
        since: SINCE,
        withinMs: 60_000,
        status: 'pending',
        tookMs: undefined,
        evidence: undefined,
        segment: { index: 1, name: 'segment 1' },
      },
    ]);
    expect(run.emulator.report().summary.expectationsBroken).toBe(0);
  });

  it('holds when the client configures the motion topic 20 s after the step', async () => {
    const run = await startExpecting();
    run.advance(20_000);
    const client = await run.open();
    expect((await client.configure([{ topicFilter: MOTION }])).error).toBeUndefined();
    run.advance(60_000);
    const [result] = expectations(run);
    expect(result).toMatchObject({ name: 'back', status: 'held', tookMs: 20_000, since: SINCE });
    expect(result.evidence).toMatchObject({ kind: 'configure', filters: [{ topicFilter: MOTION }] });
    expect(run.emulator.report().summary.expectationsBroken).toBe(0);
    expect(run.findings()).toEqual([]);
  });

  it('is broken when 61 s pass without a configure, or with one for another topic only', async () => {
    const run = await startExpecting();
    run.advance(5000);
    const client = await run.open();
    expect((await client.configure([{ topicFilter: PORT }])).error).toBeUndefined();
    run.advance(56_000);
    const [result] = expectations(run);
    expect(result).toMatchObject({ name: 'back', status: 'broken', tookMs: undefined, evidence: undefined });
    expect(run.emulator.report().summary.expectationsBroken).toBe(1);
  });

  it('is broken, with the time it took, when the client configures 90 s after the step', async () => {
    const run = await startExpecting();
    run.advance(90_000);
    const client = await run.open();
    expect((await client.configure([{ topicFilter: `${MOTION}|${PORT}` }])).error).toBeUndefined();
    const [result] = expectations(run);
    expect(result).toMatchObject({ status: 'broken', tookMs: 90_000 });
    expect(result.evidence).toMatchObject({ kind: 'configure' });
    expect(run.emulator.report().summary.expectationsBroken).toBe(1);
  });
});
