/**
 * How the destination's pages answer: HTML that may not run script or load anything
 * (a Content-Security-Policy with inline style only), never cached, no body for HEAD.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { messagePage } from '../page/layout';

/** Headers every page and download carries. */
export const PAGE_SECURITY_HEADERS = {
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
} as const;

/** Sends a page. */
export function sendPage(req: IncomingMessage, res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, {
    ...PAGE_SECURITY_HEADERS,
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
    'Content-Security-Policy':
      "default-src 'none'; style-src 'unsafe-inline'; form-action 'none'; frame-ancestors 'none'",
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** Sends a page that only says what went wrong (400 for a bad request, 404 for nothing there). */
export function sendProblem(
  req: IncomingMessage,
  res: ServerResponse,
  status: 400 | 404 | 405,
  message: string,
  headers: Record<string, string> = {},
): void {
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  const title = { 400: 'Bad request', 404: 'Not found', 405: 'Method not allowed' }[status];
  sendPage(req, res, status, messagePage(title, message));
}
