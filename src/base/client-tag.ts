/**
 * The emulator's own clients (the dashboard at `/`) are real clients of the device, on the
 * same address as the client under test. They tag their requests with the header
 * `X-BWC-Emu-Client: dashboard`; what such a request causes is journaled with
 * `via: 'dashboard'` and left out of the grade. It is opt-in and not a boundary: any client
 * may send the header, and then it is not graded (docs/grading.md says so).
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Logger } from './log';

/** The header that names one of the emulator's own clients. */
export const CLIENT_HEADER = 'X-BWC-Emu-Client';

/** The emulator's own clients, as the header names them (exact, lower case). */
export const CLIENT_VIAS = ['dashboard'] as const;

/** One of {@link CLIENT_VIAS}: what a journal entry's `via` says. */
export type ClientVia = (typeof CLIENT_VIAS)[number];

/** How Node keys the header (it lower-cases names). */
const HEADER_KEY = CLIENT_HEADER.toLowerCase();

/** Longest header value a log line repeats. */
const MAX_LOGGED = 64;

/**
 * The emulator client a request names, or undefined for the client under test: no header, or
 * a value that is not exactly one of {@link CLIENT_VIAS} (ignored, with a log line when `log`
 * is given: pass it once per request). One property read when the header is absent.
 */
export function clientVia(headers: IncomingHttpHeaders, log?: Logger): ClientVia | undefined {
  const value = headers[HEADER_KEY];
  if (value === undefined) return undefined;
  if (value === 'dashboard') return value;
  log?.info(
    { header: CLIENT_HEADER, value: String(value).slice(0, MAX_LOGGED) },
    `${CLIENT_HEADER} ignored: the only value known is "dashboard"; the request is graded as the client's`,
  );
  return undefined;
}
