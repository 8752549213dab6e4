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
 * A TCP connection whose reads wait, up to a time limit, until what they take has arrived
 * whole: HTTP answers one after the other on a connection the device keeps (after a 401),
 * and the frames of a {@link RawWebSocket}.
 */
export class RawConnection {
  private buffer: Buffer = Buffer.alloc(0);
  private wake: (() => void) | undefined;
  private ended = false;

  constructor(readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
      this.wake?.();
    });
    socket.on('close', () => {
      this.ended = true;
      this.wake?.();
    });
    socket.on('error', () => undefined);
  }

  /** With `allowHalfOpen`, the device's FIN does not end the connection: only this side's end or destroy does. */
  static open(port: number, host = '127.0.0.1', allowHalfOpen = false): RawConnection {
    return new RawConnection(connect({ port, host, allowHalfOpen }));
  }

  /**
   * Resolves with what `take` finds in the bytes received and not yet read (it answers
   * `[value, bytes used]`, or undefined until they are whole); rejects when the connection
   * ends first, after `timeoutMs`, or when `take` throws. `what` names it in the errors.
   */
  async read<T>(take: (buffer: Buffer) => [T, number] | undefined, what: string, timeoutMs = WAIT_MS): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const got = take(this.buffer);
      if (got) {
        this.buffer = this.buffer.subarray(got[1]);
        return got[0];
      }
      if (this.ended) throw new Error(`connection closed while waiting for ${what}; got: ${this.sofar()}`);
      await this.waitFor(deadline, what);
    }
  }

  /** Sends `text` and reads one answer: its head, and a body of its `Content-Length` (none for a 101). */
  exchange(text: string, timeoutMs = WAIT_MS): Promise<RawResponse> {
    this.socket.write(text);
    return this.read(takeAnswer, 'an answer', timeoutMs);
  }

  /** Resolves once the device has closed the connection (rejects after `timeoutMs`). */
  async closed(timeoutMs = WAIT_MS): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.ended) await this.waitFor(deadline, 'the device to close the connection');
  }

  /** Whether the device has closed the connection. */
  get isClosed(): boolean {
    return this.ended;
  }

  destroy(): void {
    this.socket.destroy();
  }

  private sofar(): string {
    return JSON.stringify(this.buffer.toString('latin1').slice(0, 300));
  }

  private waitFor(deadline: number, what: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.wake = undefined;
        reject(new Error(`timed out waiting for ${what}; got: ${this.sofar()}`));
      }, deadline - Date.now());
      this.wake = () => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
    });
  }
}

/** A whole HTTP answer at the start of `buffer` (a 101 has no body; others as long as their Content-Length). */
function takeAnswer(buffer: Buffer): [RawResponse, number] | undefined {
  const end = buffer.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const head = parseResponse(buffer.subarray(0, end + 4));
  const size = end + 4 + (head.status === 101 ? 0 : Number(head.header('content-length')[0] ?? 0));
  return buffer.length >= size ? [parseResponse(buffer.subarray(0, size)), size] : undefined;
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
  private constructor(
    private readonly connection: RawConnection,
    /** The 101 answer. */
    readonly response: RawResponse,
  ) {}

  /** The TCP connection. */
  get socket(): Socket {
    return this.connection.socket;
  }

  /** Completes a handshake for `target`; rejects unless the answer is 101 with the right accept value. */
  static async open(
    port: number,
    target: string,
    headers: Record<string, string | null> = {},
    host = '127.0.0.1',
    timeoutMs = WAIT_MS,
    allowHalfOpen = false,
  ): Promise<RawWebSocket> {
    const given = Object.entries(headers).find(([name]) => name.toLowerCase() === 'sec-websocket-key')?.[1];
    const key = given ?? newKey();
    const connection = RawConnection.open(port, host, allowHalfOpen);
    try {
      const response = await connection.exchange(
        handshakeText(target, { host, headers: { ...headers, 'Sec-WebSocket-Key': key } }),
        timeoutMs,
      );
      if (response.status !== 101) throw new Error(`expected 101, got ${response.statusLine}`);
      if (response.header('sec-websocket-accept')[0] !== acceptFor(key)) throw new Error('wrong Sec-WebSocket-Accept');
      return new RawWebSocket(connection, response);
    } catch (err) {
      connection.destroy();
      throw err;
    }
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

  /** The next frame from the device; fails after `timeoutMs`, when the connection ends, or on a masked frame. */
  nextFrame(timeoutMs = WAIT_MS): Promise<ServerFrame> {
    return this.connection.read(takeFrame, 'a frame', timeoutMs);
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

  /** Resolves once the device has closed the connection (rejects after `timeoutMs`). */
  closed(timeoutMs = WAIT_MS): Promise<void> {
    return this.connection.closed(timeoutMs);
  }

  /** Ends the TCP connection at once. */
  destroy(): void {
    this.connection.destroy();
  }
}

/** A whole server frame at the start of `buf`, and its size. */
function takeFrame(buf: Buffer): [ServerFrame, number] | undefined {
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
  return [{ fin, opcode, payload: Buffer.from(buf.subarray(offset, offset + length)) }, offset + length];
}
