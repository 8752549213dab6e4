/**
 * The control API's waits over real sockets: a long poll started before the client acts
 * answers once it has (session, configure, notification, refused login), a wait that comes
 * too late still finds what `since` covers, a timeout says what was seen instead, and a bad
 * query is refused at once (a client that gives up: test/unit/control/wait-routes.test.ts).
 * curl makes one of the long polls, as a test in any language would.
 */
import { execFileSync } from 'node:child_process';
import { runTool } from '../helpers/cli-tool';
import { openWithToken, type StreamClient } from '../helpers/event-stream-client';
import { sendRequest } from '../helpers/http';
import { toolMissing } from '../helpers/required-tools';
import { closeRigs, type ControlRig, startRig } from './control-rig';

const MOTION = 'tns1:VideoSource/MotionAlarm';

/** Whether curl runs here (a missing curl skips its test, or fails it where the tools are required). */
function hasCurl(): boolean {
  try {
    execFileSync('curl', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    toolMissing('the control API wait test with curl skipped: curl is not installed (apt-get install curl)');
    return false;
  }
}
const itWithCurl = hasCurl() ? it : it.skip;
const clients: StreamClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await closeRigs();
});

/** GET `url` and its status and JSON. */
async function get(url: string, signal?: AbortSignal): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(url, { signal });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

/**
 * Does `act` every few milliseconds until `waiting` settles: a long poll's request reaches the
 * router at a time the test cannot see, and only what happens after that counts.
 */
async function meanwhile<T>(waiting: Promise<T>, act: () => void): Promise<T> {
  let settled = false;
  const done = waiting.finally(() => (settled = true));
  while (!settled) {
    act();
    await Promise.race([done, new Promise((resolve) => setTimeout(resolve, 20))]);
  }
  return done;
}

/** A client of the rig's device, subscribed to `topicFilter` (unless undefined). */
async function client(rig: ControlRig, topicFilter?: string): Promise<StreamClient> {
  const c = await openWithToken(rig.emulator.devices[0].device);
  clients.push(c);
  if (topicFilter !== undefined) await c.configure([{ topicFilter }]);
  return c;
}

describe('GET /_emu/wait/session', () => {
  it('answers once a session is configured for the topic, not before', async () => {
    const rig = await startRig();
    const waiting = get(`${rig.control}/wait/session?topic=${MOTION}&timeout=5000`);
    await client(rig, 'tns1:Device//.');
    await client(rig, 'tns1:VideoSource//.');
    const { status, json } = await waiting;
    expect(status).toBe(200);
    const session = json.session as { id: string; device: string; filters: { topicFilter?: string }[] };
    expect(session.filters).toEqual([{ topicFilter: 'tns1:VideoSource//.' }]);
    expect(session.device).toBe(rig.emulator.devices[0].device.serial);
  });

  itWithCurl('answers at once with a session already open, through curl', async () => {
    const rig = await startRig();
    await client(rig);
    const run = await runTool('curl', ['-sS', `${rig.control}/wait/session?timeout=5000`]);
    expect(run.code).toBe(0);
    const { session } = JSON.parse(run.stdout) as { session: { device: string } };
    expect(session.device).toBe(rig.emulator.devices[0].device.serial);
  });

  it('times out with 408 TIMEOUT saying which sessions it saw', async () => {
    const rig = await startRig();
    await client(rig, 'tns1:Device//.');
    const { status, json } = await get(`${rig.control}/wait/session?topic=${MOTION}&timeout=30`);
    expect(status).toBe(408);
    expect(json.error).toEqual({
      code: 'TIMEOUT',
      message: `no session configured for ${MOTION} within 30 ms; seen: 1 session open, topic filters tns1:Device//.`,
    });
  });
});

describe('GET /_emu/wait/notification and /_emu/wait/entry', () => {
  it('a notification sent after the request, and one sent before it found with since', async () => {
    const rig = await startRig();
    await client(rig, MOTION);
    const since = rig.emulator.journalSeq;
    const waiting = get(`${rig.control}/wait/notification?topic=${MOTION}&timeout=5000`);
    const { status, json } = await meanwhile(waiting, () => rig.emulator.publish(MOTION, { data: { State: '1' } }));
    expect(status).toBe(200);
    expect(json.entry).toMatchObject({ kind: 'notification', topic: MOTION });
    const late = await get(`${rig.control}/wait/notification?topic=${MOTION}&since=${since}&timeout=0`);
    // The first one after `since` (more than one may have been sent before the poll's wait began).
    const [first] = rig.emulator.journal({ since, kind: 'notification' });
    expect(late).toMatchObject({ status: 200, json: { entry: { seq: first.seq, topic: MOTION } } });
  });

  it('a timeout counts the notifications of other topics sent meanwhile', async () => {
    const rig = await startRig();
    await client(rig, '');
    const waiting = get(`${rig.control}/wait/notification?topic=${MOTION}&timeout=300`);
    const relay = () => rig.emulator.publish('tns1:Device/Trigger/Relay', { data: { State: '1' } });
    const { status, json } = await meanwhile(waiting, relay);
    expect(status).toBe(408);
    expect((json.error as { message: string }).message).toMatch(
      /^no notification of tns1:VideoSource\/MotionAlarm within 300 ms; seen: \d+ others? \(.*notification of tns1:Device\/Trigger\/Relay/,
    );
  });

  it('an entry of a kind: a refused login, after since', async () => {
    const rig = await startRig();
    const since = rig.emulator.journalSeq;
    const device = rig.emulator.devices[0].device;
    await sendRequest(device.url, { method: 'POST', path: new URL(device.urls.featureFlags).pathname, body: '{}' });
    const { status, json } = await get(`${rig.control}/wait/entry?kind=auth-refused&since=${since}&timeout=5000`);
    expect(status).toBe(200);
    expect(json.entry).toMatchObject({ kind: 'auth-refused', code: 'NO_CREDENTIALS' });
  });

  it('refuses a bad query at once: an unknown kind, a timeout over the cap, a bad since', async () => {
    const rig = await startRig();
    for (const query of ['kind=no-such-kind', 'kind=http&timeout=300001', 'kind=http&since=-1', 'timeout=5']) {
      const { status, json } = await get(`${rig.control}/wait/entry?${query}`);
      expect([query, status, (json.error as { code: string }).code]).toEqual([query, 400, 'BAD_REQUEST']);
    }
  });

  it('the fleet routes wait on the device named in the path', async () => {
    const rig = await startRig(undefined, { devices: 2 });
    const [first, second] = rig.emulator.devices.map((d) => d.device);
    const waiting = get(`${rig.control}/devices/${second.serial}/wait/session?timeout=5000`);
    const c = await openWithToken(first);
    clients.push(c);
    const other = await openWithToken(second);
    clients.push(other);
    const { json } = await waiting;
    expect((json.session as { device: string }).device).toBe(second.serial);
  });
});
