import { ManualClock } from '../../../src/base/clock';
import { EmulatorError } from '../../../src/base/errors';
import { type NotificationMessage, NotificationSchema } from '../../../src/events/notification-message';
import { type DeviceEvent, EventBus } from '../../../src/events/event-bus';
import type { NotifyParams } from '../../helpers/event-stream-client';

const PORT = 'tns1:Device/tnsvendor:IO/Port';
const READY = 'tns1:Device/tnsvendor:Status/SystemReady';
const MOTION = 'tns1:RuleEngine/MotionRegionDetector/Motion';
const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);

function busAt(mode?: ConstructorParameters<typeof EventBus>[1]): { bus: EventBus; clock: ManualClock } {
  const clock = new ManualClock(T0);
  return { bus: new EventBus(clock, mode), clock };
}

/** The notification in an event's serialised `events:notify` message, checked against its schema (no field more). */
function notificationIn(json: string): NotifyParams['notification'] {
  const { notification } = (JSON.parse(json) as { params: NotifyParams }).params;
  expect(NotificationSchema.parse(notification)).toEqual(notification);
  return notification;
}

function thrown(fn: () => unknown): EmulatorError {
  try {
    fn();
  } catch (err) {
    if (err instanceof EmulatorError) return err;
    throw err;
  }
  throw new Error('expected an EmulatorError');
}

describe('EventBus.publish: the events:notify message', () => {
  it('serialises exactly the spec shape, in the spec field order', () => {
    const { bus } = busAt();
    const event = bus.publish(PORT, { source: { port: '1' }, key: { k: 'v' }, data: { state: '1' } });
    expect(event.json).toBe(
      `{"apiVersion":"1.0","method":"events:notify","params":{"notification":{"topic":"${PORT}","timestamp":${T0},"message":{"source":{"port":"1"},"key":{"k":"v"},"data":{"state":"1"}}}}}`,
    );
  });

  it('fills absent message parts with empty objects in the JSON, not in event.message', () => {
    const { bus } = busAt();
    const event = bus.publish(MOTION, { data: { active: '1' } });
    expect(notificationIn(event.json).message).toEqual({ source: {}, key: {}, data: { active: '1' } });
    expect(event.message).toEqual({ data: { active: '1' } });
    const bare = bus.publish(MOTION);
    expect(notificationIn(bare.json).message).toEqual({ source: {}, key: {}, data: {} });
  });

  it('escapes any text in names and values', () => {
    const { bus } = busAt();
    const data = { 'quote"name': 'line\nbreak \u2028 "x" \\ é 😀', '': '' };
    const event = bus.publish(MOTION, { data });
    expect(notificationIn(event.json).message.data).toEqual(data);
  });

  it('builds the JSON once, however many listeners read it, and not before the first does', () => {
    const { bus } = busAt();
    const seen: DeviceEvent[] = [];
    for (let i = 0; i < 5; i++) bus.subscribe((e) => seen.push(e));
    const stringify = jest.spyOn(JSON, 'stringify');
    try {
      const event = bus.publish(PORT, { source: { port: '1' }, data: { state: '1' } });
      expect(stringify).toHaveBeenCalledTimes(0);
      const bytes = seen.map((e) => e.payload);
      expect(stringify).toHaveBeenCalledTimes(1);
      expect(new Set(bytes).size).toBe(1);
      expect(seen).toHaveLength(5);
      for (const e of seen) expect(e).toBe(event);
    } finally {
      stringify.mockRestore();
    }
  });

  it('returns a frozen event whose message is a copy of the input', () => {
    const { bus } = busAt();
    const data: Record<string, string> = { state: '1' };
    const event = bus.publish(PORT, { data });
    data.state = '0';
    data.extra = 'x';
    expect(Object.isFrozen(event)).toBe(true);
    expect(Object.isFrozen(event.message)).toBe(true);
    expect(event.message.data).toEqual({ state: '1' });
    expect(notificationIn(event.json).message.data).toEqual({ state: '1' });
    expect(event.topic).toBe(PORT);
    expect(event.stateful).toBe(false);
  });
});

