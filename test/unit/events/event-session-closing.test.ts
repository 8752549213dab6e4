/**
 * How an event session ends when the device ends it: a client too slow to read loses its
 * backlog and gets 1013 at once, a client that floods pings gets 1008, and a client that
 * does not answer the device's close is cut after the close timeout; the close is
 * reported with the code the device sent. The WebSocket is a fake, time a fake clock.
 */
import { ManualClock } from '../../../src/base/clock';
import { createLogger } from '../../../src/base/log';
import { EventBus } from '../../../src/events/event-bus';
import { CLOSE_TIMEOUT_MS, SLOW_CLOSE_TIMEOUT_MS } from '../../../src/events/close-handshake';
import { EventSession, type SessionObserver, type SessionSettings } from '../../../src/events/event-session';
import { sessionAccount } from '../../../src/events/session-limits';
import { FakeWebSocket, fakeSocket } from '../../helpers/fake-websocket';

const KIB = 1024;
const TOPIC = 'tns1:Device/tnsvendor:IO/Port';

interface Closed {
  code: number;
  reason: string;
  by: 'client' | 'device';
}

/** A session on a fake WebSocket, and what its observer heard of its close. */
function sessionOn(settings: Partial<SessionSettings> = {}): {
  ws: FakeWebSocket;
  session: EventSession;
  bus: EventBus;
  closed: Closed[];
} {
  const ws = new FakeWebSocket();
  const bus = new EventBus(new ManualClock());
  const closed: Closed[] = [];
  const observer = {
    claimTerms: () => undefined,
    sessionConfigured: () => undefined,
    sessionClosed: (_session: EventSession, code: number, reason: string, by: 'client' | 'device') =>
      closed.push({ code, reason, by }),
  } as SessionObserver;
  const session = new EventSession(
    's1',
    ws.asWebSocket(),
    fakeSocket(),
    {
      remoteAddress: '127.0.0.1',
      user: 'root',
      sources: ['events'],
      account: sessionAccount('root', '127.0.0.1', undefined),
    },
    {
      bus,
      rules: { topicAliases: {}, maxFilters: 16 },
      maxMessageBytes: 64 * KIB,
      maxBufferedBytes: 256 * KIB,
      log: createLogger({ level: 'silent' }),
      journal: undefined,
      ...settings,
    },
    observer,
  );
  return { ws, session, bus, closed };
}

/** Configures every topic and takes the answer off the fake socket. */
function configureAll(ws: FakeWebSocket, session: EventSession): void {
  const request = { apiVersion: '1.0', method: 'events:configure', params: { eventFilterList: [{ topicFilter: '' }] } };
  session.onMessage(Buffer.from(JSON.stringify(request)), false);
  expect(JSON.parse(ws.texts()[0])).toMatchObject({ data: {} });
  ws.bufferedAmount = 0;
}

afterEach(() => {
  jest.useRealTimers();
});

describe('a client too slow to read', () => {
  it('loses the notifications kept for it and gets 1013 at once, not behind them', () => {
    const { ws, session, bus } = sessionOn();
    configureAll(ws, session);
    const blob = 'x'.repeat(16 * KIB);
    let delivered = 0;
    while (session.open && delivered < 100) {
      session.deliver(bus.publish(TOPIC, { data: { blob, n: String(delivered) } }));
      delivered++;
    }
    // Each notification is a little over 16 KiB: the 4th takes the socket past the 64 KiB mark, and the
    // next ones wait for it to be written (it never is) until 256 KiB wait in all.
    expect(ws.sent).toHaveLength(1 + 4);
    expect(ws.closes).toEqual([{ code: 1013, reason: 'client too slow: send buffer full' }]);
    expect(delivered).toBe(4 + 11 + 1);
    // What was kept, and the one refused, is dropped: the close frame follows the 4 in the socket only.
    expect(session.info()).toMatchObject({ sent: 4, dropped: 12 });
  });
});

