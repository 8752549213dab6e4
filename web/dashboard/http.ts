/**
 * Every request the page makes: same origin (the browser adds the device login it holds),
 * tagged `X-BWC-Emu-Client: dashboard` so the emulator can tell the page from the client
 * under test.
 */

/** The header that marks the dashboard's own requests. */
export const CLIENT_HEADER = 'X-BWC-Emu-Client';

/** `fetch` with the dashboard's tag and no caching. */
export function tagged(path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set(CLIENT_HEADER, 'dashboard');
  return fetch(path, { ...init, headers, cache: 'no-store', credentials: 'same-origin' });
}

/** `HTTP 503 Service Unavailable: <first line of the body>`, for a failed answer. */
export async function httpProblem(res: Response): Promise<string> {
  const body = (await res.text().catch(() => '')).trim().split('\n')[0] ?? '';
  return `HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}${body ? `: ${body.slice(0, 200)}` : ''}`;
}
