/**
 * Raw TCP access to the event stream, for what a WebSocket library hides: the
 * exact bytes of a refused handshake, malformed handshakes, and a client that
 * completes the handshake by hand and then stops reading (a slow consumer).
 */
import { createHash, randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { type StreamMessage, WAIT_MS } from './event-stream-client';

const WS_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

/** An HTTP answer as it came over the wire. */
export interface RawResponse {
  statusLine: string;
  status: number;
  /** Header lines in order, names as sent. */
  headerLines: [string, string][];
  /** The raw bytes of the body. */
  body: Buffer;
  /** Every value of a header (case-insensitive name), in order. */
  header(name: string): string[];
}

/** A fresh `Sec-WebSocket-Key` (16 random bytes, base64). */
export function newKey(): string {
  return randomBytes(16).toString('base64');
}

/** The `Sec-WebSocket-Accept` value for a key (RFC 6455). */
export function acceptFor(key: string): string {
  return createHash('sha1')
    .update(key + WS_GUID)
    .digest('base64');
}

/** Options of {@link handshakeText}. */
export interface HandshakeTextOptions {
  method?: string;
  host?: string;
  /** Headers added to or replacing the standard ones; `null` leaves a standard header out. */
  headers?: Record<string, string | null>;
}

/** The bytes of a WebSocket handshake request for `target` (path and query). */
export function handshakeText(target: string, options: HandshakeTextOptions = {}): string {
  const headers: Record<string, string | null> = {
    Host: options.host ?? '127.0.0.1',
    Connection: 'Upgrade',
    Upgrade: 'websocket',
    'Sec-WebSocket-Version': '13',
    'Sec-WebSocket-Key': newKey(),
  };
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    const existing = Object.keys(headers).find((h) => h.toLowerCase() === name.toLowerCase());
    if (existing !== undefined) delete headers[existing];
    headers[name] = value;
  }
  const lines = [`${options.method ?? 'GET'} ${target} HTTP/1.1`];
  for (const [name, value] of Object.entries(headers)) if (value !== null) lines.push(`${name}: ${value}`);
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/**
 * Sends `text` on a new connection and reads until the device closes it: for
 * refused handshakes, which the device answers and then closes.
 */
export function rawExchange(port: number, text: string, host = '127.0.0.1', timeoutMs = WAIT_MS): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(
        new Error(
          `timed out after ${timeoutMs} ms waiting for the device to answer and close; got so far: ${Buffer.concat(chunks).toString('latin1')}`,
        ),
      );
    }, timeoutMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      try {
        resolve(parseResponse(Buffer.concat(chunks)));
      } catch (err) {
        reject(err instanceof Error ? err : new Error(String(err)));
      }
    });
    socket.write(text);
  });
}

/**
 * A TCP connection on which requests are sent one after the other and each answer read
 * whole (by its `Content-Length`), for a connection the device keeps after a refusal.
 */
export class RawConnection {
  private buffer = Buffer.alloc(0);
  private wake: (() => void) | undefined;
  private ended = false;

  constructor(readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.wake?.();
    });
    socket.on('close', () => {
      this.ended = true;
      this.wake?.();
    });
    socket.on('error', () => undefined);
  }

  static open(port: number, host = '127.0.0.1'): RawConnection {
    return new RawConnection(connect({ port, host }));
  }

  /** Sends `text` and reads one answer: its head, and a body of its `Content-Length` (none for a 101). */
  async exchange(text: string, timeoutMs = WAIT_MS): Promise<RawResponse> {
    this.socket.write(text);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const end = this.buffer.indexOf('\r\n\r\n');
      if (end >= 0) {
        const head = parseResponse(this.buffer.subarray(0, end + 4));
        const length = head.status === 101 ? 0 : Number(head.header('content-length')[0] ?? 0);
        if (this.buffer.length >= end + 4 + length) {
          const response = parseResponse(this.buffer.subarray(0, end + 4 + length));
          this.buffer = this.buffer.subarray(end + 4 + length);
          return response;
        }
      }
      if (this.ended) throw new Error(`connection closed; got so far: ${this.buffer.toString('latin1')}`);
      await this.waitFor(deadline);
    }
  }

  /** Resolves once the device has closed the connection (rejects after `timeoutMs`). */
  async closed(timeoutMs = WAIT_MS): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.ended) await this.waitFor(deadline);
  }

  /** Whether the device has closed the connection. */
  get isClosed(): boolean {
    return this.ended;
  }

  destroy(): void {
    this.socket.destroy();
  }

  private waitFor(deadline: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.wake = undefined;
        reject(new Error(`timed out waiting for the device; got so far: ${this.buffer.toString('latin1')}`));
      }, deadline - Date.now());
      this.wake = () => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
    });
  }
}

