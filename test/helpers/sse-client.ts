/**
 * A Server-Sent Events client for tests, on node:http: reads a `text/event-stream` answer
 * as it arrives and queues each frame (an event, or a comment), so a test awaits them in
 * order with a timeout that fails the test instead of a sleep.
 */
import { type IncomingHttpHeaders, request } from 'node:http';
import { WAIT_MS } from './event-stream-client';

/** One frame of the stream: an event (`event`, `id`, `data` parsed as JSON) or a comment. */
export type SseFrame =
  { kind: 'event'; event: string; id: string | undefined; data: unknown } | { kind: 'comment'; text: string };

/** An open event stream. */
export interface SseClient {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  /** Every frame received so far, in order (those already taken too). */
  readonly frames: readonly SseFrame[];
  /**
   * The next frame not yet taken; fails after `timeoutMs`, or when the stream ends first.
   * Several waits at once get the coming frames in the order they asked.
   */
  next(timeoutMs?: number): Promise<SseFrame>;
  /** The next event named `event`, taking (and dropping) the frames before it. */
  nextEvent(event: string, timeoutMs?: number): Promise<{ id: string | undefined; data: unknown }>;
  /** Resolves when the server has ended the stream. */
  readonly ended: Promise<void>;
  /** Stops reading the socket, as a slow reader: what the server writes piles up in the kernel, then in the server. */
  pause(): void;
  /** Reads again. */
  resume(): void;
  /** Goes away (destroys the connection). */
  close(): void;
}

/** Opens `url` (http only) with `headers` and resolves once the answer's headers are in. */
export function openSse(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        headers: { Accept: 'text/event-stream', ...headers },
        agent: false,
      },
      (res) => resolve(new StreamReader(res.statusCode ?? 0, res.headers, res, () => req.destroy())),
    );
    req.on('error', reject);
    req.end();
  });
}

/** Parses one frame's lines (without the blank line that ends it); undefined for a frame of nothing. */
export function parseFrame(block: string): SseFrame | undefined {
  const lines = block.split('\n');
  if (lines.every((line) => line.startsWith(':')))
    return { kind: 'comment', text: lines.map((line) => line.slice(1).trim()).join('\n') };
  let event = 'message';
  let id: string | undefined;
  const data: string[] = [];
  for (const line of lines) {
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'id') id = value;
    else if (field === 'data') data.push(value);
  }
  if (data.length === 0) return undefined;
  return { kind: 'event', event, id, data: JSON.parse(data.join('\n')) as unknown };
}

interface Waiter {
  resolve: (frame: SseFrame) => void;
  reject: (err: Error) => void;
}

/** Splits the body into frames as it arrives and hands them out in order. */
class StreamReader implements SseClient {
  readonly frames: SseFrame[] = [];
  readonly ended: Promise<void>;
  private taken = 0;
  private buffer = '';
  private done = false;
  /** The waits not yet answered, oldest first. */
  private readonly waiters: Waiter[] = [];

  constructor(
    readonly status: number,
    readonly headers: IncomingHttpHeaders,
    private readonly body: NodeJS.ReadableStream,
    private readonly destroy: () => void,
  ) {
    body.setEncoding('utf8');
    body.on('data', (chunk: string) => this.receive(chunk));
    this.ended = new Promise((resolve) => {
      const end = (): void => {
        this.done = true;
        for (const waiter of this.waiters.splice(0)) waiter.reject(new Error('the stream ended'));
        resolve();
      };
      body.on('end', end);
      body.on('close', end);
      body.on('error', end);
    });
  }

  next(timeoutMs = WAIT_MS): Promise<SseFrame> {
    if (this.taken < this.frames.length) return Promise.resolve(this.frames[this.taken++]);
    if (this.done) return Promise.reject(new Error('the stream ended'));
    return new Promise<SseFrame>((resolve, reject) => {
      const waiter: Waiter = {
        resolve: (frame) => {
          clearTimeout(timer);
          resolve(frame);
        },
        reject: (err) => {
          clearTimeout(timer);
          reject(err);
        },
      };
      const timer = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        reject(new Error(`no frame within ${timeoutMs} ms; got so far: ${JSON.stringify(this.frames)}`));
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  async nextEvent(event: string, timeoutMs = WAIT_MS): Promise<{ id: string | undefined; data: unknown }> {
    for (;;) {
      const frame = await this.next(timeoutMs);
      if (frame.kind === 'event' && frame.event === event) return { id: frame.id, data: frame.data };
    }
  }

  pause(): void {
    this.body.pause();
  }

  resume(): void {
    this.body.resume();
  }

  close(): void {
    this.destroy();
  }

  private receive(chunk: string): void {
    this.buffer += chunk.replace(/\r\n?/g, '\n');
    let end: number;
    while ((end = this.buffer.indexOf('\n\n')) >= 0) {
      const frame = parseFrame(this.buffer.slice(0, end));
      this.buffer = this.buffer.slice(end + 2);
      if (frame) this.frames.push(frame);
    }
    while (this.waiters.length > 0 && this.taken < this.frames.length)
      this.waiters.shift()?.resolve(this.frames[this.taken++]);
  }
}
