/**
 * Start-up loading of a content destination's data directory never follows a symbolic
 * link: a link inside the data directory (where a container directory, its `objects`
 * directory, a record or a data file is expected) stops the start with an error naming
 * it, and nothing it points to is read or removed. The data directory itself may be a link.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmulatorError, startDestination } from '../../src';
import { login } from '../helpers/destinations';

interface Layout {
  root: string;
  dataDir: string;
  outside: string;
  accountDir: string;
  containerDir: string;
  objectsDir: string;
}

/** A data directory holding one account with container `box` and object `file`, and a directory outside it. */
async function storedLayout(): Promise<Layout> {
  const root = mkdtempSync(join(tmpdir(), 'bwc-links-'));
  const dataDir = join(root, 'data');
  const outside = join(root, 'outside');
  mkdirSync(dataDir);
  mkdirSync(outside);
  const destination = await startDestination({ dataDir });
  try {
    const session = await login(destination);
    expect((await session.send('PUT', '/box')).status).toBe(201);
    expect((await session.send('PUT', '/box/file', { body: 'stored' })).status).toBe(201);
  } finally {
    await destination.close();
  }
  const dirsIn = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => join(dir, e.name));
  const isBox = (dir: string): boolean =>
    existsSync(join(dir, 'container.json')) &&
    (JSON.parse(readFileSync(join(dir, 'container.json'), 'utf8')) as { name: string }).name === 'box';
  const accountDir = dirsIn(dataDir).find((dir) => dirsIn(dir).some(isBox));
  const containerDir = accountDir && dirsIn(accountDir).find(isBox);
  if (!accountDir || !containerDir) throw new Error('no directory of container box was written');
  return { root, dataDir, outside, accountDir, containerDir, objectsDir: join(containerDir, 'objects') };
}

async function startFailure(dataDir: string): Promise<EmulatorError> {
  let destination: Awaited<ReturnType<typeof startDestination>> | undefined;
  try {
    destination = await startDestination({ dataDir });
  } catch (err) {
    return err as EmulatorError;
  }
  await destination.close();
  throw new Error('the destination started on a data directory holding a symbolic link');
}

describe('destination data directory with symbolic links', () => {
  let layout: Layout;
  beforeEach(async () => {
    layout = await storedLayout();
  });
  afterEach(() => {
    rmSync(layout.root, { recursive: true, force: true });
  });

  it('refuses links named like leftovers in objects/ and leaves what they point to', async () => {
    const target = join(layout.outside, 'precious.bin');
    writeFileSync(target, 'not the destination’s');
    const link = join(layout.objectsDir, '.x.part');
    symlinkSync(target, link);
    const err = await startFailure(layout.dataDir);
    expect(err).toBeInstanceOf(EmulatorError);
    expect(err.code).toBe('BAD_OPTION');
    expect(err.message).toContain(link);
    expect(err.message).toContain('outside the data directory');
    expect(existsSync(target)).toBe(true);
    expect(existsSync(link)).toBe(true);
  });

  it('refuses an unreferenced-looking data file link', async () => {
    const target = join(layout.outside, 'other.bin');
    writeFileSync(target, 'keep');
    const link = join(layout.objectsDir, 'y.data');
    symlinkSync(target, link);
    const err = await startFailure(layout.dataDir);
    expect(err.message).toContain(link);
    expect(existsSync(target)).toBe(true);
  });

  it('refuses a container directory that is a link to outside, and removes nothing there', async () => {
    const evil = join(layout.outside, 'evil');
    mkdirSync(join(evil, 'objects'), { recursive: true });
    writeFileSync(join(evil, 'container.json'), JSON.stringify({ name: 'evil', created: 0, metadata: {} }));
    writeFileSync(join(evil, 'objects', 'old.part'), 'keep');
    writeFileSync(join(evil, 'objects', 'orphan.data'), 'keep');
    const link = join(layout.accountDir, 'evil~0000000000000000');
    symlinkSync(evil, link);
    const err = await startFailure(layout.dataDir);
    expect(err.code).toBe('BAD_OPTION');
    expect(err.message).toContain(link);
    expect(err.message).toContain('outside the data directory');
    expect(existsSync(join(evil, 'objects', 'old.part'))).toBe(true);
    expect(existsSync(join(evil, 'objects', 'orphan.data'))).toBe(true);
  });

  it('refuses an objects directory that is a link to outside, and removes nothing there', async () => {
    const elsewhere = join(layout.outside, 'objects');
    mkdirSync(elsewhere);
    writeFileSync(join(elsewhere, 'stale.part'), 'keep');
    writeFileSync(join(elsewhere, 'unnamed.data'), 'keep');
    rmSync(layout.objectsDir, { recursive: true });
    symlinkSync(elsewhere, layout.objectsDir);
    const err = await startFailure(layout.dataDir);
    expect(err.code).toBe('BAD_OPTION');
    expect(err.message).toContain(layout.objectsDir);
    expect(existsSync(join(elsewhere, 'stale.part'))).toBe(true);
    expect(existsSync(join(elsewhere, 'unnamed.data'))).toBe(true);
  });

  it('refuses a link that stays inside the data directory too, saying so', async () => {
    const link = join(layout.objectsDir, 'z.tmp');
    symlinkSync(join(layout.containerDir, 'container.json'), link);
    const err = await startFailure(layout.dataDir);
    expect(err.code).toBe('BAD_OPTION');
    expect(err.message).toContain(link);
    expect(err.message).toContain('inside the data directory');
    expect(existsSync(join(layout.containerDir, 'container.json'))).toBe(true);
  });

  it('loads a data directory without links, also when the data directory itself is a link', async () => {
    for (const dataDir of [layout.dataDir, join(layout.root, 'data-link')]) {
      if (dataDir !== layout.dataDir) symlinkSync(layout.dataDir, dataDir);
      const destination = await startDestination({ dataDir });
      try {
        const session = await login(destination);
        const answer = await session.send('GET', '/box/file');
        expect(answer.status).toBe(200);
        expect(answer.body).toBe('stored');
      } finally {
        await destination.close();
      }
    }
  });
});