/** Splits an HTTP answer into status line, header lines and body. */
export function parseResponse(bytes: Buffer): RawResponse {
  const end = bytes.indexOf('\r\n\r\n');
  if (end < 0) throw new Error(`no complete HTTP header in: ${JSON.stringify(bytes.toString('latin1'))}`);
  const [statusLine, ...lines] = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const match = /^HTTP\/1\.1 (\d{3})(?: .*)?$/.exec(statusLine);
  if (!match) throw new Error(`not an HTTP/1.1 status line: ${statusLine}`);
  const headerLines = lines.map((line): [string, string] => {
    const colon = line.indexOf(':');
    return [line.slice(0, colon), line.slice(colon + 1).trim()];
  });
  return {
    statusLine,
    status: Number(match[1]),
    headerLines,
    body: bytes.subarray(end + 4),
    header: (name) => headerLines.filter(([n]) => n.toLowerCase() === name.toLowerCase()).map(([, v]) => v),
  };
}

/** A server frame: opcode and payload. */
export interface ServerFrame {
  fin: boolean;
  opcode: number;
  payload: Buffer;
}

/**
 * A WebSocket client written by hand on a TCP socket: handshake, masked text
 * frames out, unmasked frames in. `pause()` stops reading (until `resume()`), which is
 * what a stuck client does to the device's send buffer.
 */
export class RawWebSocket {
  private buffer: Buffer = Buffer.alloc(0);
  private readonly frames: ServerFrame[] = [];
  private wake: (() => void) | undefined;
  private ended = false;

  private constructor(
    readonly socket: Socket,
    /** The 101 answer. */
    readonly response: RawResponse,
    rest: Buffer,
  ) {
    socket.on('data', (chunk: Buffer) => this.push(chunk));
    socket.on('close', () => {
      this.ended = true;
      this.wake?.();
    });
    socket.on('error', () => undefined);
    this.push(rest);
  }

