import { loadScenario } from '../../../src/scenario/load';
import { fillPlaceholders, hasPlaceholders } from '../../../src/scenario/template';

const scenario = (text: string) => {
  const loaded = loadScenario(text, 't.yaml');
  if (!loaded.ok) throw new Error(loaded.error.message);
  return loaded.value;
};

describe('scenario placeholders', () => {
  const text = [
    'groups:',
    '  g:',
    '    - emit: { topic: tns1:A, data: { who: "cam {{serial}} #{{index}}" } }',
    'timeline:',
    '  - run: g',
    '  - emit: { topic: tns1:B, source: { s: "{{ serial }}{{serial}}" }, key: { n: "{{index}}" } }',
    '',
  ].join('\n');

  it('replaces {{serial}} and {{index}} in every string value, spaces inside the braces allowed', () => {
    const filled = fillPlaceholders(scenario(text), { serial: 'X1', index: 7 });
    expect(filled.groups?.g[0].emit?.data).toEqual({ who: 'cam X1 #7' });
    expect(filled.timeline?.[1].emit).toMatchObject({ source: { s: 'X1X1' }, key: { n: '7' } });
  });

  it('knows whether a scenario has any, and leaves other braces alone', () => {
    expect(hasPlaceholders(scenario(text))).toBe(true);
    expect(hasPlaceholders(scenario('timeline:\n  - emit: { topic: tns1:A, data: { v: "{{other}}" } }\n'))).toBe(false);
    const other = fillPlaceholders(scenario('timeline:\n  - emit: { topic: tns1:A, data: { v: "{{other}}" } }\n'), {
      serial: 'S',
      index: 0,
    });
    expect(other.timeline?.[0].emit?.data).toEqual({ v: '{{other}}' });
  });
});
