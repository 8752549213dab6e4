/**
 * Server-Sent Events framing (the HTML standard's `text/event-stream`): the answer's
 * headers, and each event as `event:` / `id:` / `data:` lines ended by a blank line.
 * Data is one line of JSON, so it never needs splitting over several `data:` lines.
 */
import type { ServerResponse } from 'node:http';

/** The media type of an event stream. */
export const EVENT_STREAM_TYPE = 'text/event-stream; charset=utf-8';

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

/**
 * The `Last-Event-ID` of a reconnecting client as a sequence number: undefined when absent
 * or empty, NaN when it is not a whole number of 0 or more.
 */
export function lastEventId(header: string | string[] | undefined): number | undefined {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (value === undefined || value === '') return undefined;
  return /^\d{1,15}$/.test(value) ? Number(value) : Number.NaN;
}
