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

/** The start of `text` for a message: its first `max` characters, `…` when there was more. */
export function excerpt(text: string, max = 100): string {
  const trimmed = text.trim();
  if (trimmed === '') return '(empty)';
  return trimmed.length > max ? `${trimmed.slice(0, max)}…` : trimmed;
}

/**
 * The JSON of a successful answer `res` (undefined for a 204): every answer the page reads goes
 * through here, so one that is not JSON says so, `answer is not JSON: <its start>`, instead of
 * failing later in a panel.
 */
export async function jsonOf(res: Response): Promise<unknown> {
  if (res.status === 204) return undefined;
  const text = await res.text();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Error(`answer is not JSON: ${excerpt(text)}`);
  }
}