describe('EventBus.publish: timestamps', () => {
  it('utc (default): the clock in ms', () => {
    const { bus, clock } = busAt();
    expect(bus.publish(PORT).timestamp).toBe(T0);
    clock.advance(1234);
    const event = bus.publish(PORT);
    expect(event.timestamp).toBe(T0 + 1234);
    expect(notificationIn(event.json).timestamp).toBe(T0 + 1234);
  });

  it('none: no timestamp member at all', () => {
    const { bus } = busAt({ mode: 'none' });
    const event = bus.publish(PORT);
    expect(event.timestamp).toBeUndefined();
    expect(event.json).not.toContain('timestamp');
    expect(Object.keys(notificationIn(event.json))).toEqual(['topic', 'message']);
  });

  it.each([
    [120, T0 + 120 * 60_000],
    [-300, T0 - 300 * 60_000],
    [0, T0],
  ])('local with offset %i minutes', (offsetMinutes, expected) => {
    const { bus } = busAt({ mode: 'local', offsetMinutes });
    const event = bus.publish(PORT);
    expect(event.timestamp).toBe(expected);
    expect(notificationIn(event.json).timestamp).toBe(expected);
  });

  it('a per-event timestamp overrides the mode; null means none', () => {
    for (const mode of [
      { mode: 'utc' } as const,
      { mode: 'none' } as const,
      { mode: 'local', offsetMinutes: 60 } as const,
    ]) {
      const { bus } = busAt(mode);
      const given = bus.publish(PORT, {}, { timestamp: 1639385866198 });
      expect(given.timestamp).toBe(1639385866198);
      expect(notificationIn(given.json).timestamp).toBe(1639385866198);
      const none = bus.publish(PORT, {}, { timestamp: null });
      expect(none.timestamp).toBeUndefined();
      expect(none.json).not.toContain('timestamp');
    }
  });

  it('a per-event timestamp of 0 is kept', () => {
    const { bus } = busAt();
    expect(notificationIn(bus.publish(PORT, {}, { timestamp: 0 }).json).timestamp).toBe(0);
  });
});

describe('EventBus: stateful events', () => {
  it('keeps the last state per topic, source and key', () => {
    const { bus } = busAt();
    bus.publish(PORT, { source: { port: '1' }, data: { state: '0' } }, { stateful: true });
    bus.publish(PORT, { source: { port: '2' }, data: { state: '0' } }, { stateful: true });
    bus.publish(READY, { data: { ready: '1' } }, { stateful: true });
    const latest = bus.publish(PORT, { source: { port: '1' }, data: { state: '1' } }, { stateful: true });
    expect(latest.stateful).toBe(true);
    const states = bus.currentStates();
    expect(states).toHaveLength(3);
    expect(states).toContain(latest);
    const port1 = states.filter((s) => s.topic === PORT && s.message.source?.port === '1');
    expect(port1).toEqual([latest]);
    expect(states.find((s) => s.topic === PORT && s.message.source?.port === '2')?.message.data).toEqual({
      state: '0',
    });
  });

  it('tells states apart by key as well as source, whatever the member order', () => {
    const { bus } = busAt();
    bus.publish(MOTION, { source: { a: '1', b: '2' }, key: { id: '1' }, data: { on: '0' } }, { stateful: true });
    bus.publish(MOTION, { source: { a: '1', b: '2' }, key: { id: '2' }, data: { on: '0' } }, { stateful: true });
    const replaced = bus.publish(
      MOTION,
      { source: { b: '2', a: '1' }, key: { id: '1' }, data: { on: '1' } },
      { stateful: true },
    );
    expect(bus.currentStates()).toHaveLength(2);
    expect(bus.currentStates()).toContain(replaced);
  });

  it('data is not part of the state identity; the topic is', () => {
    const { bus } = busAt();
    bus.publish(PORT, { data: { state: '0' } }, { stateful: true });
    bus.publish(PORT, { data: { other: '1' } }, { stateful: true });
    bus.publish(READY, { data: { state: '0' } }, { stateful: true });
    expect(bus.currentStates().map((s) => s.topic)).toEqual([PORT, READY]);
  });

  it('does not keep stateless events, and clearStates forgets all', () => {
    const { bus } = busAt();
    bus.publish(PORT, { source: { port: '1' } });
    expect(bus.currentStates()).toEqual([]);
    bus.publish(PORT, { source: { port: '1' } }, { stateful: true });
    expect(bus.currentStates()).toHaveLength(1);
    bus.clearStates();
    expect(bus.currentStates()).toEqual([]);
  });

  it('a stateless event does not replace a kept state', () => {
    const { bus } = busAt();
    const state = bus.publish(PORT, { source: { port: '1' }, data: { state: '1' } }, { stateful: true });
    bus.publish(PORT, { source: { port: '1' }, data: { state: '0' } });
    expect(bus.currentStates()).toEqual([state]);
  });
});

