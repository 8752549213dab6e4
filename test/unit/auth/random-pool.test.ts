import { pooledRandomBytes } from '../../../src/auth/random-pool';

describe('pooledRandomBytes', () => {
  it('hands out the bytes asked for, never the same bytes twice', () => {
    const draw = pooledRandomBytes(64);
    const parts = Array.from({ length: 20 }, () => Buffer.from(draw(16)).toString('hex'));
    for (const part of parts) expect(part).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(parts).size).toBe(parts.length);
  });

  it('gives copies: a draw past the pool refill leaves earlier bytes as they were', () => {
    const draw = pooledRandomBytes(32);
    const first = draw(32);
    const kept = Buffer.from(first).toString('hex');
    draw(32);
    expect(Buffer.from(first).toString('hex')).toBe(kept);
  });

  it('serves a draw larger than its pool', () => {
    expect(pooledRandomBytes(16)(100)).toHaveLength(100);
  });
});
