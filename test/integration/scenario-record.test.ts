/**
 * Record -> replay against the emulator itself: events recorded from one device (digest
 * handshake or a session token) become a scenario that, played on a second device,
 * gives a subscribed client the same topics, data, relative order and relative times.
 * No sleeps: publishing starts when the recorder says it is subscribed (and the
 * device shows a CONFIGURED session), and the recorder's clock is injected.
 */
import {
  DEFAULT_INITIAL_STATES,
  type DeviceHandle,
  deviceOptionsForScenario,
  loadScenario,
  ManualScheduler,
  playOnDevice,
  type Scenario,
} from '../../src';
import { RecordError, type RecordedEvent, recordEvents, type RecordOptions } from '../../src/scenario/recorder';
import { toScenarioYaml } from '../../src/scenario/recording-yaml';
import { deviceStarter } from '../helpers/devices';
import { notificationOf, openWithToken, type StreamMessage, streamTarget, wsUrl } from '../helpers/event-stream-client';

const start = deviceStarter();

interface Published {
  topic: string;
  source: Record<string, string>;
  data: Record<string, string>;
}

const SEQUENCE: Published[] = [
  { topic: 'tns1:VideoSource/MotionAlarm', source: { VideoSourceConfigurationToken: '1' }, data: { State: '1' } },
  { topic: 'tns1:Device/tnsvendor:IO/Port', source: { port: '2' }, data: { state: '1' } },
  { topic: 'tns1:VideoSource/MotionAlarm', source: { VideoSourceConfigurationToken: '1' }, data: { State: '0' } },
  { topic: 'tns1:Device/tnsvendor:Status/Temperature', source: {}, data: { celsius: '41.5' } },
];
/** When the fake clock says each published event arrived, ms after the configure answer. */
const TIMES = [100, 350, 1000, 1010];
const INITIAL = DEFAULT_INITIAL_STATES.length;

