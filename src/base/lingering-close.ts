/**
 * A lingering close, as nginx does it: a connection closed while the client may still be
 * sending (a refused body, bytes after a short `Content-Length`, a malformed request) first
 * ends its write side once the answer is out, then reads and throws away what still comes
 * until the client closes its side, or for {@link LINGER_LIMITS} at most; only then is the
 * socket closed. Why: a socket closed with unread data is closed with a reset, which can
 * reach the client before it has read the answer (and a client that sends its whole request
 * before it reads fails on its send), so it sees a reset instead of the 2107 or the 400.
 *
 * Node closes a connection after an answer marked `Connection: close` by calling the
 * socket's `destroySoon`; a server made by ./listening-server replaces it on each socket by
 * {@link LingeringClose.destroySoon}, which lingers for a socket {@link lingerOnClose}
 * marked and closes any other at once, as Node does. What the client sends meanwhile still
 * goes through Node's HTTP parser: bytes that are no request make it report a `clientError`
 * per chunk, which {@link LingeringClose.clientError} counts against the bound.
 */
import { Socket } from 'node:net';
import type { ServerResponse } from 'node:http';

/** How much and for how long a lingering connection reads after its answer. */
export interface LingerLimits {
  /** Bytes read and thrown away, counted from the start of the linger, before the socket is closed anyway. */
  maxBytes: number;
  /** Milliseconds from the start of the linger before the socket is closed anyway. */
  maxMs: number;
}

/** 1 MiB, 5 s: ample for the rest of a request already on its way, little for a client that never stops. */
export const LINGER_LIMITS: LingerLimits = { maxBytes: 1024 * 1024, maxMs: 5_000 };

/** Sockets to close lingering once their answer is out. */
const marked = new WeakSet<Socket>();

/** Sockets lingering now, and where their byte budget ends (in `bytesRead`). */
const lingering = new WeakMap<Socket, { until: number; timer: NodeJS.Timeout }>();

/** Node's own closing of a socket after its last answer (end, then destroy once written); called with the socket as `this`. */
// eslint-disable-next-line @typescript-eslint/unbound-method
const nodeDestroySoon: (this: Socket) => void = Socket.prototype.destroySoon;

/**
 * Marks `socket` to close lingering when its answer is out (called for a request whose body is
 * not read whole). Without a server that lingers (./listening-server), Node closes it as usual.
 */
export function lingerOnClose(socket: Socket): void {
  marked.add(socket);
}

/** Whether `socket` is lingering: its answer is out (or under way) and what comes is thrown away. */
export function isLingering(socket: Socket): boolean {
  return lingering.has(socket);
}

/** The lingering close of one server, with its limits. */
export class LingeringClose {
  /**
   * Stands in for a socket's `destroySoon` (`this` is the socket): lingers for a marked socket,
   * closes any other as Node does. One function for every socket of the server.
   */
  readonly destroySoon: (this: Socket) => void;

  constructor(private readonly limits: LingerLimits = LINGER_LIMITS) {
    const linger = (socket: Socket): void => this.linger(socket);
    this.destroySoon = function (this: Socket): void {
      if (marked.has(this)) linger(this);
      else nodeDestroySoon.call(this);
    };
  }

  /** Makes `socket` close through {@link destroySoon} (call on each new connection). */
  adopt(socket: Socket): void {
    socket.destroySoon = this.destroySoon;
  }

  /**
   * A malformed request on `socket` (Node's `clientError`): once lingering, the bytes Node could
   * not parse are counted against the bound; otherwise `answer` is written (unless an answer to
   * an earlier request is under way: it is then the last one, marked `Connection: close`) and
   * the socket lingers. Returns whether `answer` was written.
   */
  clientError(socket: Socket, answer: string): boolean {
    if (lingering.has(socket)) {
      this.checkBytes(socket);
      return false;
    }
    marked.add(socket);
    const pending = inFlight(socket);
    if (pending && !pending.writableFinished) {
      // Its answer goes out whole; Node then closes (destroySoon), which lingers.
      if (!pending.headersSent) pending.setHeader('Connection', 'close');
      this.startBudget(socket);
      return false;
    }
    if (!socket.writable || socket.destroyed) {
      socket.destroy();
      return false;
    }
    socket.write(answer);
    this.linger(socket);
    return true;
  }

  /** Ends the write side once the answer is written, and reads on within the bound. */
  private linger(socket: Socket): void {
    this.startBudget(socket);
    if (socket.writable) socket.end();
  }

  /** Starts the bound (once): the socket is destroyed at its end, or at once when the client has closed its side. */
  private startBudget(socket: Socket): void {
    if (lingering.has(socket) || socket.destroyed) return;
    const timer = setTimeout(() => socket.destroy(), this.limits.maxMs);
    timer.unref();
    lingering.set(socket, { until: socket.bytesRead + this.limits.maxBytes, timer });
    socket.once('close', () => clearTimeout(timer));
    // The client has sent everything: nothing unread is left, the close is clean once our answer is written.
    socket.once('end', () => {
      if (socket.writable) socket.end();
      if (socket.writableFinished) socket.destroy();
      else socket.once('finish', () => socket.destroy());
    });
    socket.resume();
  }

  /** Closes a lingering socket that has read past its byte budget. */
  private checkBytes(socket: Socket): void {
    const state = lingering.get(socket);
    if (state && socket.bytesRead > state.until) socket.destroy();
  }

  /** For a request on a lingering socket (bytes after a refused one that parse as a request): counted, never answered. */
  requestWhileLingering(socket: Socket): void {
    this.checkBytes(socket);
  }
}

/**
 * The answer under way on `socket`, if any. Node keeps it as `_httpMessage` and reads it
 * there for the same purpose in its own `clientError` handling (not to write a 400 into an
 * answer already started).
 */
function inFlight(socket: Socket): ServerResponse | undefined {
  return (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage ?? undefined;
}
