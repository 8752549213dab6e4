/**
 * A stand-in for a server-side `ws` WebSocket and its socket, for unit tests of what a
 * session sends: the test sets how many bytes the socket holds and calls the write
 * callbacks itself, so a slow client is a value, not a race with the kernel.
 */
import { EventEmitter } from 'node:events';
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';

/** A frame handed to `send`, with the callback ws would call once it is written. */
export interface SentFrame {
  text: string;
  written: ((err?: Error) => void) | undefined;
}

/** Records sends, pongs, closes and terminates; `bufferedAmount` is whatever the test says. */
export class FakeWebSocket extends EventEmitter {
  readonly CONNECTING = 0;
  readonly OPEN = 1;
  readonly CLOSING = 2;
  readonly CLOSED = 3;
  readyState = 1;
  /** Bytes the socket holds: each send adds its payload; the test lowers it as the client reads. */
  bufferedAmount = 0;
  readonly sent: SentFrame[] = [];
  readonly pongs: string[] = [];
  readonly closes: { code: number; reason: string }[] = [];
  terminated = false;

  send(data: Buffer, _options: unknown, written?: (err?: Error) => void): void {
    this.sent.push({ text: data.toString('utf8'), written });
    this.bufferedAmount += data.length;
  }

  pong(data: Buffer): void {
    this.pongs.push(data.toString('utf8'));
  }

  close(code: number, reason: string): void {
    this.closes.push({ code, reason });
    this.readyState = this.CLOSING;
  }

  /** Cuts the connection: 'close' with 1006, as ws reports a connection ended without a close frame. */
  terminate(): void {
    this.terminated = true;
    this.end(1006, '');
  }

  /** The connection ended: ws's 'close' event with `code` and `reason`. */
  end(code: number, reason: string): void {
    if (this.readyState === this.CLOSED) return;
    this.readyState = this.CLOSED;
    this.emit('close', code, Buffer.from(reason));
  }

  /** The texts handed to `send`, in order. */
  texts(): string[] {
    return this.sent.map((frame) => frame.text);
  }

  /** This object as the type a session takes. */
  asWebSocket(): WebSocket {
    return this as unknown as WebSocket;
  }
}

/** A socket that only counts corks (what a session does to the socket itself). */
export function fakeSocket(): Duplex {
  const socket = {
    cork: () => undefined,
    uncork: () => undefined,
    pause: () => socket,
    resume: () => socket,
    once: () => socket,
    destroy: () => socket,
  };
  return socket as unknown as Duplex;
}