describe('the close of a client too slow to read', () => {
  /** A configured session whose client reads nothing, past its buffer: closed with 1013. */
  function tooSlow(settings: Partial<SessionSettings> = {}): ReturnType<typeof sessionOn> {
    const made = sessionOn(settings);
    configureAll(made.ws, made.session);
    const blob = 'x'.repeat(16 * KIB);
    while (made.session.open) made.session.deliver(made.bus.publish(TOPIC, { data: { blob } }));
    expect(made.ws.closes).toEqual([{ code: 1013, reason: 'client too slow: send buffer full' }]);
    return made;
  }

  it('waits as long as ws does (30 s), not 5 s: the client reads what its socket holds before the frame', () => {
    jest.useFakeTimers();
    const { ws, closed } = tooSlow();
    expect(SLOW_CLOSE_TIMEOUT_MS).toBe(30_000);
    jest.advanceTimersByTime(SLOW_CLOSE_TIMEOUT_MS - 1);
    expect(ws.terminated).toBe(false);
    jest.advanceTimersByTime(1);
    expect(ws.terminated).toBe(true);
    expect(closed).toEqual([{ code: 1013, reason: 'client too slow: send buffer full', by: 'device' }]);
  });

  it('honours slowCloseTimeoutMs from the settings, and stops waiting once answered', () => {
    jest.useFakeTimers();
    const quick = tooSlow({ slowCloseTimeoutMs: 100, closeTimeoutMs: 10 });
    jest.advanceTimersByTime(99);
    expect(quick.ws.terminated).toBe(false);
    jest.advanceTimersByTime(1);
    expect(quick.ws.terminated).toBe(true);

    const answered = tooSlow();
    jest.advanceTimersByTime(SLOW_CLOSE_TIMEOUT_MS - 1);
    answered.ws.end(1013, '');
    expect(jest.getTimerCount()).toBe(0);
    expect(answered.ws.terminated).toBe(false);
    expect(answered.closed).toEqual([{ code: 1013, reason: 'client too slow: send buffer full', by: 'device' }]);
  });
});

describe('a close the client does not answer', () => {
  it('is cut after the close timeout, and reported with the code the device sent', () => {
    jest.useFakeTimers();
    const { ws, session, closed } = sessionOn();
    // A close asked for (a slots fault's, a test's) with 1013 is not a slow client's: 5 s.
    session.close(1013, 'client too slow: send buffer full');
    jest.advanceTimersByTime(CLOSE_TIMEOUT_MS - 1);
    expect(ws.terminated).toBe(false);
    jest.advanceTimersByTime(1);
    expect(ws.terminated).toBe(true);
    expect(closed).toEqual([{ code: 1013, reason: 'client too slow: send buffer full', by: 'device' }]);
  });

  it('honours a shorter close timeout from the settings; an answered close stops the timer', () => {
    jest.useFakeTimers();
    const quick = sessionOn({ closeTimeoutMs: 100 });
    quick.session.close(1001, 'device shutting down');
    jest.advanceTimersByTime(100);
    expect(quick.ws.terminated).toBe(true);

    const answered = sessionOn({ closeTimeoutMs: 100 });
    answered.session.close(1001, 'device shutting down');
    answered.ws.end(1001, 'device shutting down');
    jest.advanceTimersByTime(1000);
    expect(answered.ws.terminated).toBe(false);
    expect(jest.getTimerCount()).toBe(0);
    expect(answered.closed).toEqual([{ code: 1001, reason: 'device shutting down', by: 'device' }]);
  });

  it("a client's own close keeps its code", () => {
    const { ws, closed } = sessionOn();
    ws.end(4000, 'bye');
    expect(closed).toEqual([{ code: 4000, reason: 'bye', by: 'client' }]);
  });

  it('a cut with no close frame sent (terminate) is still reported as 1006', () => {
    const { session, closed } = sessionOn();
    session.terminate();
    expect(closed).toEqual([{ code: 1006, reason: '', by: 'device' }]);
  });
});

describe('pings', () => {
  it('are answered with their data up to the limit; one more in the window closes with 1008', () => {
    const clock = new ManualClock();
    const { ws, closed } = sessionOn({ clock, pingLimit: { pings: 3, windowMs: 1000 } });
    for (let i = 1; i <= 3; i++) ws.emit('ping', Buffer.from(`p${i}`));
    clock.advance(999);
    ws.emit('ping', Buffer.from('p4'));
    ws.emit('ping', Buffer.from('p5'));
    expect(ws.pongs).toEqual(['p1', 'p2', 'p3']);
    expect(ws.closes).toEqual([{ code: 1008, reason: 'ping flood: at most 3 pings per 1 s' }]);
    ws.end(1008, '');
    expect(closed).toEqual([{ code: 1008, reason: 'ping flood: at most 3 pings per 1 s', by: 'device' }]);
  });

  it('in a new window are counted afresh', () => {
    const clock = new ManualClock();
    const { ws } = sessionOn({ clock, pingLimit: { pings: 3, windowMs: 1000 } });
    for (let round = 0; round < 5; round++) {
      for (let i = 0; i < 3; i++) ws.emit('ping', Buffer.from(`r${round}`));
      clock.advance(1000);
    }
    expect(ws.pongs).toHaveLength(15);
    expect(ws.closes).toEqual([]);
  });

  it('by default: 60 in 10 s', () => {
    const clock = new ManualClock();
    const { ws } = sessionOn({ clock });
    for (let i = 0; i < 60; i++) ws.emit('ping', Buffer.alloc(0));
    expect(ws.closes).toEqual([]);
    clock.advance(9999);
    ws.emit('ping', Buffer.alloc(0));
    expect(ws.pongs).toHaveLength(60);
    expect(ws.closes).toEqual([{ code: 1008, reason: 'ping flood: at most 60 pings per 10 s' }]);
  });
});
