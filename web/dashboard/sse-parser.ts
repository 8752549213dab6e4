/**
 * A Server-Sent Events parser for the feed (https://html.spec.whatwg.org/multipage/server-sent-events.html):
 * text in as it arrives, in chunks of any size; complete events out. Lines end in CRLF, LF or
 * CR, a CRLF split across two chunks included; `:` lines are comments; `data` lines are joined
 * with a newline; `id` sets the last event id (unless it holds a NUL); `retry` and unknown
 * fields are ignored; an event without data is not dispatched. Pure (no DOM): unit-tested.
 */

/** One dispatched event. */
export interface SseEvent {
  /** The `event` field; `message` when there was none. */
  event: string;
  data: string;
  /** The last event id when it was dispatched (undefined: none seen yet). */
  id: string | undefined;
}

export class SseParser {
  private buffer = '';
  /** The last chunk ended in CR: a LF starting the next one ends the same line. */
  private pendingCr = false;
  private event = '';
  private data: string[] = [];
  private lastId: string | undefined;

  /** Takes the next `chunk` of the stream; returns the events it completed, in order. */
  push(chunk: string): SseEvent[] {
    const text = this.pendingCr && chunk.startsWith('\n') ? chunk.slice(1) : chunk;
    this.pendingCr = text.endsWith('\r');
    if (text === '') return [];
    this.buffer += text;
    const lines = this.buffer.split(/\r\n|\r|\n/);
    this.buffer = lines.pop() ?? '';
    const events: SseEvent[] = [];
    for (const line of lines) {
      const event = this.line(line);
      if (event) events.push(event);
    }
    return events;
  }

  private line(line: string): SseEvent | undefined {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') this.event = value;
    else if (field === 'data') this.data.push(value);
    else if (field === 'id' && !value.includes('\0')) this.lastId = value;
    return undefined;
  }

  private dispatch(): SseEvent | undefined {
    const event =
      this.data.length > 0
        ? { event: this.event || 'message', data: this.data.join('\n'), id: this.lastId }
        : undefined;
    this.event = '';
    this.data = [];
    return event;
  }
}
