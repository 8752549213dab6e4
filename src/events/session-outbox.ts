/**
 * What an event stream session sends, on its way to the socket. Frames go to ws while
 * the socket holds less than a high-water mark; the rest wait here, counted in bytes,
 * and move on as the socket drains. So a close frame (or a pong) waits behind at most
 * the high-water mark, not behind all a slow client has left unread, and dropping a
 * slow client's backlog frees it at once.
 */
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';

/** A tick's frames are written together up to this many bytes, then flushed. */
const FLUSH_BYTES = 16 * 1024;

/** The socket is given frames while it holds less than this (half the buffer limit at most). */
const HIGH_WATER_BYTES = 64 * 1024;

/** A backlog's taken frames are cut off the front once there are this many and they are half of it. */
const COMPACT_AFTER = 1024;

/** Send options for a UTF-8 payload given as bytes: still a text frame. */
const TEXT_FRAME = { binary: false } as const;

/** One session's frames between the session and its WebSocket. */
export class SessionOutbox {
  /** Notifications handed to ws (see {@link sent}). */
  private written = 0;
  /** True while the socket is corked until the end of the current tick. */
  private corked = false;
  /** Bytes written into the corked socket since it was last flushed. */
  private corkedBytes = 0;
  /** A corked burst is flushed past this many bytes (a quarter of the buffer limit at most). */
  private readonly flushBytes: number;
  private readonly highWater: number;
  /** Frames waiting for the socket to drain: made the first time a client falls behind. */
  private backlog: Backlog | undefined;

  constructor(
    private readonly ws: WebSocket,
    /** The TCP (or TLS) socket under `ws`, corked per tick so a burst of frames is one write. */
    private readonly socket: Duplex,
    /** Past this many bytes waiting (here, in ws and in the socket), {@link offer} refuses. */
    private readonly maxBufferedBytes: number,
  ) {
    this.flushBytes = Math.min(FLUSH_BYTES, maxBufferedBytes / 4);
    this.highWater = Math.min(HIGH_WATER_BYTES, maxBufferedBytes / 2);
  }

  /** Notifications handed to ws: sent, or in the socket's buffers at most. */
  get sent(): number {
    return this.written;
  }

  /** Bytes waiting to be sent: in the socket and ws, and in the backlog. */
  get bufferedBytes(): number {
    return this.ws.bufferedAmount + (this.backlog?.bytes ?? 0);
  }

  /**
   * Sends `payload` (UTF-8 JSON) as a text frame, or keeps it until the socket drains;
   * false, with nothing sent or kept, when it would take the bytes waiting past the limit.
   */
  offer(payload: Buffer, notification: boolean): boolean {
    const buffered = this.ws.bufferedAmount;
    const backlog = this.backlog;
    if (buffered + (backlog?.bytes ?? 0) + payload.length > this.maxBufferedBytes) return false;
    if (backlog?.blocked) backlog.push(payload, notification);
    else this.write(payload, notification, buffered);
    return true;
  }

  /** Answers a ping: at once, ahead of the backlog (a control frame may come between messages). */
  pong(data: Buffer): void {
    this.cork();
    this.ws.pong(data);
  }

  /** Forgets the backlog (a client too slow, a connection cut); returns how many notifications it held. */
  drop(): number {
    return this.backlog?.clear() ?? 0;
  }

  /** Hands the whole backlog to ws, whatever the high-water mark: a close frame is to follow it. */
  flush(): void {
    const backlog = this.backlog;
    if (!backlog) return;
    for (let frame = backlog.shift(); frame; frame = backlog.shift()) this.write(frame.payload, frame.notification, 0);
  }

  /**
   * Holds this tick's frames in the socket and writes them together at its end: a
   * publish burst would otherwise cost one system call per notification per session.
   * One `nextTick` uncorks every outbox corked in the tick.
   */
  private cork(): void {
    if (this.corked) return;
    this.corked = true;
    this.socket.cork();
    if (corkedThisTick.push(this) === 1) process.nextTick(uncorkAll);
  }

