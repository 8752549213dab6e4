/**
 * A device whose dashboard was never built (a checkout without `npm run build`): the page and
 * its files answer 500 with what to run, after the login, and the device logs why; the rest of
 * the device is unaffected. Once built, a missing file is the device's 404 again, and a request
 * without a login reads no file. The built directory is made to look missing by failing the
 * reads of it and under it (`hidden`); the route reads files and never stats them.
 */
import type * as FsPromises from 'node:fs/promises';
import type * as Path from 'node:path';
import { createLogger, startDevice, type DeviceHandle } from '../../../src';
import { DASHBOARD_DIR } from '../../../src/device/dashboard-route';
import { digestRequest } from '../../helpers/digest-request';
import { sendRequest } from '../../helpers/http';

/** While true, the built directory looks missing; `stats` and `reads` count stat and readFile calls under it. */
const mockFs = { hidden: true, stats: 0, reads: 0 };

jest.mock('node:fs/promises', () => {
  const actual = jest.requireActual<typeof FsPromises>('node:fs/promises');
  const { sep } = jest.requireActual<typeof Path>('node:path');
  const dir = `${sep}dist${sep}web${sep}dashboard`;
  const built = `${dir}${sep}`;
  const missing = (path: unknown): Promise<never> =>
    Promise.reject(
      Object.assign(new Error(`ENOENT: no such file or directory, open '${String(path)}'`), { code: 'ENOENT' }),
    );
  return {
    ...actual,
    readFile: (path: string, ...rest: []) => {
      if (String(path).includes(built)) mockFs.reads++;
      return String(path).includes(built) && mockFs.hidden ? missing(path) : actual.readFile(path, ...rest);
    },
    readdir: (path: string, ...rest: []) =>
      String(path).endsWith(dir) && mockFs.hidden ? missing(path) : actual.readdir(path, ...rest),
    stat: (path: string, ...rest: []) => {
      if (String(path).includes(built)) mockFs.stats++;
      return actual.stat(path, ...rest);
    },
  };
});

let device: DeviceHandle;
const lines: string[] = [];
beforeAll(async () => {
  device = await startDevice({ port: 0, logger: createLogger({ level: 'info', write: (line) => lines.push(line) }) });
});
afterAll(() => device.close());

describe('an unbuilt dashboard', () => {
  it('answers 500 with "run npm run build" after the login, and logs it', async () => {
    expect((await sendRequest(device.url, { path: '/' })).status).toBe(401);
    const page = await digestRequest(device.url, { path: '/' });
    expect(page.status).toBe(500);
    expect(page.body).toBe('The dashboard is not built (index.html missing): run npm run build\n');
    const logged = lines.map((line) => JSON.parse(line) as { msg: string; dir?: string; level: number });
    expect(logged).toContainEqual(
      expect.objectContaining({ level: 50, msg: 'dashboard not built: run npm run build', dir: DASHBOARD_DIR }),
    );
  });

  it('answers 500 for its files too, not 404', async () => {
    const script = await digestRequest(device.url, { path: '/dashboard/main.js' });
    expect(script.status).toBe(500);
    expect(script.body).toContain('run npm run build');
  });

  it('still serves device.json and the CGIs', async () => {
    expect((await digestRequest(device.url, { path: '/dashboard/device.json' })).status).toBe(200);
    expect((await digestRequest(device.url, { path: new URL(device.urls.sessionToken).pathname })).status).toBe(200);
  });

  it('once built (seen at the next page load), leaves a missing file to the 404 without a login', async () => {
    expect((await sendRequest(device.url, { path: '/dashboard/nope.js' })).status).toBe(401);
    mockFs.hidden = false;
    expect((await digestRequest(device.url, { path: '/' })).status).toBe(200);
    const missing = await sendRequest(device.url, { path: '/dashboard/nope.js' });
    expect([missing.status, missing.body]).toEqual([404, 'Not found: /dashboard/nope.js\n']);
    expect((await digestRequest(device.url, { path: '/dashboard/main.js' })).status).toBe(200);
  });

  it('reads no file for a request without a login, whether the file is there or not', async () => {
    const reads = mockFs.reads;
    expect((await sendRequest(device.url, { path: '/dashboard/main.js' })).status).toBe(401);
    expect((await sendRequest(device.url, { path: '/dashboard/nope.js' })).status).toBe(404);
    expect((await sendRequest(device.url, { path: '/' })).status).toBe(401);
    expect(mockFs.reads).toBe(reads);
  });

  it('never stats the built files', () => {
    expect(mockFs.stats).toBe(0);
  });
});
