/**
 * The preconditions of an event stream handshake that its request alone decides, in the
 * order a device checks them (as `ws`'s `handleUpgrade`: a row of guard clauses, each
 * ending the handshake with its own status): the endpoint exists, it is a WebSocket
 * upgrade of version 13, and it names data sources the stream serves.
 */
import type { IncomingMessage } from 'node:http';
import { err, type ErrorInfo, ok, type Result } from '../base/result';
import type { UpgradeTarget } from './upgrade-target';

/** Data sources the stream serves; `events` is event streaming. */
export const STREAM_SOURCES = ['events'] as const;

/** Why a handshake's request is refused: `code` is the HTTP status, with any extra headers of the answer. */
export interface UpgradeRequestRefusal extends ErrorInfo<number> {
  readonly headers?: Record<string, string>;
}

const WS_KEY = /^[+/0-9A-Za-z]{22}==$/;

/**
 * The data sources `req` asks for, or why it is refused: `url` is its parsed target (undefined
 * when not a URL), `path` the stream's, `noWebSocket` a fault that takes the endpoint away.
 */
export function checkUpgradeRequest(
  req: IncomingMessage,
  url: UpgradeTarget | undefined,
  path: string,
  noWebSocket: boolean,
): Result<string[], UpgradeRequestRefusal> {
  if (noWebSocket) return refusal(404, 'Not Found (this firmware has no WebSocket event stream)');
  if (!url || url.pathname !== path)
    return refusal(404, `No WebSocket endpoint at ${url?.pathname ?? req.url}; the event stream is ${path}`);
  if (req.method !== 'GET') return refusal(400, 'The WebSocket handshake must be a GET request');
  if ((req.headers.upgrade ?? '').toLowerCase() !== 'websocket')
    return refusal(400, 'Upgrade header must be "websocket"');
  if (!WS_KEY.test(String(req.headers['sec-websocket-key'] ?? '').trim()))
    return refusal(400, 'Missing or invalid Sec-WebSocket-Key');
  const version = req.headers['sec-websocket-version'];
  if (version === undefined) return refusal(400, 'Missing Sec-WebSocket-Version (must be 13)');
  if (version.trim() !== '13')
    return refusal(426, `Sec-WebSocket-Version ${version} is not supported; use 13`, {
      'Sec-WebSocket-Version': '13',
    });
  const sourcesParam = url.searchParams.get('sources');
  if (sourcesParam === null || sourcesParam.trim() === '')
    return refusal(400, `Missing query parameter sources (e.g. ?sources=events)`);
  const sources = sourcesParam.split(',').map((s) => s.trim());
  const unknown = sources.filter((s) => !(STREAM_SOURCES as readonly string[]).includes(s));
  if (unknown.length > 0)
    return refusal(400, `Unknown data source(s): ${unknown.join(', ')}; known: ${STREAM_SOURCES.join(', ')}`);
  return ok(sources);
}

/** A refusal with `status` and `message` (and extra headers). */
function refusal(
  status: number,
  message: string,
  headers?: Record<string, string>,
): Result<never, UpgradeRequestRefusal> {
  return err(headers ? { code: status, message, headers } : { code: status, message });
}
