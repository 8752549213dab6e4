/**
 * The fixture handle of startEmulator over real sockets: driving a device (publish, states,
 * flags, sessions, scenario controls), waiting for the client, the journal of what crossed
 * the sockets (and never a secret), and reset() isolating one test from the next.
 */
import {
  EmulatorError,
  type EmulatorHandle,
  type JournalEntry,
  loadScenario,
  type Scenario,
  startEmulator,
} from '../../src';
import type { RunningDevice } from '../../src/emulator/running-device';
import { digestRequest } from '../helpers/digest-request';
import { sendRequest } from '../helpers/http';
import { fetchToken, openWithDigest, openWithToken, type StreamClient } from '../helpers/event-stream-client';
import { callFeatureFlags } from '../helpers/rpc-client';
import { until } from '../helpers/until';

const QUIET = scenario('name: quiet\ntimeline:\n  - pause: 1h\n');
const MOTION = 'tns1:VideoSource/MotionAlarm';

function scenario(text: string): Scenario {
  const loaded = loadScenario(text, 'inline.yaml');
  if (!loaded.ok) throw new Error(loaded.error.message);
  return loaded.value;
}

let emulator: EmulatorHandle;
const clients: StreamClient[] = [];
beforeAll(async () => {
  emulator = await startEmulator({ scenarios: [{ scenario: QUIET }], device: { port: 0 } });
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await emulator.reset();
});
afterAll(() => emulator.close());

const device = () => emulator.devices[0].device;
async function subscribed(topicFilter = ''): Promise<StreamClient> {
  const client = await openWithToken(device());
  clients.push(client);
  await client.configure([{ topicFilter }]);
  return client;
}
const kinds = (entries: JournalEntry[]) => entries.map((e) => e.kind);

