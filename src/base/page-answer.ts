/**
 * How the pages a browser loads from us are answered (the device's dashboard, the
 * destination's recordings pages): never cached, never sniffed, no referrer; each server adds
 * its own Content-Security-Policy. A HEAD gets the GET's headers without the body.
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';

/** Headers every page, page file and download carries. */
export const PAGE_SECURITY_HEADERS = {
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
} as const;

/**
 * Sends `body` with `status`, `contentType`, its length and `headers` (the security headers,
 * when the caller has not set them on `res` already), without the body for HEAD.
 */
export function sendPageBody(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  contentType: string,
  body: string | Buffer,
  headers: OutgoingHttpHeaders = {},
): void {
  res.writeHead(status, {
    ...headers,
    'Content-Type': contentType,
    'Content-Length': String(Buffer.byteLength(body)),
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}
