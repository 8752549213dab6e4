/**
 * How the destination's pages answer: HTML that may not run script or load anything
 * (a Content-Security-Policy with inline style only), never cached, no body for HEAD.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PAGE_SECURITY_HEADERS, sendPageBody } from '../../base/page-answer';
import { messagePage } from '../page/layout';

/** Headers every page and download carries (shared with the device's dashboard). */
export { PAGE_SECURITY_HEADERS };

/** The headers of every page: the shared ones and the destination's policy (inline style, nothing else). */
const PAGE_HEADERS = {
  ...PAGE_SECURITY_HEADERS,
  'Content-Security-Policy':
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'none'; frame-ancestors 'none'",
} as const;

/** Sends a page. */
export function sendPage(req: IncomingMessage, res: ServerResponse, status: number, body: string): void {
  sendPageBody(req, res, status, 'text/html; charset=utf-8', body, PAGE_HEADERS);
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
