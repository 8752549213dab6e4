/** Atomic writes, async and synchronous: the file is the old content or the new, never part, and no temp file is left. */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFileAtomic, writeFileAtomicSync } from '../../../src/base/atomic-file';

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'bwc-atomic-'));
  dirs.push(dir);
  return dir;
}

const writers = {
  writeFileAtomic: (file: string, content: string) => writeFileAtomic(file, content),
  writeFileAtomicSync: (file: string, content: string) =>
    new Promise<void>((resolve) => resolve(writeFileAtomicSync(file, content))),
};

describe.each(Object.entries(writers))('%s', (_name, write) => {
  it('creates the file, with its directory, and replaces it whole', async () => {
    const dir = tempDir();
    const file = join(dir, 'nested', 'state.json');
    await write(file, 'first');
    expect(readFileSync(file, 'utf8')).toBe('first');
    await write(file, 'second');
    expect(readFileSync(file, 'utf8')).toBe('second');
    expect(readdirSync(join(dir, 'nested'))).toEqual(['state.json']);
  });

  it('throws when the disk refuses, and leaves neither the file nor a temp file', async () => {
    const dir = tempDir();
    const notADir = join(dir, 'a-file');
    writeFileSync(notADir, '');
    await expect(write(join(notADir, 'state.json'), 'x')).rejects.toThrow();
    const target = join(dir, 'target');
    writeFileSync(target, 'old');
    // A directory where the file should go: the rename fails after the temp file was written.
    const blocked = join(dir, 'blocked');
    await write(join(blocked, 'inner'), 'x');
    await expect(write(blocked, 'new')).rejects.toThrow();
    expect(readdirSync(dir).sort()).toEqual(['a-file', 'blocked', 'target']);
    expect(readFileSync(target, 'utf8')).toBe('old');
  });
});
