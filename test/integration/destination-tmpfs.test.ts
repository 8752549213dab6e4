/**
 * The destination on a real full disk: a 2 MiB tmpfs mounted for the test, filled to the
 * last page. It starts read-only and says so, answers writes 507 and leaves nothing
 * behind, serves reads, and takes writes again once space is freed, with no restart.
 * Mounting needs root: elsewhere the suite is skipped with a message saying why (the
 * same logic runs on every machine in destination-full-disk.test.ts, on a simulated disk).
 */
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readdirSync, rmdirSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileKey } from '../../src/destination/store/disk-layout';
import { destinationStarter, login } from '../helpers/destinations';
import { LogTap } from '../helpers/event-stream-log';
import { sendRequest } from '../helpers/http';

/** Mounts a 2 MiB tmpfs on a new directory: the directory, or why it cannot be done here. */
function mountSmallTmpfs(): { dir: string } | { why: string } {
  if (process.getuid?.() !== 0) return { why: 'mounting a tmpfs needs root (run the tests as root, as CI does)' };
  const dir = mkdtempSync(join(tmpdir(), 'bwc-tmpfs-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', dir], { stdio: 'pipe', timeout: 5000 });
    return { dir };
  } catch (err) {
    rmdirSync(dir);
    const stderr = (err as { stderr?: Buffer }).stderr?.toString().trim().split('\n')[0];
    return { why: `mount -t tmpfs failed (${stderr || (err as Error).message}); a container needs CAP_SYS_ADMIN` };
  }
}

const mounted = mountSmallTmpfs();
if ('why' in mounted) console.warn(`tmpfs full-disk test skipped: ${mounted.why}`);
const describeOnTmpfs = 'dir' in mounted ? describe : describe.skip;

afterAll(() => {
  if (!('dir' in mounted)) return;
  execFileSync('umount', [mounted.dir], { stdio: 'pipe', timeout: 5000 });
  rmdirSync(mounted.dir);
});

const start = destinationStarter();

/** Writes a file until the disk refuses (ENOSPC): the tmpfs has no page left. Returns its path. */
function fill(dir: string): string {
  const path = join(dir, 'filler');
  const fd = openSync(path, 'a');
  const chunk = Buffer.alloc(64 * 1024, 1);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    closeSync(fd);
  }
  return path;
}

/** Every file under `dir` but the filler, relative to it, sorted. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (at: string): void => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.name !== 'filler') out.push(entry.isDirectory() ? `${relative(dir, path)}/` : relative(dir, path));
      if (entry.isDirectory()) walk(path);
    }
  };
  walk(dir);
  return out.sort();
}

describeOnTmpfs('the destination on a full tmpfs', () => {
  const dataDir = (): string => join((mounted as { dir: string }).dir, 'data');
  afterEach(() => rmSync(dataDir(), { recursive: true, force: true }));

  it('starts read-only, refuses writes with 507 leaving nothing, serves reads, and recovers once space is freed', async () => {
    const body = Buffer.alloc(100 * 1024, 7);
    const first = await start({ dataDir: dataDir() });
    const before = await login(first);
    expect((await before.send('PUT', '/c')).status).toBe(201);
    expect((await before.send('PUT', '/c/o', { body })).status).toBe(201);
    await first.close();

    const filler = fill((mounted as { dir: string }).dir);
    const tap = new LogTap();
    const destination = await start({ dataDir: dataDir(), logger: tap.logger });
    expect(destination.storage()).toMatchObject({ mode: 'read-only', reason: 'ENOSPC' });
    expect(tap.entries.some((e) => e.level === 40 && /^content destination read-only/.test(String(e.msg)))).toBe(true);
    const info = JSON.parse((await sendRequest(destination.url, { path: '/info' })).body) as {
      bwc_emu: { storage: { mode: string } };
    };
    expect(info.bwc_emu.storage.mode).toBe('read-only');

    const session = await login(destination);
    const files = filesUnder(dataDir());
    const put = await session.send('PUT', '/photos');
    expect([put.status, put.body]).toEqual([
      507,
      'Insufficient Storage: the disk of the data directory is full; the destination is read-only until there is room\n',
    ]);
    expect((await session.send('PUT', '/c/big', { body: Buffer.alloc(300 * 1024, 9) })).status).toBe(507);
    expect((await session.send('POST', '/c/o', { headers: { 'X-Object-Meta-Colour': 'blue' } })).status).toBe(507);
    expect(filesUnder(dataDir())).toEqual(files);
    const read = await session.send('GET', '/c/o');
    expect([read.status, read.body.length]).toEqual([200, body.length]);
    expect((await session.send('GET', '/c')).body).toBe('o\n');

    rmSync(filler);
    expect((await session.send('PUT', '/photos')).status).toBe(201);
    expect((await session.send('PUT', '/photos/p', { body: 'fine' })).status).toBe(201);
    expect(destination.storage()).toEqual({ mode: 'read-write' });
  });

  it('a running destination meeting a full disk: 507, no container directory or part file left, read-only', async () => {
    const destination = await start({ dataDir: dataDir() });
    const session = await login(destination);
    expect((await session.send('PUT', '/c')).status).toBe(201);
    const filler = fill((mounted as { dir: string }).dir);
    const files = filesUnder(dataDir());
    expect((await session.send('PUT', '/photos')).status).toBe(507);
    expect(filesUnder(dataDir())).toEqual(files);
    expect(destination.storage()).toMatchObject({ mode: 'read-only', reason: 'ENOSPC' });
    // Room for a probe, not for a large body: the PUT runs into the full disk mid-body.
    rmSync(filler);
    const partial = join((mounted as { dir: string }).dir, 'filler2');
    const fd = openSync(partial, 'w');
    writeSync(fd, Buffer.alloc(1024 * 1024));
    closeSync(fd);
    const big = await session.send('PUT', '/c/big', { body: Buffer.alloc(1536 * 1024, 3) });
    expect(big.status).toBe(507);
    expect(filesUnder(dataDir())).toEqual(files);
    expect(readdirSync(join(dataDir(), fileKey('AUTH_bws'), fileKey('c'), 'objects'))).toEqual([]);
    expect(destination.storage()).toMatchObject({ mode: 'read-only', reason: 'ENOSPC' });
    rmSync(partial);
    expect((await session.send('PUT', '/c/big', { body: Buffer.alloc(1024 * 1024, 3) })).status).toBe(201);
  });
});