/** Resolves once the device has a CONFIGURED session: polled on setImmediate, no timers. */
async function configuredSession(device: DeviceHandle): Promise<void> {
  for (let turns = 0; turns < 100_000; turns++) {
    if (device.sessions().some((s) => s.state === 'CONFIGURED')) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  throw new Error('no session configured');
}

/**
 * A clock for the recorder: 0 at the configure answer, 0 for the initial states, then
 * TIMES for the published events, in the order the recorder asks.
 */
function fakeClock(initial: number): () => number {
  const values = [0, ...Array<number>(initial).fill(0), ...TIMES];
  let i = 0;
  return () => values[Math.min(i++, values.length - 1)];
}

/** Records from `device`, publishing SEQUENCE once both sides agree the stream is subscribed. */
async function recordSequence(device: DeviceHandle, options: Partial<RecordOptions> = {}): Promise<RecordedEvent[]> {
  let configured!: () => void;
  const recorderConfigured = new Promise<void>((resolve) => (configured = resolve));
  const publishing = Promise.all([recorderConfigured, configuredSession(device)]).then(() => {
    for (const e of SEQUENCE) device.publish(e.topic, { source: e.source, data: e.data });
  });
  const events = await recordEvents({
    url: wsUrl(device, streamTarget(device)),
    maxEvents: INITIAL + SEQUENCE.length,
    now: fakeClock(INITIAL),
    onConfigured: () => setImmediate(configured),
    ...options,
  });
  await publishing;
  return events;
}

function load(yaml: string): Scenario {
  const loaded = loadScenario(yaml, 'capture.yaml');
  if (!loaded.ok) throw new Error(loaded.error.errors.map((e) => e.text).join('\n'));
  return loaded.value;
}

const seen = (n: StreamMessage): [string, Record<string, string>, Record<string, string>] => {
  const { topic, message } = notificationOf(n);
  return [topic, message.source, message.data];
};

describe('bwc-emu record', () => {
  it.each([
    ['digest on the handshake', false],
    ['a session token from wssession.cgi', true],
  ])('records with %s; the replay gives the same topics, data, order and relative times', async (_how, token) => {
    const source = await start();
    const events = await recordSequence(source, { token });

    // What was recorded: the initial states with the configure answer, then SEQUENCE at its times.
    expect(events.slice(0, INITIAL).every((e) => e.initial === true)).toBe(true);
    expect(events.slice(0, INITIAL).map((e) => e.topic)).toEqual(DEFAULT_INITIAL_STATES.map((s) => s.topic));
    const timed = events.slice(INITIAL);
    expect(timed.map((e) => e.initial)).toEqual(SEQUENCE.map(() => undefined));
    expect(timed.map((e) => [e.topic, e.source, e.data])).toEqual(SEQUENCE.map((e) => [e.topic, e.source, e.data]));
    expect(timed.map((e) => e.atMs)).toEqual(TIMES);

    const yaml = toScenarioYaml(events, {
      name: 'capture',
      source: wsUrl(source, streamTarget(source, '?sources=events&wssession=secret')),
      recordedAt: new Date(Date.UTC(2026, 10, 23)),
    });
    expect(yaml).toMatch(
      /^# Recorded by bwc-emu record\n# {3}from: ws:\/\/.*\/svc\/ws-data-stream\?sources=events\n# {3}at: {3}2026-11-23T00:00:00.000Z\n/,
    );
    expect(yaml).not.toContain('secret');
    expect(yaml).toContain('at: 1s10ms');
    const scenario = load(yaml);
    expect(scenario.states).toHaveLength(INITIAL);
    expect(scenario.timeline?.map((s) => s.at)).toEqual(TIMES);

    // Replay on a second device, time moved by hand.
    const scheduler = new ManualScheduler(Date.UTC(2026, 10, 23));
    const replay = await start(deviceOptionsForScenario(scenario, { clock: scheduler }));
    const run = playOnDevice(replay, scenario, { scheduler });
    const client = await openWithToken(replay);
    expect((await client.configure([{ topicFilter: '' }])).error).toBeUndefined();
    // The initial states, as the source device sent them to the recorder.
    const states = await client.nextN(INITIAL);
    expect(states.map(seen)).toEqual(events.slice(0, INITIAL).map((e) => [e.topic, e.source, e.data]));

    // Each event comes at its recorded time, not a millisecond sooner.
    let previous = 0;
    for (const [i, at] of TIMES.entries()) {
      scheduler.advance(at - 1 - previous);
      expect(client.pending).toBe(0);
      scheduler.advance(1);
      previous = at;
      const sameTime = TIMES.filter((t) => t === at).length;
      if (TIMES.indexOf(at) !== i) continue; // already taken with an earlier one
      const notes = await client.nextN(sameTime);
      expect(notes.map(seen)).toEqual(SEQUENCE.slice(i, i + sameTime).map((e) => [e.topic, e.source, e.data]));
    }
    expect(client.pending).toBe(0);
    run.stop();
    await client.close();
  });

  it('fromFirstEvent drops the quiet start; initialStates: timeline keeps the states as emits', async () => {
    const source = await start();
    const events = await recordSequence(source);
    const trimmed = load(
      toScenarioYaml(events, { name: 'trimmed', source: 'ws://camera/svc/ws-data-stream', fromFirstEvent: true }),
    );
    expect(trimmed.timeline?.map((s) => s.at)).toEqual(TIMES.map((t) => t - TIMES[0]));
    const flat = load(
      toScenarioYaml(events, { name: 'flat', source: 'ws://camera/svc/ws-data-stream', initialStates: 'timeline' }),
    );
    expect(flat.states).toBeUndefined();
    expect(flat.timeline?.map((s) => s.emit?.topic)).toEqual(events.map((e) => e.topic));
    expect(flat.timeline?.map((s) => s.at)).toEqual(events.map((e) => e.atMs));
  });

  it('stops at durationMs and when the signal aborts, with what was received', async () => {
    const source = await start({ initialStates: [] });
    const url = wsUrl(source, streamTarget(source));
    await expect(recordEvents({ url, durationMs: 1 })).resolves.toEqual([]);
    const abort = new AbortController();
    const events = await recordEvents({
      url,
      onConfigured: () =>
        setImmediate(() => {
          source.publish(SEQUENCE[0].topic, { source: SEQUENCE[0].source, data: SEQUENCE[0].data });
          // Abort once the notification has been read: poll on setImmediate, no timers.
          const poll = (): void =>
            void (source.sessions()[0]?.sent === 1 ? setImmediate(() => abort.abort()) : setImmediate(poll));
          poll();
        }),
      signal: abort.signal,
      filters: ['tns1:VideoSource//.'],
    });
    expect(events.map((e) => e.data)).toEqual([SEQUENCE[0].data]);
  });

  it('a wrong password is a clear error, with digest and with a token', async () => {
    const source = await start();
    const url = wsUrl(source, streamTarget(source));
    const digest = recordEvents({ url, password: 'wrong', maxEvents: 1 });
    await expect(digest).rejects.toThrow(
      /^the device refused the stream handshake: HTTP 401 \(wrong user or password\?\)/,
    );
    await expect(digest).rejects.toMatchObject({ code: 'HANDSHAKE_REFUSED', status: 401 });
    const token = recordEvents({ url, token: true, password: 'wrong', maxEvents: 1 });
    await expect(token).rejects.toThrow(
      /^\/svc-cgi\/wssession.cgi refused a session token: HTTP 401 \(wrong user or password\?\)/,
    );
    await expect(token).rejects.toMatchObject({ code: 'TOKEN_REFUSED', status: 401 });
    expect(source.sessions()).toEqual([]);
  });

  it('a filter the device rejects is its error code and message', async () => {
    const source = await start();
    const refused = recordEvents({ url: wsUrl(source, streamTarget(source)), filters: ['tns1:Device/'], maxEvents: 1 });
    await expect(refused).rejects.toThrow(/^the device refused events:configure: error 2104: /);
    await expect(refused).rejects.toBeInstanceOf(RecordError);
  });

  it('a lost connection is CONNECTION_LOST and keeps what was received', async () => {
    const source = await start({ initialStates: [] });
    const recording = recordEvents({
      url: wsUrl(source, streamTarget(source)),
      onConfigured: () =>
        setImmediate(() => {
          source.publish(SEQUENCE[0].topic, { source: SEQUENCE[0].source, data: SEQUENCE[0].data });
          void source.close();
        }),
    });
    const error = (await recording.then(
      () => {
        throw new Error('expected the recording to fail');
      },
      (e: unknown) => e,
    )) as RecordError;
    expect(error).toBeInstanceOf(RecordError);
    expect(error.code).toBe('CONNECTION_LOST');
    expect(error.message).toMatch(/^connection lost \(\d+.*\) after 1 event$/);
    expect(error.events.map((e) => e.data)).toEqual([SEQUENCE[0].data]);
  });

  it.each([
    ['digest', false],
    ['a token over https', true],
  ])('records over wss with %s, trusting the device certificate with ca (or insecure)', async (_how, token) => {
    const source = await start({ tls: true });
    expect(wsUrl(source, streamTarget(source))).toMatch(/^wss:/);
    const events = await recordSequence(source, { token, ca: source.certificate });
    expect(events.slice(INITIAL).map((e) => e.data)).toEqual(SEQUENCE.map((e) => e.data));
    const insecure = await recordEvents({
      url: wsUrl(source, streamTarget(source)),
      token,
      insecure: true,
      maxEvents: INITIAL,
    });
    expect(insecure.map((e) => e.topic)).toEqual(DEFAULT_INITIAL_STATES.map((s) => s.topic));
    await expect(recordEvents({ url: wsUrl(source, streamTarget(source)), token, maxEvents: 1 })).rejects.toMatchObject(
      {
        code: 'CONNECT_FAILED',
        message: expect.stringMatching(/self-signed|self signed|unable to verify/i) as string,
      },
    );
  });

  it('an unreachable device is CONNECT_FAILED', async () => {
    const source = await start();
    const url = wsUrl(source, streamTarget(source));
    await source.close();
    await expect(recordEvents({ url, maxEvents: 1 })).rejects.toMatchObject({
      code: 'CONNECT_FAILED',
      message: expect.stringMatching(/^cannot connect to /) as string,
    });
  });
});