describe('the handle drives the device', () => {
  it('publish() reaches a subscribed client and returns the event', async () => {
    const client = await subscribed(MOTION);
    const [event] = emulator.publish(MOTION, { data: { State: '1' } });
    expect(event.topic).toBe(MOTION);
    const message = await client.next();
    expect(message.params?.notification.topic).toBe(MOTION);
  });

  it('setState() keeps the state: a client configuring later gets it at once', async () => {
    emulator.setState('tns1:Device/tnsvendor:IO/Port', { source: { port: '7' }, data: { state: '1' } });
    const client = await openWithToken(device());
    clients.push(client);
    await client.configure([{ topicFilter: 'tns1:Device/tnsvendor:IO/Port' }]);
    const states = await client.nextN(3); // the device's ports 1 and 2, and the one set
    expect(states.map((s) => s.params?.notification.message.source)).toContainEqual({ port: '7' });
  });

  it('setFlags() and flags() are what featureflag.cgi answers; an unknown flag is refused', async () => {
    const name = emulator.flags()[0].name;
    await emulator.setFlags({ [name]: !emulator.flags()[0].value });
    const answer = await callFeatureFlags(device(), { apiVersion: '1.0', method: 'get', params: { names: [name] } });
    expect((answer.json.data as { flagValues: Record<string, boolean> }).flagValues[name]).toBe(
      emulator.flags()[0].value,
    );
    await expect(emulator.setFlags({ nope: true })).rejects.toBeInstanceOf(EmulatorError);
  });

  it('sessions() lists the clients with their device; closeSessions(code) closes them with it', async () => {
    const client = await subscribed('tns1:Device//.');
    expect(emulator.sessions()).toEqual([
      expect.objectContaining({
        device: device().serial,
        state: 'CONFIGURED',
        filters: [{ topicFilter: 'tns1:Device//.' }],
      }),
    ]);
    expect(emulator.closeSessions(4000, { reason: 'bye' })).toBe(1);
    expect(await client.waitForClose()).toMatchObject({ code: 4000, reason: 'bye' });
  });

  it('refuses a close code or reason a close frame cannot carry (BAD_OPTION), closing nothing', async () => {
    await subscribed('');
    expect(() => emulator.closeSessions(5000)).toThrow(expect.objectContaining({ code: 'BAD_OPTION' }) as Error);
    expect(() => emulator.closeSessions(1000, { reason: 'x'.repeat(124) })).toThrow(EmulatorError);
    expect(emulator.sessions()).toHaveLength(1);
  });

  it('waitForSession() resolves when a client configures for the topic; times out with TIMEOUT', async () => {
    const waiting = emulator.waitForSession({ topic: MOTION });
    await subscribed('tns1:Device//.'); // not for motion
    const client = await openWithToken(device());
    clients.push(client);
    await client.configure([{ topicFilter: 'tns1:VideoSource//.' }]);
    const session = await waiting;
    expect(session.filters).toEqual([{ topicFilter: 'tns1:VideoSource//.' }]);
    await expect(emulator.waitForSession({ topic: 'tns1:Nothing', timeout: 20 })).rejects.toMatchObject({
      code: 'TIMEOUT',
    });
  });

  it('refuses a wait timeout that is negative or not a number (BAD_OPTION)', async () => {
    for (const timeout of [-1, Number.NaN, Number.POSITIVE_INFINITY]) {
      await expect(emulator.waitForSession({ timeout, topic: 'tns1:Nothing' })).rejects.toMatchObject({
        code: 'BAD_OPTION',
      });
      await expect(emulator.waitForNotification({ timeout })).rejects.toMatchObject({ code: 'BAD_OPTION' });
    }
  });

  it('waitForNotification() resolves with the next notification of the topic', async () => {
    await subscribed('');
    const waiting = emulator.waitForNotification({ topic: MOTION });
    emulator.publish('tns1:Other/Thing');
    emulator.publish(MOTION, { data: { State: '1' } });
    expect(await waiting).toMatchObject({ kind: 'notification', topic: MOTION, device: device().serial });
  });

  it("waitForNotification() waits for the client under test's notifications, not the dashboard's", async () => {
    const token = await digestRequest(device().url, {
      method: 'GET',
      path: new URL(device().urls.sessionToken).pathname,
      headers: { 'X-BWC-Emu-Client': 'dashboard' },
    });
    const dashboard = await openWithToken(device(), token.body);
    clients.push(dashboard);
    await dashboard.configure([{ topicFilter: '' }]);
    await subscribed(MOTION);
    const since = emulator.journalSeq;
    const waiting = emulator.waitForNotification({ timeout: 1000 });
    emulator.publish('tns1:Other/Thing'); // to the dashboard only
    emulator.publish(MOTION, { data: { State: '1' } }); // to both
    const heard = await waiting;
    expect(heard).toMatchObject({ topic: MOTION });
    expect(heard).not.toHaveProperty('via');
    await expect(emulator.waitForNotification({ topic: 'tns1:Other/Thing', since, timeout: 20 })).rejects.toMatchObject(
      {
        code: 'TIMEOUT',
      },
    );
  });

  it('journalSeq is the seq of the newest entry, kept over a reset', async () => {
    await subscribed('');
    emulator.publish(MOTION);
    const newest = emulator.journal().at(-1)?.seq;
    expect(emulator.journalSeq).toBe(newest);
    await emulator.reset();
    expect(emulator.journal()).toEqual([]);
    expect(emulator.journalSeq).toBeGreaterThanOrEqual(newest ?? Number.NaN);
  });

  it('waitForNotification({ since }) also finds one published before the wait began', async () => {
    await subscribed('');
    const since = emulator.journalSeq;
    emulator.publish(MOTION, { data: { State: '1' } }); // delivered synchronously
    expect(await emulator.waitForNotification({ topic: MOTION, since, timeout: 100 })).toMatchObject({ topic: MOTION });
    await expect(emulator.waitForNotification({ topic: MOTION, timeout: 20 })).rejects.toMatchObject({
      code: 'TIMEOUT',
    });
  });

  it('pauses, plays and restarts the scenario; setScenario() replaces it', () => {
    expect(emulator.devices[0].playState).toBe('playing');
    emulator.pauseScenario();
    expect(emulator.devices[0].playState).toBe('paused');
    emulator.playScenario();
    expect(emulator.devices[0].playState).toBe('playing');
    const before = emulator.devices[0].run;
    emulator.restartScenario();
    expect(emulator.devices[0].run).not.toBe(before);
    emulator.setScenario(scenario('name: other\ntimeline:\n  - pause: 1h\n'));
    expect(emulator.devices[0].scenario.name).toBe('other');
    emulator.setScenario(QUIET);
  });

  it('scenarioStatus().revision grows at each change of course only: a pause, a play, a restart, a new scenario', () => {
    const revision = () => emulator.scenarioStatus().revision;
    const start = revision();
    emulator.pauseScenario();
    expect(revision()).toBe(start + 1);
    emulator.pauseScenario(); // already paused: no change
    expect(revision()).toBe(start + 1);
    emulator.playScenario();
    emulator.playScenario();
    expect(revision()).toBe(start + 2);
    emulator.restartScenario();
    expect(revision()).toBe(start + 3);
    emulator.setScenario(scenario('name: other\ntimeline:\n  - { every: 1h, emit: { topic: tns1:Test/Other } }\n'));
    expect(revision()).toBe(start + 4);
    expect(emulator.scenarioStatus().state).toBe('playing');
    emulator.setScenario(QUIET);
  });

  it("works a scenario's topics out once per scenario: read again, the same list; a new scenario, its own", () => {
    const running = emulator.devices[0] as RunningDevice;
    const topics = running.topics;
    expect(running.topics).toBe(topics);
    expect(emulator.scenarioStatus().topics).toEqual(topics);
    emulator.restartScenario();
    expect(running.topics).toBe(topics);
    emulator.setScenario(scenario('name: other\ntimeline:\n  - { every: 1h, emit: { topic: tns1:Test/Other } }\n'));
    expect(running.topics).not.toBe(topics);
    expect(running.topics).toContain('tns1:Test/Other');
    expect(emulator.scenarioStatus().topics).toEqual(running.topics);
    emulator.setScenario(QUIET);
    expect(running.topics).toEqual(topics);
  });

  it('names a device that does not exist with NO_SUCH_DEVICE', () => {
    expect(() => emulator.publish(MOTION, {}, { device: 'NOPE' })).toThrow(
      expect.objectContaining({ code: 'NO_SUCH_DEVICE' }) as Error,
    );
    expect(() => emulator.flags({ device: 3 })).toThrow(EmulatorError);
  });

  it('access() gives the URLs and the admin login of every device', () => {
    expect(emulator.access()).toEqual([
      expect.objectContaining({
        serial: device().serial,
        user: 'root',
        password: 'pass',
        urls: device().urls,
        realm: device().realm,
      }),
    ]);
  });
});

