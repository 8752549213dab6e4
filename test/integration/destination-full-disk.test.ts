/**
 * The destination on a full disk, simulated on any machine (test/helpers/simulated-full-disk.ts:
 * atomic writes and part files fail with ENOSPC, EDQUOT or EROFS): it starts read-only
 * and says so (log, `/info`, the handle) without rewriting what is unchanged; every write
 * is 507 while reads go on; a write that runs into the full disk is 507, leaves nothing
 * half-made and makes it read-only; once there is room, writes work again with no restart.
 * The same on a real full tmpfs: destination-tmpfs.test.ts.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { DestinationHandle, DestinationOptions } from '../../src';
import { fileKey } from '../../src/destination/store/disk-layout';
import { destinationStarter, login, type SwiftSession } from '../helpers/destinations';
import { LogTap } from '../helpers/event-stream-log';
import { sendRequest } from '../helpers/http';
import { openWriteOnSimulatedDisk, simulatedDisk } from '../helpers/simulated-full-disk';
import type * as SimulatedDisk from '../helpers/simulated-full-disk';

jest.mock('../../src/base/atomic-file', () =>
  jest.requireActual<typeof SimulatedDisk>('../helpers/simulated-full-disk').atomicFileOnSimulatedDisk(),
);

const start = destinationStarter({ openWrite: openWriteOnSimulatedDisk });

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'bwc-full-disk-'));
  simulatedDisk.full = undefined;
  simulatedDisk.refused = [];
});
afterEach(() => {
  simulatedDisk.full = undefined;
  rmSync(dataDir, { recursive: true, force: true });
});

/** Every file and directory under `dir`, relative to it, sorted. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (at: string): void => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      out.push(entry.isDirectory() ? `${relative(dir, path)}/` : relative(dir, path));
      if (entry.isDirectory()) walk(path);
    }
  };
  walk(dir);
  return out.sort();
}

/** `bwc_emu.storage` of `/info`. */
async function infoStorage(destination: DestinationHandle): Promise<Record<string, unknown>> {
  const info = await sendRequest(destination.url, { path: '/info' });
  return (JSON.parse(info.body) as { bwc_emu: { storage: Record<string, unknown> } }).bwc_emu.storage;
}

/** A destination on `dataDir` that stored container `c` with object `o` (`kept`), then stopped. */
async function storedBefore(options: DestinationOptions = {}): Promise<void> {
  const first = await start({ dataDir, ...options });
  const session = await login(first);
  expect((await session.send('PUT', '/c')).status).toBe(201);
  expect((await session.send('PUT', '/c/o', { body: 'kept' })).status).toBe(201);
  await first.close();
}

/** The writes a client may send, each with what it is. */
const WRITES: [string, string, string | undefined, Record<string, string>][] = [
  ['PUT', '/new-container', undefined, {}],
  ['POST', '/c', undefined, { 'X-Container-Meta-Colour': 'blue' }],
  ['PUT', '/c/new-object', 'z'.repeat(64 * 1024), {}],
  ['PUT', '/c/o', 'replacement', {}],
  ['POST', '/c/o', undefined, { 'X-Object-Meta-Colour': 'blue' }],
];

