import fc from 'fast-check';
import { listParameters, paramArguments, parseGroupPattern, selectParameters } from '../../../src/device/param-query';
import { type Parameter, parameterTree } from '../../../src/device/parameter-tree';
import { DEFAULT_INITIAL_STATES } from '../../../src/device/initial-states';
import { resolveIdentity } from '../../../src/device/identity';
import { propertyRuns } from '../../helpers/fast-check-config';

const tree = parameterTree({ identity: resolveIdentity('ACCC8E000001'), initialStates: [...DEFAULT_INITIAL_STATES] });

/** The paths a pattern selects in the device's tree. */
function select(pattern: string, from: readonly Parameter[] = tree): string[] {
  const segments = parseGroupPattern(pattern);
  if (!segments.ok) throw new Error(`expected ${JSON.stringify(pattern)} to parse: ${segments.error.message}`);
  return selectParameters(from, segments.value).map((p) => p.path);
}

describe('paramArguments', () => {
  it('reads action and group from the query', () => {
    expect(paramArguments('action=list&group=Brand')).toEqual({ action: 'list', groups: ['Brand'] });
    expect(paramArguments('action=list&group=root.Brand,Properties.Firmware')).toEqual({
      action: 'list',
      groups: ['root.Brand', 'Properties.Firmware'],
    });
  });

  it('reads a form body whatever its type, decoding + and percent escapes', () => {
    expect(paramArguments('', 'action=list&group=root.Brand')).toEqual({ action: 'list', groups: ['root.Brand'] });
    expect(paramArguments('', 'action=list&group=IOPort.%2A.Direction%2CImage.I0.Name+')).toEqual({
      action: 'list',
      groups: ['IOPort.*.Direction', 'Image.I0.Name '],
    });
  });

  it('merges query and body: every group, the last action (the body wins)', () => {
    expect(paramArguments('action=update&group=Brand', 'action=list&group=Input')).toEqual({
      action: 'list',
      groups: ['Brand', 'Input'],
    });
    expect(paramArguments('group=Brand&group=Output')).toEqual({ action: undefined, groups: ['Brand', 'Output'] });
  });

  it('takes no group, or only empty ones, as every group; keeps empty elements of a list', () => {
    expect(paramArguments('action=list').groups).toBeUndefined();
    expect(paramArguments('action=list&group=&group=').groups).toBeUndefined();
    expect(paramArguments('action=list&group=Brand,').groups).toEqual(['Brand', '']);
  });

  it('gets back what a client encoded, in the query or in the body', () => {
    const name = fc.string({ unit: 'grapheme', maxLength: 12 }).filter((s) => !s.includes(','));
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 12 }),
        fc.array(name, { minLength: 1, maxLength: 5 }),
        fc.boolean(),
        (action, groups, inBody) => {
          const form = new URLSearchParams({ action, group: groups.join(',') }).toString();
          const parsed = inBody ? paramArguments('', form) : paramArguments(form);
          expect(parsed.action).toBe(action);
          expect(parsed.groups).toEqual(groups.join(',') === '' ? undefined : groups);
        },
      ),
      propertyRuns(300),
    );
  });
});

describe('parseGroupPattern', () => {
  it('drops root., takes root alone as the whole tree, splits at dots', () => {
    expect(parseGroupPattern('root.Brand.ProdNbr')).toEqual({ ok: true, value: ['Brand', 'ProdNbr'] });
    expect(parseGroupPattern(' Brand ')).toEqual({ ok: true, value: ['Brand'] });
    expect(parseGroupPattern('root')).toEqual({ ok: true, value: [] });
  });

  it('refuses empty names with a reason', () => {
    expect(parseGroupPattern('')).toMatchObject({ ok: false, error: { code: 'empty-group' } });
    expect(parseGroupPattern('root.')).toMatchObject({ ok: false, error: { code: 'empty-segment' } });
    expect(parseGroupPattern('Brand..ProdNbr')).toMatchObject({ ok: false, error: { code: 'empty-segment' } });
    expect(parseGroupPattern('.Brand')).toMatchObject({ ok: false, error: { code: 'empty-segment' } });
  });

  it('never throws, and every accepted pattern has non-empty segments without dots', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (raw) => {
        const parsed = parseGroupPattern(raw);
        if (parsed.ok) for (const s of parsed.value) expect(s === '' || s.includes('.')).toBe(false);
      }),
      propertyRuns(500),
    );
  });
});

