/**
 * The fault switch controller on a fake device: parameter validation and its messages,
 * switching off by name, the order of `list()`, `forMs`, one action of a kind at a time, and
 * `close()` ending what is pending. No sockets: jest's fake timers drive every wait.
 */
import type { Authenticator } from '../../../../src/auth/authenticator';
import type { SessionTokens } from '../../../../src/auth/session-tokens';
import { ManualClock } from '../../../../src/base/clock';
import { EmulatorError } from '../../../../src/base/errors';
import type { DeviceDoor } from '../../../../src/base/device-door';
import { createLogger } from '../../../../src/base/log';
import { DeviceFaults } from '../../../../src/device/faults/device-faults';
import type { FaultTarget, HttpFaults } from '../../../../src/device/faults/fault-target';
import { EventBus } from '../../../../src/events/event-bus';
import type { EventFaults } from '../../../../src/events/event-faults';
import type { StreamServer } from '../../../../src/events/stream-server';
import { FAULT_NAMES, type FaultName } from '../../../../src/protocol/fault-catalogue';

const PORT = 'tns1:Device/tnsvendor:IO/Port';
const START = Date.UTC(2026, 0, 1);

/** A device as the switches see it: its fault fields, a real bus, and mocks recording the rest. */
function fakeDevice() {
  const clock = new ManualClock(START);
  const events: EventFaults = {};
  const http: HttpFaults = {};
  const bus = new EventBus(clock, { mode: 'utc' }, events);
  const published: string[] = [];
  bus.subscribe((event) => published.push(event.topic));
  const stream = { holdSessions: jest.fn(), resetSessions: jest.fn(() => 0), closeSessions: jest.fn(() => 0) };
  const listening = { suspend: jest.fn(() => Promise.resolve()), resume: jest.fn(() => Promise.resolve()) };
  const authenticator = { renewNonceSecret: jest.fn(), rejectFor: jest.fn(), tuneDigest: jest.fn() };
  const tokens = { revokeAll: jest.fn() };
  const restartStates = jest.fn(() => {
    bus.clearStates();
    bus.publish(PORT, { source: { port: '1' }, data: { state: '0' } }, { stateful: true });
  });
  const lines: Record<string, unknown>[] = [];
  const target: Omit<FaultTarget, 'wait'> = {
    serial: 'TEST',
    namespace: 'tnsvendor',
    events,
    http,
    stream: stream as unknown as StreamServer,
    bus,
    authenticator: authenticator as unknown as Authenticator,
    tokens: tokens as unknown as SessionTokens,
    listening: listening as unknown as DeviceDoor,
    spares: () => false,
    restartStates,
    certificateFor: undefined,
    log: createLogger({ level: 'info', write: (line) => lines.push(JSON.parse(line) as Record<string, unknown>) }),
    journal: undefined,
    clock,
  };
  const faults = new DeviceFaults(target);
  return {
    faults,
    clock,
    events,
    http,
    bus,
    published,
    stream,
    listening,
    authenticator,
    tokens,
    restartStates,
    lines,
  };
}

/** The error `promise` rejects with. */
async function rejection(promise: Promise<unknown>): Promise<EmulatorError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(EmulatorError);
    return err as EmulatorError;
  }
  throw new Error('expected a rejection');
}

beforeEach(() => {
  jest.useFakeTimers();
});
afterEach(() => {
  jest.useRealTimers();
});

