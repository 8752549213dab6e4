/**
 * Server-Sent Events framing (the HTML standard's `text/event-stream`): the answer's
 * headers, and each event as `event:` / `id:` / `data:` lines ended by a blank line.
 * Data is one line of JSON, so it never needs splitting over several `data:` lines.
 */
import type { ServerResponse } from 'node:http';

/** The media type of an event stream (as the OpenAPI document names it). */
export const EVENT_STREAM_MEDIA_TYPE = 'text/event-stream';

/** The `Content-Type` of an event stream answer: its media type, in UTF-8 (which the standard requires). */
const EVENT_STREAM_TYPE = `${EVENT_STREAM_MEDIA_TYPE}; charset=utf-8`;

/** Starts an event stream answer: 200, no caching, no buffering by proxies; the headers go out at once. */
export function writeEventStreamHead(res: ServerResponse): void {
  res.writeHead(200, {
    'Content-Type': EVENT_STREAM_TYPE,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    // nginx and its kin hold a proxied answer back until it ends unless told not to.
    'X-Accel-Buffering': 'no',
  });
  res.flushHeaders();
}

/**
 * One event: its name, its data (JSON text, one line as JSON.stringify makes it) and an
 * `id` (what the browser sends back as `Last-Event-ID` when it reconnects).
 */
export function eventFrame(name: string, json: string, id?: number): string {
  const idLine = id === undefined ? '' : `id: ${id}\n`;
  return `event: ${name}\n${idLine}data: ${json}\n\n`;
}

/** A comment line, which every client ignores: keeps proxies and the socket from calling the stream idle. */
export function commentFrame(text: string): string {
  return `: ${text}\n\n`;
}
