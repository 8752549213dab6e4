/**
 * An open dashboard does not change what the client under test gets: the stream sessions of
 * the emulator's own clients (a token fetched with `X-BWC-Emu-Client: dashboard`) fire no
 * scenario `on: connect` trigger and meet no `waitForSession()`, while a client's session does
 * both. The scenario runs on a ManualScheduler (no sleeps); a subscribed dashboard session
 * watches what the trigger publishes.
 */
import { type EmulatorHandle, loadScenario, ManualScheduler, startEmulator } from '../../src';
import { digestRequest } from '../helpers/digest-request';
import { openWithToken, type StreamClient, topicsDuring } from '../helpers/event-stream-client';

const CONNECTED = 'tns1:Test/Connected';
const SCENARIO = loadScenario(
  ['name: greets', 'timeline:', '  - on: connect', `    emit: { topic: ${CONNECTED} }`, ''].join('\n'),
  'greets.yaml',
);

let emulator: EmulatorHandle | undefined;
const clients: StreamClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await emulator?.close();
  emulator = undefined;
});

/** The emulator playing the scenario, its device's clock the scenario's scheduler. */
async function start(): Promise<{ emulator: EmulatorHandle; scheduler: ManualScheduler }> {
  if (!SCENARIO.ok) throw new Error(SCENARIO.error.errors.map((e) => e.text).join('\n'));
  const scheduler = new ManualScheduler(Date.UTC(2026, 10, 23, 8));
  emulator = await startEmulator({
    scenarios: [{ scenario: SCENARIO.value }],
    device: { port: 0, clock: scheduler },
    scheduler,
  });
  return { emulator, scheduler };
}

/** A session opened with a token from wssession.cgi fetched with `headers` (closed after the test). */
async function openFetched(emulator: EmulatorHandle, headers: Record<string, string>): Promise<StreamClient> {
  const { device } = emulator.devices[0];
  const path = new URL(device.urls.sessionToken).pathname;
  const token = await digestRequest(device.url, { method: 'GET', path, headers });
  expect(token.status).toBe(200);
  const client = await openWithToken(device, token.body);
  clients.push(client);
  return client;
}

const DASHBOARD = { 'X-BWC-Emu-Client': 'dashboard' };

describe("the emulator's own sessions and the scenario", () => {
  it('a dashboard session connecting fires no on: connect trigger; a client session does', async () => {
    const { emulator, scheduler } = await start();
    const { device } = emulator.devices[0];
    const watcher = await openFetched(emulator, DASHBOARD);
    expect((await watcher.configure([{ topicFilter: '' }])).data).toEqual({});
    // Its own connect fired nothing (the states its configure brought aside).
    expect(await topicsDuring(device, watcher, scheduler, 1000)).not.toContain(CONNECTED);
    // Another dashboard session (the page in a second tab) connects: still nothing.
    await openFetched(emulator, DASHBOARD);
    expect(await topicsDuring(device, watcher, scheduler, 1000)).toEqual([]);
    expect(emulator.sessions().map((s) => s.via)).toEqual(['dashboard', 'dashboard']);
    // The client under test connects: the trigger fires.
    await openFetched(emulator, {});
    expect(await topicsDuring(device, watcher, scheduler, 0)).toEqual([CONNECTED]);
  });

  it('waitForSession() resolves on the first client session, not on a dashboard one before it', async () => {
    const { emulator } = await start();
    const waited = emulator.waitForSession({ timeout: 5000 });
    await openFetched(emulator, DASHBOARD);
    await openFetched(emulator, {});
    const session = await waited;
    expect(session.via).toBeUndefined();
    expect(session.id).toBe(emulator.sessions().find((s) => s.via === undefined)?.id);
  });

  it('waitForSession() called while only a dashboard session is open waits for a client session', async () => {
    const { emulator } = await start();
    await openFetched(emulator, DASHBOARD);
    const waited = emulator.waitForSession({ timeout: 5000 });
    await openFetched(emulator, {});
    const session = await waited;
    expect(session.via).toBeUndefined();
  });
});