describe('validation', () => {
  it('an unknown switch: BAD_FAULT naming every switch', async () => {
    const { faults } = fakeDevice();
    const err = await rejection(faults.set('nope' as FaultName));
    expect(err.code).toBe('BAD_FAULT');
    expect(err.message).toBe(`no fault switch "nope"; switches: ${FAULT_NAMES.join(', ')}`);
  });

  it.each([
    ['stall', { pings: 1 }, 'fault stall: pings: Invalid input: expected boolean, received number'],
    [
      'slots',
      { max: 0, overflow: 'x' },
      'fault slots: max: Too small: expected number to be >=1; overflow: Invalid option: expected one of "refuse"|"evict"',
    ],
    ['stall', { bogus: 1 }, 'fault stall: Unrecognized key: "bogus"'],
    ['stall', 'x', 'fault stall: Invalid input: expected object, received string'],
    [
      'drop',
      { mode: 'close', code: 1006 },
      'fault drop: code: not a close code a server may send (1000-1003, 1007-1014, 3000-4999)',
    ],
    ['cgi', { status: 500 }, 'fault cgi: status: Invalid input: expected 503'],
    ['no-websocket', { forMs: 0 }, 'fault no-websocket: forMs: Too small: expected number to be >=1'],
  ])('%s %j: BAD_FAULT "%s"', async (name, params, message) => {
    const { faults, events, stream } = fakeDevice();
    const err = await rejection(faults.set(name as FaultName, params as never));
    expect(err.code).toBe('BAD_FAULT');
    expect(err.message).toBe(message);
    expect(faults.list()).toEqual([]);
    expect(events).toEqual({});
    expect(stream.closeSessions).not.toHaveBeenCalled();
  });

  it('defaults are filled in, and the switch gets them', async () => {
    const { faults, events, clock } = fakeDevice();
    const info = await faults.set('slots');
    const params = { max: 4, overflow: 'evict', code: 1008, reason: 'event subscription slots exhausted' };
    expect(info).toEqual({ name: 'slots', params, since: clock.now(), until: undefined });
    expect(events.slots).toEqual(params);
  });

  it('tls-host on a device without TLS: BAD_FAULT, and nothing is on', async () => {
    const { faults } = fakeDevice();
    const err = await rejection(faults.set('tls-host'));
    expect(err).toMatchObject({ code: 'BAD_FAULT', message: 'tls-host needs an HTTPS device (start it with --tls)' });
    expect(faults.list()).toEqual([]);
  });
});

describe('clear and list', () => {
  it('clear(name) switches that one off and returns its name; another switch stays on', async () => {
    const { faults, events, http } = fakeDevice();
    await faults.set('no-websocket');
    await faults.set('cgi', { delayMs: 10 });
    expect(faults.clear('no-websocket')).toEqual(['no-websocket']);
    expect(events.noWebSocket).toBeUndefined();
    expect(http.cgi).toEqual({ delayMs: 10, status: undefined });
    expect(faults.list().map((f) => f.name)).toEqual(['cgi']);
  });

  it('clear(name) of a switch that is off returns []', async () => {
    const { faults } = fakeDevice();
    expect(faults.clear('stall')).toEqual([]);
    await faults.set('stall');
    expect(faults.clear('clock')).toEqual([]);
    expect(faults.list()).toHaveLength(1);
  });

  it('clear() switches every one off, in the order they were switched on', async () => {
    const { faults, events } = fakeDevice();
    await faults.set('clock', { skewMs: 5 });
    await faults.set('stuck-states');
    await faults.set('no-initial-states');
    expect(faults.clear()).toEqual(['clock', 'stuck-states', 'no-initial-states']);
    expect(events).toEqual({ clock: undefined, stuckStates: undefined, noInitialStates: undefined });
    expect(faults.list()).toEqual([]);
  });

  it('list() is in the order switched on; switching one again moves it last with its new parameters', async () => {
    const { faults, clock } = fakeDevice();
    await faults.set('stall');
    clock.advance(1);
    await faults.set('clock', { missing: true });
    clock.advance(1);
    await faults.set('slots', { max: 2 });
    expect(faults.list().map((f) => f.name)).toEqual(['stall', 'clock', 'slots']);
    clock.advance(1);
    await faults.set('stall', { pings: false });
    expect(faults.list().map((f) => [f.name, f.since])).toEqual([
      ['clock', START + 1],
      ['slots', START + 2],
      ['stall', START + 3],
    ]);
    expect(faults.list()[2].params).toEqual({ pings: false });
  });

  it('switching a switch again switches the old one off first', async () => {
    const { faults, stream, events } = fakeDevice();
    await faults.set('stall', { pings: false });
    await faults.set('stall', { pings: true });
    expect(stream.holdSessions.mock.calls).toEqual([[true], [false]]);
    expect(events.stall).toEqual({ pings: true });
  });

  it('actions are not listed: they are over when set() resolves', async () => {
    const { faults, stream, clock } = fakeDevice();
    expect(await faults.set('drop', { mode: 'close', code: 4000, reason: 'r' })).toEqual({
      name: 'drop',
      params: { mode: 'close', code: 4000, reason: 'r' },
      since: clock.now(),
      until: clock.now(),
    });
    expect(stream.closeSessions).toHaveBeenCalledWith(4000, 'r');
    await faults.set('drop');
    expect(stream.resetSessions).toHaveBeenCalledTimes(1);
    expect(faults.list()).toEqual([]);
  });
});