describe('EventBus.publish: bad events', () => {
  it.each([
    '',
    'tns1:',
    ':Device',
    'tns1:Device/',
    '/tns1:Device',
    'tns1:Device//',
    'a b',
    'tns1:Dev ice',
    '1tns:Device',
    'tns1:Device|x',
    'a:b:c',
  ])('BAD_EVENT for the topic %p', (topic) => {
    const { bus } = busAt();
    const listener = jest.fn();
    bus.subscribe(listener);
    const err = thrown(() => bus.publish(topic, {}, { stateful: true }));
    expect(err.code).toBe('BAD_EVENT');
    expect(err.message).toContain('topic');
    expect(listener).not.toHaveBeenCalled();
    expect(bus.currentStates()).toEqual([]);
    expect(bus.publishedCount).toBe(0);
  });

  it('remembers good topics only, and checks them again once more than it keeps have come', () => {
    const { bus } = busAt();
    for (let i = 0; i < 1_100; i++) bus.publish(`tns1:Topic${i}`);
    expect(thrown(() => bus.publish('tns1:Device/')).code).toBe('BAD_EVENT');
    expect(thrown(() => bus.publish('tns1:Device/')).code).toBe('BAD_EVENT');
    expect(bus.publish('tns1:Topic0').topic).toBe('tns1:Topic0');
    expect(bus.publish('tns1:Topic1099').topic).toBe('tns1:Topic1099');
    expect(bus.publishedCount).toBe(1_102);
  });

  it('BAD_EVENT for a topic that is not a string', () => {
    const { bus } = busAt();
    for (const topic of [undefined, null, 5, {}])
      expect(thrown(() => bus.publish(topic as string)).code).toBe('BAD_EVENT');
  });

  it.each<[string, unknown]>([
    ['a number value', { data: { state: 1 } }],
    ['a boolean value', { source: { port: true } }],
    ['a null value', { key: { id: null } }],
    ['a nested object', { data: { state: { v: '1' } } }],
    ['a part that is a string', { source: 'port1' }],
    ['a part that is a list', { key: ['a'] }],
    ['a part that is null', { data: null }],
  ])('BAD_EVENT for %s, and nothing published', (_name, message) => {
    const { bus } = busAt();
    const listener = jest.fn();
    bus.subscribe(listener);
    const err = thrown(() => bus.publish(PORT, message as NotificationMessage, { stateful: true }));
    expect(err.code).toBe('BAD_EVENT');
    expect(err.message).toMatch(/message\.(source|key|data)/);
    expect(listener).not.toHaveBeenCalled();
    expect(bus.currentStates()).toEqual([]);
    expect(bus.publishedCount).toBe(0);
  });

  it('accepts topics of the grammar: QNames, NCNames, dots, dashes, underscores', () => {
    const { bus } = busAt();
    for (const topic of [
      'tns1:Device',
      'Device',
      '_x',
      'tns1:Device/tnsvendor:IO/Port',
      'a.b-c:d_e/f',
      'tns1:VideoSource/MotionAlarm',
    ]) {
      expect(bus.publish(topic).topic).toBe(topic);
    }
    expect(bus.publishedCount).toBe(6);
  });
});

