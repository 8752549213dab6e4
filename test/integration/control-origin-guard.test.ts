/**
 * The control API serves its own origin only, on a real emulator: what a page of another
 * origin can send without a preflight (a text/plain POST, a cross-site GET) is refused
 * with 403 CROSS_ORIGIN, logged, and changes nothing; the page's own origin, and tools
 * that send neither Origin nor Sec-Fetch-Site (curl, Python, Node), are served as before.
 */
import { sendRequest } from '../helpers/http';
import { closeRigs, type ControlRig, startRig } from './control-rig';

afterEach(closeRigs);

/** A request to the first device's control API with exactly `headers` (and `body`, if any). */
function send(rig: ControlRig, method: string, path: string, headers: Record<string, string>, body?: string) {
  return sendRequest(rig.control, { method, path: `/_emu${path}`, headers, body });
}

/** What `POST /_emu/reset` would undo: a flag set and a journal entry. */
async function somethingToReset(rig: ControlRig): Promise<void> {
  await rig.emulator.setFlags({ graphics_udvd: true });
  await fetch(`${rig.emulator.devices[0].device.url}/something`);
}

/** Whether nothing was reset: the flag is still set and the journal still holds its entry. */
function untouched(rig: ControlRig): boolean {
  const flag = rig.emulator.flags().find((f) => f.name === 'graphics_udvd');
  return flag?.value === true && rig.emulator.journal({ kind: 'http' }).length === 1;
}

/** Asserts a 403 CROSS_ORIGIN refusal, and its log line; returns the message. */
function expectCrossOrigin(rig: ControlRig, res: { status: number; body: string; headers: object }): string {
  expect(res.status).toBe(403);
  const { error } = JSON.parse(res.body) as { error: { code: string; message: string } };
  expect(error.code).toBe('CROSS_ORIGIN');
  expect(rig.logs).toContainEqual(
    expect.objectContaining({ msg: 'control API: refused', status: 403, code: 'CROSS_ORIGIN', reason: error.message }),
  );
  return error.message;
}

describe('the control API from another origin', () => {
  it('refuses a text/plain POST /reset from a foreign Origin, and resets nothing', async () => {
    const rig = await startRig();
    await somethingToReset(rig);
    const res = await send(
      rig,
      'POST',
      '/reset',
      { Origin: 'http://evil.example', 'Content-Type': 'text/plain' },
      '{}',
    );
    expect(expectCrossOrigin(rig, res)).toContain('"http://evil.example"');
    expect(untouched(rig)).toBe(true);
  });

  it('refuses Origin: null, another port, another host name, another scheme', async () => {
    const rig = await startRig();
    const own = new URL(rig.control);
    for (const origin of [
      'null',
      `http://127.0.0.1:${Number(own.port) + 1}`,
      `http://localhost:${own.port}`,
      `https://127.0.0.1:${own.port}`,
      'not a url',
    ]) {
      const res = await send(
        rig,
        'POST',
        '/faults',
        { Origin: origin, 'Content-Type': 'text/plain' },
        '{"name":"stall"}',
      );
      expectCrossOrigin(rig, res);
    }
    expect(rig.emulator.faults()).toEqual([]);
  });

  it('refuses Sec-Fetch-Site: cross-site even without an Origin (a cross-site GET, the feed too)', async () => {
    const rig = await startRig();
    const timers = rig.scheduler.pending;
    for (const path of ['/devices', '/feed']) {
      const res = await send(rig, 'GET', path, { 'Sec-Fetch-Site': 'cross-site' });
      expect(expectCrossOrigin(rig, res)).toContain('Sec-Fetch-Site');
    }
    expect(rig.scheduler.pending).toBe(timers); // no feed was opened
  });
});

describe('the control API from its own origin, or from a tool', () => {
  it('serves a same-origin request (Origin is the Host, default port or not; Sec-Fetch-Site same-origin)', async () => {
    const rig = await startRig();
    const own = new URL(rig.control);
    await somethingToReset(rig);
    const res = await send(rig, 'POST', '/reset', {
      Origin: own.origin.toUpperCase(),
      'Sec-Fetch-Site': 'same-origin',
      'Content-Type': 'application/json',
    });
    expect(res.status).toBe(204);
    expect(untouched(rig)).toBe(false);
    // A name of its own (test/integration/host-guard.test.ts: any other Host is refused without a token).
    const onDefaultPort = await send(rig, 'GET', '/health', {
      Host: 'camera.localhost',
      Origin: 'http://camera.localhost:80',
    });
    expect(onDefaultPort.status).toBe(200);
  });

  it('serves requests with neither header, and a typed URL (Sec-Fetch-Site: none), as before', async () => {
    const rig = await startRig();
    expect((await send(rig, 'GET', '/health', {})).status).toBe(200);
    expect((await fetch(`${rig.control}/health`)).status).toBe(200);
    expect((await send(rig, 'GET', '/health', { 'Sec-Fetch-Site': 'none' })).status).toBe(200);
    await somethingToReset(rig);
    expect((await send(rig, 'POST', '/reset', { 'Content-Type': 'text/plain' }, '{}')).status).toBe(204);
    expect(untouched(rig)).toBe(false);
  });
});