describe('forMs', () => {
  it('a state switch is on for forMs, then off by itself', async () => {
    const { faults, events } = fakeDevice();
    const info = await faults.set('no-websocket', { forMs: 1000 });
    expect(info.until).toBe(info.since + 1000);
    jest.advanceTimersByTime(999);
    expect(events.noWebSocket).toBe(true);
    expect(faults.list()).toEqual([info]);
    jest.advanceTimersByTime(1);
    expect(events.noWebSocket).toBeUndefined();
    expect(faults.list()).toEqual([]);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('switching it again restarts the time; without forMs it stays on', async () => {
    const { faults, events } = fakeDevice();
    await faults.set('no-initial-states', { forMs: 1000 });
    jest.advanceTimersByTime(600);
    await faults.set('no-initial-states', { forMs: 1000 });
    jest.advanceTimersByTime(600);
    expect(events.noInitialStates).toBe(true);
    jest.advanceTimersByTime(400);
    expect(events.noInitialStates).toBeUndefined();
    await faults.set('no-initial-states', { forMs: 1000 });
    await faults.set('no-initial-states');
    jest.advanceTimersByTime(10_000);
    expect(events.noInitialStates).toBe(true);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('clear(name) cancels the timer', async () => {
    const { faults } = fakeDevice();
    await faults.set('stall', { forMs: 1000 });
    faults.clear('stall');
    expect(jest.getTimerCount()).toBe(0);
  });
});

describe('actions', () => {
  it('reboot: port closed, nonces, tokens and states renewed, back after downMs, logins refused after', async () => {
    const { faults, listening, authenticator, tokens, restartStates } = fakeDevice();
    let done = false;
    const rebooting = faults.set('reboot', { downMs: 5000, refuseLoginsMs: 2000 }).then(() => (done = true));
    await jest.advanceTimersByTimeAsync(0);
    expect(listening.suspend).toHaveBeenCalledTimes(1);
    expect(authenticator.renewNonceSecret).toHaveBeenCalledTimes(1);
    expect(tokens.revokeAll).toHaveBeenCalledTimes(1);
    expect(restartStates).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(4999);
    expect(listening.resume).not.toHaveBeenCalled();
    expect(done).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    await rebooting;
    expect(listening.resume).toHaveBeenCalledTimes(1);
    expect(authenticator.rejectFor).toHaveBeenCalledWith(2000);
  });

  it('a reboot that cannot listen again (port taken) rejects with PORT_IN_USE, logs it, and may be retried', async () => {
    const { faults, listening, lines } = fakeDevice();
    listening.resume.mockImplementationOnce(() =>
      Promise.reject(new EmulatorError('PORT_IN_USE', 'port 8080 on 127.0.0.1 is already in use')),
    );
    const rebooting = faults.set('reboot', { downMs: 10 });
    const failed = rejection(rebooting);
    await jest.advanceTimersByTimeAsync(10);
    expect(await failed).toMatchObject({ code: 'PORT_IN_USE' });
    expect(lines.filter((l) => l.msg === 'fault switch failed')).toEqual([
      expect.objectContaining({ fault: 'reboot', level: 50 }),
    ]);
    const again = faults.set('reboot', { downMs: 1 });
    await jest.advanceTimersByTimeAsync(1);
    await expect(again).resolves.toMatchObject({ name: 'reboot' });
  });

  it('one action of a kind at a time: BAD_FAULT while it is under way, fine once over', async () => {
    const { faults } = fakeDevice();
    const first = faults.set('reboot', { downMs: 1000 });
    const err = await rejection(faults.set('reboot'));
    expect(err).toMatchObject({ code: 'BAD_FAULT', message: 'fault reboot is already under way' });
    await jest.advanceTimersByTimeAsync(1000);
    await first;
    const second = faults.set('reboot', { downMs: 1 });
    await jest.advanceTimersByTimeAsync(1);
    await expect(second).resolves.toMatchObject({ name: 'reboot' });
  });

  it('reboot with stuck-states on: the initial states are published, not swallowed, and the switch stays on', async () => {
    const { faults, events, bus } = fakeDevice();
    bus.publish(PORT, { source: { port: '1' }, data: { state: '0' } }, { stateful: true });
    await faults.set('stuck-states');
    const stuck = events.stuckStates;
    bus.publish(PORT, { source: { port: '1' }, data: { state: '1' } }, { stateful: true });
    const rebooting = faults.set('reboot', { downMs: 1 });
    await jest.advanceTimersByTimeAsync(1);
    await rebooting;
    expect(bus.currentStates().map((e) => e.message.data)).toEqual([{ state: '0' }]);
    expect(events.stuckStates).toBe(stuck);
    expect(stuck?.size).toBe(0);
  });

  it('storm: exactly ratePerSecond * forMs / 1000 events, in 10 ms ticks', async () => {
    const { faults, published } = fakeDevice();
    let done = false;
    const storm = faults
      .set('storm', { topic: 'tns1:Storm', ratePerSecond: 1000, forMs: 50 })
      .then(() => (done = true));
    await jest.advanceTimersByTimeAsync(0);
    expect(published).toHaveLength(10);
    await jest.advanceTimersByTimeAsync(10);
    expect(published).toHaveLength(20);
    await jest.advanceTimersByTimeAsync(30);
    await storm;
    expect(done).toBe(true);
    expect(published).toEqual(Array.from({ length: 50 }, () => 'tns1:Storm'));
  });

  it('storm: a rate below one per tick is spread over the ticks and still adds up', async () => {
    const { faults, published } = fakeDevice();
    const storm = faults.set('storm', { ratePerSecond: 30, forMs: 1000 });
    await jest.advanceTimersByTimeAsync(1000);
    await storm;
    expect(published).toHaveLength(30);
  });
});

describe('close()', () => {
  it('ends a pending reboot wait at once: the reboot resolves without listening again', async () => {
    const { faults, listening } = fakeDevice();
    const rebooting = faults.set('reboot', { downMs: 3_600_000 });
    await jest.advanceTimersByTimeAsync(0);
    expect(listening.suspend).toHaveBeenCalled();
    faults.close();
    await expect(rebooting).resolves.toMatchObject({ name: 'reboot' });
    expect(listening.resume).not.toHaveBeenCalled();
    expect(jest.getTimerCount()).toBe(0);
  });

  it('ends a storm', async () => {
    const { faults, published } = fakeDevice();
    const storm = faults.set('storm', { ratePerSecond: 100, forMs: 60_000 });
    await jest.advanceTimersByTimeAsync(20);
    faults.close();
    await storm;
    expect(published).toHaveLength(3);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('switches every switch off and cancels their timers; set() afterwards is CLOSED', async () => {
    const { faults, events, stream } = fakeDevice();
    await faults.set('stall', { pings: false, forMs: 1000 });
    await faults.set('no-websocket');
    faults.close();
    expect(events).toEqual({ stall: undefined, noWebSocket: undefined });
    expect(stream.holdSessions.mock.calls).toEqual([[true], [false]]);
    expect(faults.list()).toEqual([]);
    expect(jest.getTimerCount()).toBe(0);
    expect(await rejection(faults.set('stall'))).toMatchObject({ code: 'CLOSED' });
  });
});
