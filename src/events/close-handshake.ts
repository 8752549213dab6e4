/**
 * The end of an event stream connection: the close the device sends, with the deadline that
 * cuts a client that never answers it, and the promise of those who wait for the end.
 */
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import type { Logger } from '../base/log';

/** How long the device waits for the client to answer its close (ws would wait 30 s). */
export const CLOSE_TIMEOUT_MS = 5000;

/**
 * How long the device waits for a client too slow to read to answer its close (1013): as long
 * as a `ws` server waits for any close handshake (its `closeTimeout`, 30 s). Such a client has
 * stopped reading for a while by definition, and must read what its socket holds before it
 * sees the close frame; cut after 5 s, one that resumes later would see a cut connection
 * instead of the reason. What it holds meanwhile is bounded: its backlog is dropped, only the
 * socket's buffers remain.
 */
export const SLOW_CLOSE_TIMEOUT_MS = 30_000;

/** The close handshake of one session's connection. */
export class CloseHandshake {
  /** The close the device sent, and the timer that cuts a client that does not answer it. */
  private closing: { code: number; reason: string; timer: NodeJS.Timeout } | undefined;
  /** True once the connection is gone, whoever closed it. */
  private gone = false;
  /** Made on the first wait for the close only: most sessions never have one. */
  private whenGone: { promise: Promise<void>; resolve: () => void } | undefined;

  constructor(
    /** The session's id, for the log. */
    private readonly session: string,
    private readonly ws: WebSocket,
    /** The TCP (or TLS) socket under `ws`, destroyed once the close frames are exchanged. */
    private readonly socket: Duplex,
    private readonly log: Logger,
  ) {}

  /** Sends the device's close; a client that does not answer it within `timeoutMs` is cut. */
  start(code: number, reason: string, timeoutMs: number): void {
    this.ws.close(code, reason);
    // ws ends its side once the client's close frame is in ('finish'), then waits for the client's
    // FIN, which some clients never send (websocket-client 1.2 keeps the socket until collected).
    // RFC 6455 7.1.1: the server closes the TCP connection first, so the session ends there.
    this.socket.once('finish', () => this.socket.destroy());
    const timer = setTimeout(() => this.cut(), timeoutMs);
    timer.unref();
    this.closing = { code, reason, timer };
  }

  /**
   * The connection is gone (ws reported `code` and `reason`): the close that counts, which is
   * the device's own with the code it sent, answered or not (ws says 1006 for one never answered).
   */
  ended(code: number, reason: string): { code: number; reason: string } {
    if (this.closing) {
      clearTimeout(this.closing.timer);
      ({ code, reason } = this.closing);
    }
    this.gone = true;
    this.whenGone?.resolve();
    return { code, reason };
  }

  /** Resolves when the connection is gone, whoever closed it. */
  get closed(): Promise<void> {
    if (this.gone) return Promise.resolve();
    if (!this.whenGone) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      this.whenGone = { promise, resolve };
    }
    return this.whenGone.promise;
  }

  /** The client did not answer the device's close in time: the connection is cut. */
  private cut(): void {
    this.log.info({ session: this.session, code: this.closing?.code }, 'close not answered in time: connection cut');
    this.ws.terminate();
  }
}