describe('a start on a full disk', () => {
  it('starts read-only and says so (log, /info, handle), without rewriting account.json or System objects', async () => {
    await storedBefore();
    const accountJson = join(dataDir, fileKey('AUTH_bws'), 'account.json');
    const before = statSync(accountJson);
    const filesBefore = filesUnder(dataDir);
    simulatedDisk.full = 'ENOSPC';
    const tap = new LogTap();
    const destination = await start({ dataDir, logger: tap.logger });
    expect(destination.storage()).toMatchObject({ mode: 'read-only', reason: 'ENOSPC' });
    expect(tap.entries.filter((e) => e.level === 40).map((e) => e.msg)).toEqual([
      'no room in the data directory: read-only until there is room (writes answer 507, reads go on)',
      expect.stringMatching(
        /^content destination read-only: Insufficient Storage: the disk of the data directory is full/,
      ),
    ]);
    expect(await infoStorage(destination)).toMatchObject({
      mode: 'read-only',
      reason: 'ENOSPC',
      message: expect.stringMatching(/^Insufficient Storage/) as unknown,
      since: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as unknown,
    });
    // The only write tried was the probe: account.json and System/* were already as they should be.
    expect(simulatedDisk.refused.map((file) => relative(dataDir, file))).toEqual(['.bwc-emu-room-probe']);
    const after = statSync(accountJson);
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
    expect(filesUnder(dataDir)).toEqual(filesBefore);
    expect((await sendRequest(destination.url, { path: '/healthcheck' })).status).toBe(200);
  });

  it('answers every write 507 (Swift text style) while reads go on and nothing changes on disk', async () => {
    await storedBefore();
    simulatedDisk.full = 'ENOSPC';
    const tap = new LogTap();
    const destination = await start({ dataDir, logger: tap.logger });
    const session = await login(destination);
    const filesBefore = filesUnder(dataDir);
    for (const [method, path, body, headers] of WRITES) {
      const answer = await session.send(method, path, { body, headers });
      expect([method, path, answer.status]).toEqual([method, path, 507]);
      expect(answer.body).toBe(
        'Insufficient Storage: the disk of the data directory is full; the destination is read-only until there is room\n',
      );
      expect(answer.headers['content-type']).toBe('text/plain; charset=utf-8');
    }
    expect(tap.withMessage('write refused: the destination is read-only (no room in the data directory)')).toHaveLength(
      WRITES.length,
    );
    expect(filesUnder(dataDir)).toEqual(filesBefore);
    expect((await session.send('GET', '/c/o')).body).toBe('kept');
    expect((await session.send('GET', '/c')).body).toBe('o\n');
    expect((await session.send('GET', '')).body).toBe('System\nc\n');
    expect((await session.send('HEAD', '/c/o')).headers['content-length']).toBe('4');
    // A bad request is still answered for what is wrong with it.
    const tooLong = { 'X-Object-Meta-Note': 'x'.repeat(300) };
    expect((await session.send('PUT', '/c/o2', { body: 'x', headers: tooLong })).status).toBe(400);
  });

  it('lets deletes through (they free space) and takes writes again once there is room, without a restart', async () => {
    await storedBefore();
    simulatedDisk.full = 'ENOSPC';
    const tap = new LogTap();
    const destination = await start({ dataDir, logger: tap.logger });
    const session = await login(destination);
    expect((await session.send('DELETE', '/c/o')).status).toBe(204);
    expect((await session.send('DELETE', '/c')).status).toBe(204);
    expect((await session.send('GET', '')).body).toBe('System\n');
    expect((await session.send('PUT', '/c')).status).toBe(507);
    expect(destination.storage().mode).toBe('read-only');
    simulatedDisk.full = undefined;
    expect((await session.send('PUT', '/c')).status).toBe(201);
    expect((await session.send('PUT', '/c/o', { body: 'again' })).status).toBe(201);
    expect((await session.send('GET', '/c/o')).body).toBe('again');
    expect(destination.storage()).toEqual({ mode: 'read-write' });
    expect(await infoStorage(destination)).toEqual({ mode: 'read-write' });
    expect(tap.withMessage('the data directory has room again: writes resume')).toHaveLength(1);
  });

  it('starts on an empty data directory too, and publishes the System objects once there is room', async () => {
    simulatedDisk.full = 'EDQUOT';
    const destination = await start({ dataDir, capabilities: { StoreBookmarks: false } });
    expect(destination.storage()).toMatchObject({ mode: 'read-only', reason: 'EDQUOT' });
    const session = await login(destination);
    expect((await session.send('GET', '/System/Capabilities.json')).status).toBe(404);
    const refused = await session.send('PUT', '/c');
    expect([refused.status, refused.body]).toEqual([
      507,
      'Insufficient Storage: the disk quota of the data directory is used up; the destination is read-only until there is room\n',
    ]);
    simulatedDisk.full = undefined;
    expect((await session.send('PUT', '/c')).status).toBe(201);
    const published = await session.send('GET', '/System/Capabilities.json');
    expect(published.status).toBe(200);
    expect(published.body).toMatch(/"StoreBookmarks": false/);
  });

  it('publishes changed System objects once there is room; until then the old ones are served', async () => {
    await storedBefore();
    simulatedDisk.full = 'ENOSPC';
    const destination = await start({ dataDir, capabilities: { StoreBookmarks: false } });
    const session = await login(destination);
    expect((await session.send('GET', '/System/Capabilities.json')).body).toMatch(/"StoreBookmarks": true/);
    simulatedDisk.full = undefined;
    expect((await session.send('PUT', '/d')).status).toBe(201);
    expect((await session.send('GET', '/System/Capabilities.json')).body).toMatch(/"StoreBookmarks": false/);
  });
});

describe('a write that runs into a full disk', () => {
  /** A running read-write destination with `c/o`, and a session. */
  async function running(): Promise<{ destination: DestinationHandle; session: SwiftSession; tap: LogTap }> {
    await storedBefore();
    const tap = new LogTap();
    const destination = await start({ dataDir, logger: tap.logger });
    return { destination, session: await login(destination), tap };
  }

  it.each(WRITES)(
    '%s %s: 507, nothing half-made, and the destination turns read-only',
    async (method, path, body, headers) => {
      const { destination, session, tap } = await running();
      const filesBefore = filesUnder(dataDir);
      simulatedDisk.full = 'ENOSPC';
      const answer = await session.send(method, path, { body, headers });
      expect(answer.status).toBe(507);
      expect(answer.body).toMatch(/^Insufficient Storage: the disk of the data directory is full/);
      expect(filesUnder(dataDir)).toEqual(filesBefore);
      expect(destination.storage()).toMatchObject({ mode: 'read-only', reason: 'ENOSPC' });
      expect(tap.entries.some((e) => e.level === 40 && /no room/.test(String(e.msg)))).toBe(true);
      // What was there is served as before.
      expect((await session.send('GET', '/c/o')).body).toBe('kept');
      expect((await session.send('HEAD', '/c')).headers['x-container-meta-colour']).toBeUndefined();
      expect((await session.send('HEAD', '/new-container')).status).toBe(404);
      // Room again: the same write succeeds.
      simulatedDisk.full = undefined;
      expect((await session.send(method, path, { body, headers })).status).toBeLessThan(300);
      expect(destination.storage().mode).toBe('read-write');
    },
  );

  it.each(['ENOSPC', 'EDQUOT', 'EROFS'] as const)('a new container on %s leaves no directory behind', async (code) => {
    const { destination, session } = await running();
    const accountDir = join(dataDir, fileKey('AUTH_bws'));
    simulatedDisk.full = code;
    const answer = await session.send('PUT', '/photos');
    expect(existsSync(join(accountDir, fileKey('photos')))).toBe(false);
    expect(readdirSync(accountDir).filter((name) => name.startsWith('.'))).toEqual([]);
    expect(answer.status).toBe(507);
    expect(destination.storage()).toMatchObject({ mode: 'read-only', reason: code });
    expect(await infoStorage(destination)).toMatchObject({ mode: 'read-only', reason: code });
  });
});