describe('EventBus: listeners', () => {
  it('calls listeners synchronously, in subscription order, per event in publish order', () => {
    const { bus } = busAt();
    const calls: string[] = [];
    bus.subscribe((e) => calls.push(`a:${e.message.data?.n}`));
    bus.subscribe((e) => calls.push(`b:${e.message.data?.n}`));
    bus.subscribe((e) => calls.push(`c:${e.message.data?.n}`));
    bus.publish(PORT, { data: { n: '1' } });
    bus.publish(PORT, { data: { n: '2' } });
    expect(calls).toEqual(['a:1', 'b:1', 'c:1', 'a:2', 'b:2', 'c:2']);
  });

  it('the function subscribe returns removes that listener only', () => {
    const { bus } = busAt();
    const calls: string[] = [];
    bus.subscribe(() => calls.push('a'));
    const offB = bus.subscribe(() => calls.push('b'));
    bus.subscribe(() => calls.push('c'));
    offB();
    bus.publish(PORT);
    expect(calls).toEqual(['a', 'c']);
    offB();
    bus.publish(PORT);
    expect(calls).toEqual(['a', 'c', 'a', 'c']);
  });

  it('delivers to one listener, then to two, and to the other after one of two leaves', () => {
    const { bus } = busAt();
    const calls: string[] = [];
    const a = (e: DeviceEvent): number => calls.push(`a:${e.message.data?.n}`);
    const b = (e: DeviceEvent): number => calls.push(`b:${e.message.data?.n}`);
    bus.publish(PORT, { data: { n: '0' } });
    const offA = bus.subscribe(a);
    bus.publish(PORT, { data: { n: '1' } });
    bus.subscribe(b);
    bus.publish(PORT, { data: { n: '2' } });
    offA();
    bus.publish(PORT, { data: { n: '3' } });
    bus.unsubscribe(b);
    bus.publish(PORT, { data: { n: '4' } });
    expect(calls).toEqual(['a:1', 'a:2', 'b:2', 'b:3']);
  });

  it('keeps the first of two listeners when the second leaves, and can take both again', () => {
    const { bus } = busAt();
    const calls: string[] = [];
    const a = (): number => calls.push('a');
    const b = (): number => calls.push('b');
    bus.subscribe(a);
    const offB = bus.subscribe(b);
    offB();
    bus.publish(PORT);
    bus.unsubscribe(a);
    bus.publish(PORT);
    bus.subscribe(b);
    bus.subscribe(a);
    bus.publish(PORT);
    expect(calls).toEqual(['a', 'b', 'a']);
  });

  it('removing a listener that was never added leaves the one there', () => {
    const { bus } = busAt();
    const calls: string[] = [];
    bus.subscribe(() => calls.push('a'));
    bus.unsubscribe(() => calls.push('never'));
    bus.publish(PORT);
    expect(calls).toEqual(['a']);
  });

  it('delivers once to a listener subscribed twice (with one other or alone), and its removal ends it', () => {
    const { bus } = busAt();
    const calls: string[] = [];
    const a = (): number => calls.push('a');
    bus.subscribe(a);
    bus.subscribe(a);
    bus.publish(PORT);
    expect(calls).toEqual(['a']);
    bus.unsubscribe(a);
    bus.publish(PORT);
    expect(calls).toEqual(['a']);
    const b = (): number => calls.push('b');
    bus.subscribe(a);
    bus.subscribe(b);
    bus.subscribe(a);
    bus.publish(PORT);
    expect(calls).toEqual(['a', 'a', 'b']);
    bus.unsubscribe(a);
    bus.publish(PORT);
    expect(calls).toEqual(['a', 'a', 'b', 'b']);
  });

  it('counts published events', () => {
    const { bus } = busAt();
    expect(bus.publishedCount).toBe(0);
    bus.publish(PORT);
    bus.publish(PORT, {}, { stateful: true });
    expect(bus.publishedCount).toBe(2);
  });
});
