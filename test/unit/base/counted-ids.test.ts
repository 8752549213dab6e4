import { countedIds } from '../../../src/base/counted-ids';

describe('countedIds', () => {
  it('makes ids of random hex digits for the maker, then a count', () => {
    const next = countedIds(4, 8);
    const [a, b] = [next(), next()];
    expect(a).toMatch(/^[0-9a-f]{8}00000000$/);
    expect(b).toBe(`${a.slice(0, 8)}00000001`);
    expect(countedIds(4, 8)().slice(0, 8)).not.toBe(a.slice(0, 8));
  });

  it('draws new random digits once the count runs out, so no id repeats', () => {
    const next = countedIds(4, 1);
    const ids = Array.from({ length: 48 }, next);
    expect(new Set(ids).size).toBe(48);
    expect(ids[15]).toMatch(/f$/);
    expect(ids[16]).toMatch(/0$/);
    expect(ids[16].slice(0, 8)).not.toBe(ids[15].slice(0, 8));
  });
});
