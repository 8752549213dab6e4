/** withNamespace: a scenario written in the neutral `tnsvendor:` namespace, as a device of another persona plays it. */
import { readFileSync } from 'node:fs';
import { TOPIC_PATH } from '../../../src/events/event-bus';
import { loadScenario } from '../../../src/scenario/load';
import type { Scenario, Step } from '../../../src/scenario/schema';
import { shippedScenarios } from '../../../src/scenario/shipped';
import { withNamespace } from '../../../src/scenario/template';

const scenario = (text: string, file = 't.yaml'): Scenario => {
  const loaded = loadScenario(text, file);
  if (!loaded.ok) throw new Error(loaded.error.message);
  return loaded.value;
};

/** Every topic of a scenario, wherever a step or state names one. */
function topics(s: Scenario): string[] {
  const fromStep = (step: Step): string[] => [
    ...(step.emit ? [step.emit.topic] : []),
    ...(step.set ? [step.set.topic] : []),
    ...(step.on !== undefined && step.on !== 'connect' ? [step.on.configure] : []),
    ...(step.steps ?? []).flatMap(fromStep),
  ];
  return [
    ...(s.states ?? []).map((state) => state.topic),
    ...Object.values(s.groups ?? {}).flatMap((steps) => steps.flatMap(fromStep)),
    ...(s.timeline ?? []).flatMap(fromStep),
  ];
}

const TEXT = [
  'states:',
  '  - { topic: tns1:Device/tnsvendor:IO/Port, source: { port: 1 }, data: { state: 0 } }',
  'groups:',
  '  g:',
  '    - emit: { topic: tns1:Device/tnsvendor:IO/VirtualInput, data: { note: "tnsvendor:IO stays in values" } }',
  '    - steps:',
  '        - set: { topic: tns1:Device/tnsvendor:IO/Port, data: { state: 1 } }',
  'timeline:',
  '  - run: g',
  '  - { at: 1s, emit: { topic: tns1:VideoSource/MotionAlarm, data: { State: 1 } } }',
  '  - on: { configure: tns1:Device/tnsvendor:Status/SystemReady }',
  '    steps: [ { emit: { topic: tns1:Device/tnsvendor:Status/SystemReady, data: { ready: 1 } } } ]',
  '  - { on: connect, emit: { topic: tnsvendor:Root } }',
  '',
].join('\n');

describe('withNamespace', () => {
  it('renames every topic, in states, groups, nested steps and triggers, and leaves values alone', () => {
    const original = scenario(TEXT);
    const renamed = withNamespace(original, 'tnsaxis');
    expect(topics(renamed)).toEqual([
      'tns1:Device/tnsaxis:IO/Port',
      'tns1:Device/tnsaxis:IO/VirtualInput',
      'tns1:Device/tnsaxis:IO/Port',
      'tns1:VideoSource/MotionAlarm',
      'tns1:Device/tnsaxis:Status/SystemReady',
      'tns1:Device/tnsaxis:Status/SystemReady',
      'tnsaxis:Root',
    ]);
    expect(renamed.groups?.g[0].emit?.data).toEqual({ note: 'tnsvendor:IO stays in values' });
    expect(renamed.timeline?.[1].at).toBe(1000);
    expect(renamed.timeline?.[3].on).toBe('connect');
  });

  it('leaves the original untouched, and returns it as is for the neutral namespace', () => {
    const original = scenario(TEXT);
    const before = JSON.stringify(original);
    withNamespace(original, 'tnsaxis');
    expect(JSON.stringify(original)).toBe(before);
    expect(withNamespace(original, 'tnsvendor')).toBe(original);
  });

  it.each(shippedScenarios().map((s) => [s.name, s.file]))(
    'shipped %s: every topic stays a topic path, none keeps tnsvendor',
    (_name, file) => {
      const original = scenario(readFileSync(file, 'utf8'), file);
      const renamed = withNamespace(original, 'tnsaxis');
      expect(topics(renamed)).toHaveLength(topics(original).length);
      for (const t of topics(renamed)) {
        expect(t).toMatch(TOPIC_PATH);
        expect(t).not.toContain('tnsvendor:');
      }
      expect(topics(renamed)).toEqual(topics(original).map((t) => t.replaceAll('tnsvendor:', 'tnsaxis:')));
    },
  );
});
