/**
 * The dashboard's device route over real sockets: the page and its built files behind the
 * device's own login, the security headers, HEAD, 405, unknown files left to the device's 404,
 * device.json, and none of it in the journal (page loads are not the client under test).
 * Serves what `npm run build:web` built (npm test builds it first).
 */
import { type EmulatorHandle, loadScenario, startEmulator } from '../../src';
import { ManualClock } from '../../src/base/clock';
import { z } from 'zod';
import { type DashboardDeviceInfo, DashboardDeviceInfoSchema } from '../../src/device/dashboard-info';
import { DASHBOARD_CSP } from '../../src/device/dashboard-route';
import { devicePaths } from '../../src/device/endpoints';
import { digestRequest } from '../helpers/digest-request';
import { challengesOf, sendRequest } from '../helpers/http';

const QUIET = loadScenario('name: quiet\ntimeline:\n  - pause: 1h\n', 'quiet.yaml');
const VIEWER = { name: 'viewer', password: 'view', role: 'viewer' as const };

let emulator: EmulatorHandle;
afterEach(() => emulator?.close());

async function start(options: Parameters<typeof startEmulator>[0] = {}): Promise<string> {
  if (!QUIET.ok) throw new Error(QUIET.error.message);
  emulator = await startEmulator({ scenarios: [{ scenario: QUIET.value }], device: { port: 0 }, ...options });
  return emulator.devices[0].device.url;
}

/** device.json as `user` reads it, checked against its schema (the page's types are made from it): no field more or less. */
async function deviceJson(url: string, username = 'root', password = 'pass'): Promise<DashboardDeviceInfo> {
  const answer = await digestRequest(url, { path: '/dashboard/device.json', username, password });
  expect(answer.status).toBe(200);
  return z.strictObject(DashboardDeviceInfoSchema.shape).parse(JSON.parse(answer.body));
}

describe('the dashboard route', () => {
  it('asks for the device login at / with the challenge every CGI sends', async () => {
    const url = await start();
    const answer = await sendRequest(url, { path: '/' });
    expect(answer.status).toBe(401);
    expect(challengesOf(answer)[0]).toMatch(/^Digest realm="SVC_ACCC8E000001", /);
    expect(answer.headers['content-security-policy']).toBe(DASHBOARD_CSP);
  });

  it('serves the page with its security headers to any device account', async () => {
    const url = await start({
      device: { port: 0, accounts: [{ name: 'root', password: 'pass', role: 'admin' }, VIEWER] },
    });
    for (const [username, password] of [
      ['root', 'pass'],
      [VIEWER.name, VIEWER.password],
    ]) {
      const page = await digestRequest(url, { path: '/', username, password });
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.headers['content-security-policy']).toBe(DASHBOARD_CSP);
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.headers['x-content-type-options']).toBe('nosniff');
      expect(page.headers['referrer-policy']).toBe('no-referrer');
      expect(page.body).toContain('<script type="module" src="/dashboard/main.js"></script>');
      expect(page.body).not.toMatch(/<script>|style=/);
    }
    expect(DASHBOARD_CSP).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
        "connect-src 'self' ws: wss:; form-action 'none'; frame-ancestors 'none'; base-uri 'none'",
    );
  });

  it('serves the built scripts and styles with their types, and HEAD without a body', async () => {
    const url = await start();
    const script = await digestRequest(url, { path: '/dashboard/main.js' });
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.body).toContain("from './control.js'");
    const css = await digestRequest(url, { path: '/dashboard/dashboard.css' });
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    const get = await digestRequest(url, { path: '/' });
    const head = await digestRequest(url, { method: 'HEAD', path: '/' });
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(get.body)));
    expect(head.headers['content-security-policy']).toBe(DASHBOARD_CSP);
  });

  it('answers 405 with Allow to other methods, before asking for a login', async () => {
    const url = await start();
    for (const [method, path] of [
      ['POST', '/'],
      ['DELETE', '/dashboard/device.json'],
      ['PUT', '/dashboard/main.js'],
    ]) {
      const answer = await sendRequest(url, { method, path, body: '' });
      expect(answer.status).toBe(405);
      expect(answer.headers.allow).toBe('GET, HEAD');
      expect(answer.body).toBe(`Method ${method} not allowed; use GET or HEAD\n`);
    }
  });

  it("leaves unknown paths under /dashboard/ to the device's 404, without a login", async () => {
    const url = await start();
    for (const path of [
      '/dashboard/nope.js',
      '/dashboard/',
      '/dashboard/sub/main.js',
      '/dashboard/..%2Fpackage.json',
      '/dashboard/main.ts',
      '/dashboard/index.html',
      '/dashboard/../package.json',
      '//dashboard/device.json',
      '/Dashboard/main.js',
      '/dashboard/main.js/',
      '/dashboard//main.js',
    ]) {
      const answer = await sendRequest(url, { path });
      expect([path, answer.status, answer.body]).toEqual([path, 404, expect.stringMatching(/^Not found: /)]);
    }
  });

  it('tells who the device is and where its interfaces are in device.json', async () => {
    const url = await start({ device: { port: 0, cgiPrefix: '/axis-cgi', serial: 'B8A44F000042' } });
    const before = Date.now();
    const info = await deviceJson(url);
    expect({ ...info, startedAt: 0, now: 0 }).toEqual({
      serial: 'B8A44F000042',
      realm: 'AXIS_B8A44F000042',
      identity: { model: 'W110', name: 'BWC-Emu W110 Body Worn Camera', firmware: '11.11.73', brand: 'BWC-Emu' },
      startedAt: 0,
      now: 0,
      paths: devicePaths('/axis-cgi', '/svc'),
      control: '/_emu',
    });
    expect(info.startedAt).toBeLessThanOrEqual(info.now);
    expect(info.now).toBeGreaterThanOrEqual(before);
  });

  it('says control: null without the control API', async () => {
    const url = await start({ control: false });
    expect((await deviceJson(url)).control).toBeNull();
  });

  it('starts the uptime again after a reboot, from the time of the reboot on the device clock', async () => {
    const clock = new ManualClock();
    const url = await start({ device: { port: 0, clock } });
    const first = await deviceJson(url);
    expect(first.startedAt).toBe(clock.now());
    clock.advance(60_000);
    const rebootAt = clock.now();
    await emulator.fault('reboot', { downMs: 10 });
    const second = await deviceJson(url);
    expect(second.startedAt).toBe(rebootAt);
    expect(second.startedAt - first.startedAt).toBe(60_000);
  });

  it('journals none of its loads, nor a refused page login', async () => {
    const url = await start();
    await sendRequest(url, { path: '/' });
    await sendRequest(url, { path: '/dashboard/main.js', headers: { Authorization: 'Digest username="root"' } });
    await digestRequest(url, { path: '/' });
    await digestRequest(url, { path: '/dashboard/device.json' });
    await digestRequest(url, { method: 'HEAD', path: '/dashboard/dashboard.css' });
    await sendRequest(url, { method: 'POST', path: '/', body: '' });
    expect(emulator.journal()).toEqual([]);
    // A CGI request still is the client's.
    await digestRequest(url, { path: new URL(emulator.devices[0].device.urls.sessionToken).pathname });
    expect(emulator.journal().map((e) => [e.kind, 'status' in e ? e.status : undefined])).toEqual([
      ['auth-refused', undefined],
      ['http', 401],
      ['http', 200],
    ]);
  });
});