describe('selectParameters', () => {
  it('selects a group, a subgroup or one parameter', () => {
    expect(select('Brand')).toHaveLength(7);
    expect(select('Properties.Firmware')).toEqual([
      'Properties.Firmware.BuildDate',
      'Properties.Firmware.BuildNumber',
      'Properties.Firmware.Version',
    ]);
    expect(select('root.Input.NbrOfInputs')).toEqual(['Input.NbrOfInputs']);
    expect(select('Brand.ProdNbr.More')).toEqual([]);
    expect(select('brand')).toEqual([]);
  });

  it('lets * stand for one name, or for part of one', () => {
    expect(select('IOPort.*.Direction')).toEqual(['IOPort.I0.Direction', 'IOPort.I1.Direction']);
    expect(select('IOPort.*.Input.Name')).toEqual(['IOPort.I0.Input.Name', 'IOPort.I1.Input.Name']);
    expect(select('Image.*.Name')).toEqual(['Image.I0.Name']);
    expect(select('Properties.*')).toEqual(select('Properties'));
    expect(select('Brand.Prod*')).toHaveLength(5);
    expect(select('*.NbrOf*puts')).toEqual(['Input.NbrOfInputs', 'Output.NbrOfOutputs']);
    expect(select('Network.RTSP.*')).toEqual(select('Network.RTSP'));
    expect(select('root')).toHaveLength(tree.length);
  });

  it('selects exactly the parameter its full path names, with or without root.', () => {
    for (const p of tree) {
      expect(select(p.path)).toEqual([p.path]);
      expect(select(`root.${p.path}`)).toEqual([p.path]);
    }
  });

  it('keeps a parameter selected when any of its path names becomes *, and selects only matching ones', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...tree),
        fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
        fc.integer({ min: 1, max: 8 }),
        (parameter, stars, depth) => {
          const parts = parameter.path.split('.').slice(0, depth);
          const pattern = parts.map((part, i) => (stars[i] ? '*' : part));
          const selected = select(pattern.join('.'));
          expect(selected).toContain(parameter.path);
          for (const path of selected) {
            const names = path.split('.');
            pattern.forEach((part, i) => {
              if (part !== '*') expect(names[i]).toBe(part);
            });
          }
        },
      ),
      propertyRuns(300),
    );
  });

  it('matches * as a regular expression .* would, within one name', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[ab*]{0,8}$/), fc.stringMatching(/^[ab]{1,10}$/), (pattern, name) => {
        fc.pre(pattern !== '');
        const expected = new RegExp(`^${pattern.replace(/\*/g, '.*')}$`).test(name);
        expect(selectParameters([{ path: name, value: '' }], [pattern])).toHaveLength(expected ? 1 : 0);
      }),
      propertyRuns(1000),
    );
  });

  it('stays fast on a hostile pattern of many stars', () => {
    const started = Date.now();
    const hostile = `${'*a'.repeat(5000)}b`;
    expect(selectParameters([{ path: 'a'.repeat(200), value: '' }], [hostile])).toEqual([]);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe('listParameters', () => {
  it('answers root.Path=value lines, and the real error line for a group with nothing', () => {
    expect(listParameters(tree, ['Brand.ProdNbr', 'Nope', 'root.Input'])).toEqual({
      lines: ['root.Brand.ProdNbr=W110', "# Error: Error -1 getting param in group 'Nope'", 'root.Input.NbrOfInputs=2'],
      unmatched: ['Nope'],
    });
    expect(listParameters(tree, [' Brand..X ', '']).lines).toEqual([
      "# Error: Error -1 getting param in group 'Brand..X'",
      "# Error: Error -1 getting param in group ''",
    ]);
  });

  it('lists the whole tree without a group', () => {
    expect(listParameters(tree, undefined).lines).toEqual(tree.map((p) => `root.${p.path}=${p.value}`));
  });

  it('answers a list as the answers of its groups one after the other', () => {
    const pattern = fc.oneof(
      fc.constantFrom(...tree.map((p) => p.path), 'Brand', 'IOPort.*.Direction', 'root.Properties', 'Nope'),
      fc.string({ maxLength: 10 }),
    );
    fc.assert(
      fc.property(fc.array(pattern, { minLength: 1, maxLength: 6 }), (groups) => {
        const whole = listParameters(tree, groups).lines;
        expect(whole).toEqual(groups.flatMap((g) => listParameters(tree, [g]).lines));
      }),
      propertyRuns(200),
    );
  });
});