describe('the journal', () => {
  it('records requests, refused logins, sessions, configures and notifications in order', async () => {
    const token = await fetchToken(device()); // a 401 then a digest GET
    const client = await openWithToken(device(), token);
    clients.push(client);
    await client.configure([{ topicFilter: MOTION }]);
    await client.request({
      apiVersion: '1.0',
      method: 'events:configure',
      params: { eventFilterList: [{ contentFilter: 'boolean(' }] },
    });
    emulator.publish(MOTION, { data: { State: '1' } });
    await client.next();
    await client.close();
    await emulator.waitForNotification({ timeout: 0 }).catch(() => undefined);
    await until(() => emulator.journal({ kind: 'ws-close' }).length === 1, 'the session closed in the journal');

    const entries = emulator.journal();
    expect(kinds(entries)).toEqual([
      'auth-refused',
      'http',
      'http',
      'ws-open',
      'configure',
      'configure',
      'notification',
      'ws-close',
    ]);
    const [refused, challenge, fetched, open, configured, bad, sent, closed] = entries;
    expect(refused).toMatchObject({ kind: 'auth-refused', method: 'GET', scheme: undefined, reason: 'no credentials' });
    expect(challenge).toMatchObject({ kind: 'http', status: 401, auth: undefined });
    expect(fetched).toMatchObject({ kind: 'http', method: 'GET', status: 200, auth: 'digest', user: 'root' });
    expect(open).toMatchObject({ kind: 'ws-open', user: 'root' });
    const session = (open as { session: string }).session;
    expect(configured).toMatchObject({
      kind: 'configure',
      session,
      filters: [{ topicFilter: MOTION }],
      error: undefined,
    });
    expect(bad).toMatchObject({ kind: 'configure', error: { code: 2104 } });
    expect(sent).toMatchObject({ kind: 'notification', session, topic: MOTION });
    expect(closed).toMatchObject({ kind: 'ws-close', session, code: 1000 });
    expect(entries.map((e) => e.seq)).toEqual([...entries.map((e) => e.seq)].sort((a, b) => a - b));
    expect(entries.every((e) => e.device === device().serial && !Number.isNaN(Date.parse(e.time)))).toBe(true);
  });

  it('filters by since, kind, session and topic', async () => {
    const client = await subscribed('');
    emulator.publish(MOTION);
    emulator.publish('tns1:Other/Thing');
    await client.nextN(2);
    const all = emulator.journal();
    const last = all[all.length - 1];
    expect(emulator.journal({ since: last.seq })).toEqual([]);
    expect(kinds(emulator.journal({ kind: ['ws-open', 'configure'] }))).toEqual(['ws-open', 'configure']);
    expect(emulator.journal({ topic: MOTION })).toHaveLength(1);
    const session = emulator.sessions()[0].id;
    expect(emulator.journal({ session }).every((e) => 'session' in e && e.session === session)).toBe(true);
  });

  it('never holds a secret: no password, digest response or session token', async () => {
    const token = await fetchToken(device());
    clients.push(await openWithToken(device(), token));
    await digestRequest(device().url, {
      method: 'GET',
      path: '/svc-cgi/wssession.cgi',
      username: 'root',
      password: 'wrong-secret',
    });
    const badToken = 'ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ';
    await openWithToken(device(), badToken).catch(() => undefined);
    const text = JSON.stringify(emulator.journal());
    for (const secret of ['pass"', 'wrong-secret', token, badToken, 'response=']) expect(text).not.toContain(secret);
    expect(emulator.journal({ kind: 'auth-refused' }).map((e) => (e as { reason: string }).reason)).toEqual(
      expect.arrayContaining(['wrong password for user "root"', 'session token unknown']),
    );
  });

  it('keeps the newest entries when full and counts the dropped ones', async () => {
    const small = await startEmulator({ scenarios: [{ scenario: QUIET }], device: { port: 0 }, journalCapacity: 3 });
    try {
      for (let i = 0; i < 5; i++)
        await callFeatureFlags(small.devices[0].device, { apiVersion: '1.0', method: 'listAll' });
      expect(small.journal()).toHaveLength(3);
      expect(small.journalDropped).toBeGreaterThanOrEqual(7); // each call: a 401 (2 entries) and a 200
    } finally {
      await small.close();
    }
  });

  it("does not record the control API's own requests", async () => {
    await sendRequest(device().url, { method: 'GET', path: '/_emu/health' });
    expect(emulator.journal().filter((e) => e.kind === 'http' && e.path.startsWith('/_emu'))).toEqual([]);
  });
});

