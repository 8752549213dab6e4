import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { scenarioPath, SHIPPED_SCENARIOS_DIR, shippedScenarios } from '../../../src/scenario/shipped';

describe('shipped scenarios', () => {
  it('finds the package scenarios folder', () => {
    expect(existsSync(join(SHIPPED_SCENARIOS_DIR, 'default.yaml'))).toBe(true);
  });

  it('resolves a bare name to the shipped file and leaves paths and unknown names alone', () => {
    expect(scenarioPath('motion')).toBe(join(SHIPPED_SCENARIOS_DIR, 'motion.yaml'));
    expect(scenarioPath('./motion')).toBe('./motion');
    expect(scenarioPath('motion.yaml')).toBe(join(SHIPPED_SCENARIOS_DIR, 'motion.yaml')); // none in the cwd
    expect(scenarioPath('no-such.yaml')).toBe('no-such.yaml');
    expect(scenarioPath('dir\\motion')).toBe('dir\\motion');
    expect(scenarioPath('no-such-scenario')).toBe('no-such-scenario');
  });

  it('lists every shipped scenario with its description, by name', () => {
    const list = shippedScenarios();
    const names = list.map((s) => s.name);
    expect(names).toEqual([...names].sort());
    expect(names).toEqual(expect.arrayContaining(['default', 'motion', 'io-port', 'body-worn-shift', 'flaky-network']));
    for (const s of list) {
      expect(s.description).not.toBe('');
      expect(s.file).toBe(join(SHIPPED_SCENARIOS_DIR, `${s.name}.yaml`));
    }
  });
});
