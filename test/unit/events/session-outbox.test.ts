import type { Duplex } from 'node:stream';
import { SessionOutbox } from '../../../src/events/session-outbox';
import { FakeWebSocket, fakeSocket } from '../../helpers/fake-websocket';

const KIB = 1024;

/** A payload of `size` bytes whose text starts with `name`. */
function payload(name: string, size = KIB): Buffer {
  return Buffer.from(name.padEnd(size, '.'));
}

/** The names of the frames handed to ws. */
function names(ws: FakeWebSocket): string[] {
  return ws.texts().map((text) => text.replace(/\.+$/, ''));
}

function outboxOf(maxBufferedBytes = 1024 * KIB): { ws: FakeWebSocket; outbox: SessionOutbox } {
  const ws = new FakeWebSocket();
  return { ws, outbox: new SessionOutbox(ws.asWebSocket(), fakeSocket(), maxBufferedBytes) };
}

describe('SessionOutbox', () => {
  it('hands frames straight to ws while the socket holds less than 64 KiB, without write callbacks', () => {
    const { ws, outbox } = outboxOf();
    for (let i = 0; i < 10; i++) expect(outbox.offer(payload(`n${i}`), true)).toBe(true);
    expect(outbox.offer(payload('answer'), false)).toBe(true);
    expect(ws.sent).toHaveLength(11);
    expect(ws.sent.every((frame) => frame.written === undefined)).toBe(true);
    expect(outbox.sent).toBe(10);
  });

  it('keeps frames once one fills the socket, and moves them on when that one has been written', () => {
    const { ws, outbox } = outboxOf();
    ws.bufferedAmount = 63 * KIB;
    outbox.offer(payload('fills'), true);
    outbox.offer(payload('kept-1'), true);
    outbox.offer(payload('kept-2'), false);
    expect(names(ws)).toEqual(['fills']);
    expect(ws.sent[0].written).toBeInstanceOf(Function);
    expect(outbox.bufferedBytes).toBe(64 * KIB + 2 * KIB);
    expect(outbox.sent).toBe(1);

    ws.bufferedAmount = 0; // the client read everything
    ws.sent[0].written?.();
    expect(names(ws)).toEqual(['fills', 'kept-1', 'kept-2']);
    expect(outbox.sent).toBe(2);
    expect(outbox.bufferedBytes).toBe(2 * KIB);
  });

  it('moves kept frames on only up to the high-water mark again', () => {
    const { ws, outbox } = outboxOf();
    ws.bufferedAmount = 64 * KIB;
    for (let i = 0; i < 4; i++) outbox.offer(payload(`f${i}`, 24 * KIB), true);
    expect(names(ws)).toEqual(['f0']);
    ws.bufferedAmount = 0;
    ws.sent[0].written?.();
    // f1 and f2 take the socket to 48 KiB; f3 takes it past 64 KiB: f4 waits until f3 has been written.
    expect(names(ws)).toEqual(['f0', 'f1', 'f2', 'f3']);
    expect(ws.sent.map((frame) => frame.written !== undefined)).toEqual([true, false, false, true]);
    outbox.offer(payload('f4'), true);
    expect(names(ws)).toHaveLength(4);
  });

  it('refuses a frame that would take the bytes waiting past the limit, and sends or keeps nothing of it', () => {
    const { ws, outbox } = outboxOf(256 * KIB);
    ws.bufferedAmount = 200 * KIB;
    expect(outbox.offer(payload('kept', 50 * KIB), true)).toBe(true);
    expect(outbox.offer(payload('refused', 7 * KIB), true)).toBe(false);
    expect(ws.sent).toHaveLength(1);
    expect(outbox.bufferedBytes).toBe(256 * KIB - 6 * KIB);
  });

  it('drop() forgets the kept frames and says how many were notifications', () => {
    const { ws, outbox } = outboxOf();
    ws.bufferedAmount = 64 * KIB;
    outbox.offer(payload('fills'), true);
    outbox.offer(payload('n1'), true);
    outbox.offer(payload('answer'), false);
    outbox.offer(payload('n2'), true);
    expect(outbox.drop()).toBe(2);
    expect(outbox.bufferedBytes).toBe(65 * KIB);
    ws.sent[0].written?.();
    expect(names(ws)).toEqual(['fills']);
  });

  it('flush() hands every kept frame to ws, past the high-water mark (a close frame follows them)', () => {
    const { ws, outbox } = outboxOf();
    ws.bufferedAmount = 64 * KIB;
    for (let i = 0; i < 5; i++) outbox.offer(payload(`n${i}`), true);
    outbox.flush();
    expect(names(ws)).toEqual(['n0', 'n1', 'n2', 'n3', 'n4']);
    expect(outbox.sent).toBe(5);
    expect(outbox.drop()).toBe(0);
  });

  it('answers a ping at once, ahead of the kept frames', () => {
    const { ws, outbox } = outboxOf();
    ws.bufferedAmount = 64 * KIB;
    outbox.offer(payload('fills'), true);
    outbox.offer(payload('kept'), true);
    outbox.pong(Buffer.from('ping-1'));
    expect(ws.pongs).toEqual(['ping-1']);
    expect(names(ws)).toEqual(['fills']);
  });

  it('keeps nothing moving once the connection is closing', () => {
    const { ws, outbox } = outboxOf();
    ws.bufferedAmount = 64 * KIB;
    outbox.offer(payload('fills'), true);
    outbox.offer(payload('kept'), true);
    ws.readyState = ws.CLOSING;
    ws.sent[0].written?.(new Error('closed'));
    expect(names(ws)).toEqual(['fills']);
  });
});

