/**
 * How the destination answers, the way Swift does: a transaction id on every
 * response, short text bodies for errors, HTTP dates and Swift timestamps.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { countedIds } from '../../base/counted-ids';
import { lastModifiedSeconds } from '../../protocol/http-conditions';

/** Bodies above this are not drained after an early refusal: the connection is closed instead. */
const DRAIN_LIMIT = 16 * 1024 * 1024;

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  409: 'Conflict',
  411: 'Length Required',
  412: 'Precondition Failed',
  413: 'Request Entity Too Large',
  416: 'Requested Range Not Satisfiable',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  503: 'Service Unavailable',
  507: 'Insufficient Storage',
};

/** What makes transaction ids unique: 10 random hex digits for the process, then a count of 11. */
const transactionId = countedIds(5, 11);

/**
 * Sets `X-Trans-Id` (and its OpenStack twin) for this request; call first. Swift's shape:
 * `tx`, 21 hex digits, `-`, the time; ours are unique without a trip into the CSPRNG each.
 */
export function setTransactionId(res: ServerResponse): string {
  const id = `tx${transactionId()}-${Math.floor(Date.now() / 1000)
    .toString(16)
    .padStart(10, '0')}`;
  res.setHeader('X-Trans-Id', id);
  res.setHeader('X-Openstack-Request-Id', id);
  return id;
}

/**
 * Sends an error with a one-line text body. A request body not read yet is drained
 * (so the client reads the answer, not a reset), or for a large one the connection
 * is closed after the answer.
 */
export function sendError(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  message?: string,
  headers: Record<string, string> = {},
): void {
  const body = req.method === 'HEAD' ? '' : `${message ?? STATUS_TEXT[status] ?? 'Error'}\n`;
  const pendingBody =
    !req.complete && (req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0);
  if (pendingBody) {
    // A client waiting for 100-continue never sends the body: end the connection after the answer.
    const waiting = /100-continue/i.test(String(req.headers.expect ?? ''));
    if (waiting || Number(req.headers['content-length'] ?? Infinity) > DRAIN_LIMIT)
      res.setHeader('Connection', 'close');
    req.resume();
  }
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, {
    ...headers,
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
  });
  res.end(body);
}

/** Sends a status with no body (201, 202, 204), with headers. */
export function sendEmpty(res: ServerResponse, status: number, headers: Record<string, string | number> = {}): void {
  res.writeHead(status, {
    ...stringify(headers),
    'Content-Length': '0',
    ...(status === 204 ? {} : { 'Content-Type': 'text/html; charset=UTF-8' }),
  });
  res.end();
}

/** Sends a body (text or JSON listing), with headers; HEAD gets the headers only. */
export function sendBody(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  body: string,
  contentType: string,
  headers: Record<string, string | number> = {},
): void {
  res.writeHead(status, {
    ...stringify(headers),
    'Content-Type': contentType,
    'Content-Length': String(Buffer.byteLength(body)),
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** Swift's `X-Timestamp`: epoch seconds with five decimals. */
export function swiftTimestamp(ms: number): string {
  return (ms / 1000).toFixed(5);
}

/** `Last-Modified`: an HTTP date, in whole seconds rounded up, as Swift does. */
export function httpDate(ms: number): string {
  return new Date(lastModifiedSeconds(ms) * 1000).toUTCString();
}

/** The `last_modified` of JSON listings: ISO 8601 without the zone, microseconds. */
export function listingDate(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 23)}000`;
}

function stringify(headers: Record<string, string | number>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, String(v)]));
}