  /**
   * The end of the tick: the frames held go out together (called by {@link uncorkAll}). A
   * socket whose write throws is destroyed with the error (its session closes and logs it); the
   * other sessions' frames go out all the same.
   */
  uncork(): void {
    this.corked = false;
    this.corkedBytes = 0;
    try {
      this.socket.uncork();
    } catch (err) {
      this.socket.destroy(err instanceof Error ? err : new Error(String(err)));
    }
  }

  /** Hands a frame to ws; one that fills the socket to the high-water mark blocks the next ones until it is written. */
  private write(payload: Buffer, notification: boolean, buffered: number): void {
    this.cork();
    if (buffered + payload.length < this.highWater) this.ws.send(payload, TEXT_FRAME);
    else {
      const backlog = (this.backlog ??= new Backlog(() => this.drained()));
      backlog.blocked = true;
      this.ws.send(payload, TEXT_FRAME, backlog.written);
    }
    this.corkedBytes += payload.length;
    // A long burst is flushed in slices, so corked bytes never count against a fast client.
    if (this.corkedBytes >= this.flushBytes) {
      this.corkedBytes = 0;
      this.socket.uncork();
      this.socket.cork();
    }
    if (notification) this.written++;
  }

  /** The frame that blocked the backlog has been written (or the socket failed): the next ones go on. */
  private drained(): void {
    const backlog = this.backlog as Backlog;
    backlog.blocked = false;
    if (this.ws.readyState !== this.ws.OPEN) return;
    while (!backlog.blocked) {
      const frame = backlog.shift();
      if (!frame) return;
      this.write(frame.payload, frame.notification, this.ws.bufferedAmount);
    }
  }
}

/** The outboxes corked in the current tick, uncorked together at its end. */
const corkedThisTick: SessionOutbox[] = [];

/**
 * Uncorks the tick's outboxes, index by index: one corked while uncorking (none is expected)
 * is uncorked too. `uncork` does not throw (a failing socket is destroyed), so the list is
 * always emptied; it is reused, tick after tick.
 */
function uncorkAll(): void {
  for (let i = 0; i < corkedThisTick.length; i++) corkedThisTick[i].uncork();
  corkedThisTick.length = 0;
}

/** A frame kept for later. */
interface KeptFrame {
  payload: Buffer;
  notification: boolean;
}

/** Frames kept in order, with their bytes and notifications counted. */
class Backlog {
  /** True from a frame that filled the socket until that frame has been written. */
  blocked = false;
  bytes = 0;
  private notifications = 0;
  /** Taken frames leave a hole (so their bytes can go) until the array is emptied. */
  private frames: (KeptFrame | undefined)[] = [];
  /** Index of the oldest frame: taking one is O(1). */
  private head = 0;

  constructor(
    /** The write callback of the frame that blocked the backlog. */
    readonly written: () => void,
  ) {}

  push(payload: Buffer, notification: boolean): void {
    this.frames.push({ payload, notification });
    this.bytes += payload.length;
    if (notification) this.notifications++;
  }

  /** The oldest frame, taken out; undefined when none is left. */
  shift(): KeptFrame | undefined {
    const frame = this.frames[this.head];
    if (frame === undefined) return undefined;
    this.frames[this.head++] = undefined;
    this.bytes -= frame.payload.length;
    if (frame.notification) this.notifications--;
    if (this.head === this.frames.length) this.reset();
    // A backlog that never quite empties is compacted now and then, so its holes do not pile up.
    else if (this.head >= COMPACT_AFTER && this.head * 2 >= this.frames.length) {
      this.frames = this.frames.slice(this.head);
      this.head = 0;
    }
    return frame;
  }

  /** Empties the backlog; returns how many notifications it held. */
  clear(): number {
    const dropped = this.notifications;
    this.reset();
    this.bytes = 0;
    this.notifications = 0;
    return dropped;
  }

  private reset(): void {
    this.frames = [];
    this.head = 0;
  }
}
