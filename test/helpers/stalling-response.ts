/** A response a live feed writes to whose reader stops reading when told (no socket, no sleeps). */
import { Writable } from 'node:stream';
import { parseFrame, type SseFrame } from './sse-client';

/**
 * What a feed writes to, as a reader that stops reading: a Writable, so that the
 * back-pressure the feed sees is node's own (`writableNeedDrain` from when it holds more than
 * its high-water mark, until 'drain'), standing in for the ServerResponse. It takes each
 * frame at once, into `frames`, until `stall()`; then it takes the one being written and no
 * more (the rest wait in the stream) until `release()`.
 */
export class StallingResponse extends Writable {
  /** The frames taken, in order. */
  readonly frames: SseFrame[] = [];
  /** The client is there (the feed checks that it has not gone already). */
  readonly socket = { destroyed: false };
  private stalled = false;
  private held: (() => void) | undefined;

  constructor() {
    super({ decodeStrings: false, highWaterMark: 16 * 1024 });
  }

  writeHead(): this {
    return this;
  }

  flushHeaders(): void {}

  /** The reader stops: the next frame is taken, and nothing after it. */
  stall(): void {
    this.stalled = true;
  }

  /** The reader takes what waited, and reads on. */
  release(): void {
    this.stalled = false;
    const held = this.held;
    this.held = undefined;
    held?.();
  }

  override _write(chunk: string, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    const frame = parseFrame(chunk.replace(/\n\n$/, ''));
    if (frame) this.frames.push(frame);
    if (this.stalled) this.held = () => done();
    else done();
  }
}