/** A socket that counts how deeply it is corked, and records being destroyed. */
function countingSocket(uncork: () => void = () => undefined): {
  socket: Duplex;
  state: { depth: number; destroyed: Error | undefined };
} {
  const state = { depth: 0, destroyed: undefined as Error | undefined };
  const socket = {
    cork: () => void state.depth++,
    uncork: () => {
      state.depth--;
      uncork();
    },
    destroy: (err: Error) => void (state.destroyed = err),
  };
  return { socket: socket as unknown as Duplex, state };
}

/** The end of the current tick: where the outboxes corked in it are uncorked. */
const endOfTick = (): Promise<void> => new Promise((resolve) => process.nextTick(resolve));

describe('SessionOutbox corking', () => {
  it('uncorks every outbox corked in a tick at its end, and corks again in the next', async () => {
    const { socket, state } = countingSocket();
    const outbox = new SessionOutbox(new FakeWebSocket().asWebSocket(), socket, 1024 * KIB);
    outbox.offer(payload('a'), true);
    outbox.offer(payload('b'), true);
    expect(state.depth).toBe(1);
    await endOfTick();
    expect(state.depth).toBe(0);
    outbox.offer(payload('c'), true);
    expect(state.depth).toBe(1);
    await endOfTick();
    expect(state.depth).toBe(0);
  });

  it('an uncork that throws destroys that socket only: the others are uncorked, and every outbox corks again later', async () => {
    const broken = countingSocket(() => {
      throw new Error('write failed');
    });
    const healthy = countingSocket();
    // The broken one first: the healthy one after it must be uncorked all the same.
    const first = new SessionOutbox(new FakeWebSocket().asWebSocket(), broken.socket, 1024 * KIB);
    const second = new SessionOutbox(new FakeWebSocket().asWebSocket(), healthy.socket, 1024 * KIB);
    first.offer(payload('a'), true);
    second.offer(payload('b'), true);
    await endOfTick();
    expect(broken.state.destroyed?.message).toBe('write failed');
    expect(healthy.state.depth).toBe(0);
    // The next tick's frames are corked and uncorked as ever: nothing was left corked for good.
    second.offer(payload('c'), true);
    expect(healthy.state.depth).toBe(1);
    await endOfTick();
    expect(healthy.state.depth).toBe(0);
  });
});
