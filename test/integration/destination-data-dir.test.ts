/**
 * The data directory of a content destination: one it made itself (no `dataDir`) is
 * removed at close, with what was stored in it; one it was given is never touched.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDestination } from '../../src';
import { login } from '../helpers/destinations';

describe('destination data directory', () => {
  it('removes the temporary directory it made at close, stored objects and all', async () => {
    const destination = await startDestination();
    const dir = destination.options.dataDir;
    try {
      expect(dir.startsWith(tmpdir())).toBe(true);
      const session = await login(destination);
      expect((await session.send('PUT', '/box')).status).toBe(201);
      expect((await session.send('PUT', '/box/file', { body: 'kept until close' })).status).toBe(201);
      expect(readdirSync(dir).length).toBeGreaterThan(0);
    } finally {
      await destination.close();
    }
    expect(existsSync(dir)).toBe(false);
  });

  it('leaves a directory it was given as it is', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bwc-own-data-'));
    try {
      const destination = await startDestination({ dataDir: dir });
      const session = await login(destination);
      expect((await session.send('PUT', '/box')).status).toBe(201);
      await destination.close();
      expect(readdirSync(dir).length).toBeGreaterThan(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
