/**
 * Every fault switch has an end-to-end test: the names in the `describeFault(...)` calls of
 * this folder's test files are exactly the catalogue's switches.
 */
import { FAULT_NAMES } from '../../../src';
import { describedNames } from '../../helpers/described-names';

const described = () => describedNames(__dirname, 'describeFault', __filename);

describe('fault switch coverage', () => {
  it('finds the e2e test files', () => {
    expect(described().files.length).toBeGreaterThan(0);
  });

  it('every switch in FAULT_CATALOGUE has an end-to-end test, and every describeFault names a switch', () => {
    const { names } = described();
    const switches = new Set<string>(FAULT_NAMES);
    const untested = FAULT_NAMES.filter((name) => !names.has(name));
    const notSwitches = [...names].filter((name) => !switches.has(name)).sort();
    expect({ untested, notSwitches }).toEqual({ untested: [], notSwitches: [] });
  });
});