describe('reset() isolates tests', () => {
  const flag = () => emulator.flags()[0];

  it('first test: changes everything', async () => {
    await subscribed('');
    await emulator.setFlags({ [flag().name]: !flag().defaultValue });
    emulator.setState('tns1:Device/tnsvendor:IO/Port', { source: { port: '9' }, data: { state: '1' } });
    device().rejectAuth(60_000);
    emulator.pauseScenario();
    expect(emulator.journal().length).toBeGreaterThan(0);
  });

  it('second test: finds a fresh device (afterEach reset)', async () => {
    expect(emulator.journal()).toEqual([]);
    expect(emulator.sessions()).toEqual([]);
    expect(flag().value).toBe(flag().defaultValue);
    expect(emulator.devices[0].playState).toBe('playing');
    const client = await openWithToken(device()); // logins accepted again
    clients.push(client);
    await client.configure([{ topicFilter: 'tns1:Device/tnsvendor:IO/Port' }]);
    const states = await client.nextN(2); // the default initial states: ports 1 and 2 only
    expect(states.map((s) => s.params?.notification.message.source)).toEqual([{ port: '1' }, { port: '2' }]);
  });

  it('revokes session tokens issued before the reset', async () => {
    const token = await fetchToken(device());
    await emulator.reset();
    const refused = await openWithToken(device(), token).then(
      () => 'opened',
      () => 'refused',
    );
    expect(refused).toBe('refused');
  });

  it('closes sessions before it clears the journal: their close is not in the next test', async () => {
    const client = await openWithDigest(device());
    clients.push(client.client);
    await emulator.reset();
    expect(emulator.journal()).toEqual([]);
  });
});