  /** Completes a handshake for `target`; rejects unless the answer is 101 with the right accept value. */
  static open(
    port: number,
    target: string,
    headers: Record<string, string | null> = {},
    host = '127.0.0.1',
    timeoutMs = WAIT_MS,
  ): Promise<RawWebSocket> {
    const given = Object.entries(headers).find(([name]) => name.toLowerCase() === 'sec-websocket-key')?.[1];
    const key = given ?? newKey();
    const text = handshakeText(target, { host, headers: { ...headers, 'Sec-WebSocket-Key': key } });
    return new Promise((resolve, reject) => {
      const socket = connect({ port, host });
      let received = Buffer.alloc(0);
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error(`timed out after ${timeoutMs} ms waiting for the handshake answer`));
      }, timeoutMs);
      const fail = (err: Error): void => {
        clearTimeout(timer);
        socket.removeListener('data', onData);
        socket.destroy();
        reject(err);
      };
      const onData = (chunk: Buffer): void => {
        received = Buffer.concat([received, chunk]);
        const end = received.indexOf('\r\n\r\n');
        if (end < 0) return;
        clearTimeout(timer);
        socket.removeListener('data', onData);
        socket.removeListener('close', onClose);
        let response: RawResponse;
        try {
          response = parseResponse(received.subarray(0, end + 4));
        } catch (err) {
          return fail(err as Error);
        }
        if (response.status !== 101) return fail(new Error(`expected 101, got ${response.statusLine}`));
        if (response.header('sec-websocket-accept')[0] !== acceptFor(key))
          return fail(new Error('wrong Sec-WebSocket-Accept'));
        resolve(new RawWebSocket(socket, response, received.subarray(end + 4)));
      };
      const onClose = (): void =>
        fail(new Error(`connection closed during the handshake: ${received.toString('latin1')}`));
      socket.on('data', onData);
      socket.once('close', onClose);
      socket.once('error', fail);
      socket.write(text);
    });
  }

  /** Sends one masked text frame (opcode 1), or another opcode. */
  send(text: string | Buffer, opcode = 1): void {
    const payload = Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8');
    const mask = randomBytes(4);
    let header: Buffer;
    if (payload.length < 126) {
      header = Buffer.from([0x80 | opcode, 0x80 | payload.length]);
    } else if (payload.length < 65536) {
      header = Buffer.alloc(4);
      header[0] = 0x80 | opcode;
      header[1] = 0x80 | 126;
      header.writeUInt16BE(payload.length, 2);
    } else {
      header = Buffer.alloc(10);
      header[0] = 0x80 | opcode;
      header[1] = 0x80 | 127;
      header.writeBigUInt64BE(BigInt(payload.length), 2);
    }
    const masked = Buffer.alloc(payload.length);
    for (let i = 0; i < payload.length; i++) masked[i] = payload[i] ^ mask[i & 3];
    this.socket.write(Buffer.concat([header, mask, masked]));
  }

  /** The next frame from the device; fails after `timeoutMs` or when the connection ends. */
  async nextFrame(timeoutMs = WAIT_MS): Promise<ServerFrame> {
    if (this.frames.length === 0 && !this.ended) {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          this.wake = undefined;
          reject(new Error(`timed out after ${timeoutMs} ms waiting for a frame`));
        }, timeoutMs);
        this.wake = () => {
          clearTimeout(timer);
          this.wake = undefined;
          resolve();
        };
      });
    }
    const frame = this.frames.shift();
    if (!frame) throw new Error('connection closed while waiting for a frame');
    return frame;
  }

  /** The next text frame, parsed as JSON. */
  async nextJson(timeoutMs = WAIT_MS): Promise<StreamMessage> {
    const frame = await this.nextFrame(timeoutMs);
    if (frame.opcode !== 1) throw new Error(`expected a text frame, got opcode ${frame.opcode}`);
    return JSON.parse(frame.payload.toString('utf8')) as StreamMessage;
  }

  /** Stops reading from the socket: the device's writes pile up. */
  pause(): void {
    this.socket.pause();
  }

  /** Reads again after {@link pause}: what piled up arrives. */
  resume(): void {
    this.socket.resume();
  }

  /** Ends the TCP connection at once. */
  destroy(): void {
    this.socket.destroy();
  }

  private push(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const frame = takeFrame(this.buffer);
      if (!frame) break;
      this.frames.push(frame.frame);
      this.buffer = this.buffer.subarray(frame.size);
    }
    if (this.frames.length > 0) this.wake?.();
  }
}

function takeFrame(buf: Buffer): { frame: ServerFrame; size: number } | undefined {
  if (buf.length < 2) return undefined;
  const fin = (buf[0] & 0x80) !== 0;
  const opcode = buf[0] & 0x0f;
  let length = buf[1] & 0x7f;
  let offset = 2;
  if (length === 126) {
    if (buf.length < 4) return undefined;
    length = buf.readUInt16BE(2);
    offset = 4;
  } else if (length === 127) {
    if (buf.length < 10) return undefined;
    length = Number(buf.readBigUInt64BE(2));
    offset = 10;
  }
  if ((buf[1] & 0x80) !== 0) throw new Error('the device sent a masked frame');
  if (buf.length < offset + length) return undefined;
  return { frame: { fin, opcode, payload: Buffer.from(buf.subarray(offset, offset + length)) }, size: offset + length };
}
