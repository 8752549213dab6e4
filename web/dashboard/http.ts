/**
 * Every request the page makes: same origin (the browser adds the device login it holds),
 * to an absolute URL of the page's origin, tagged `X-BWC-Emu-Client: dashboard` so the emulator can tell the page from the client
 * under test; and the readers of their answers, which say what is wrong with a bad one.
 */

/**
 * The header that marks the dashboard's own requests: src/base/client-tag.ts's, copied (the page
 * cannot load CommonJS); test/unit/web/client-tag.test.ts checks the device reads it so.
 */
const CLIENT_HEADER = 'X-BWC-Emu-Client';

/** The page's address (the DOM's `location`), declared here: the unit tests check this file with Node's types. */
declare const location: { readonly origin: string };

/**
 * `path` (absolute, `/x`) at the page's origin. Not resolved against the page's address: opened
 * as `http://user:pass@host/`, the document's base URL keeps the login, and `fetch` refuses a
 * URL with one ("Request cannot be constructed from a URL that includes credentials"). The
 * origin has none; the browser still sends the login it took from the address (its own cache).
 */
export function atOrigin(path: string): string {
  return `${location.origin}${path}`;
}

/** `fetch` of `path` (see {@link atOrigin}) with the dashboard's tag and no caching. */
export function tagged(path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set(CLIENT_HEADER, 'dashboard');
  // `cache` named in the type: the unit tests check this file with Node's RequestInit, which has none.
  const request: RequestInit & { cache: 'no-store' } = {
    ...init,
    headers,
    cache: 'no-store',
    credentials: 'same-origin',
  };
  return fetch(atOrigin(path), request);
}

/**
 * `HTTP 503: <the start of its body>`: how the page says an answer failed, wherever it says it.
 * No status text: an HTTP/2 answer has none, and the code says the same.
 */
function httpProblemText(status: number, body: string): string {
  return `HTTP ${status}: ${excerpt(body)}`;
}

/** {@link httpProblemText} of a failed answer `res`, whose body it reads. */
export async function httpProblem(res: Response): Promise<string> {
  return httpProblemText(res.status, await res.text().catch(() => ''));
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

/**
 * What is wrong with a failed answer `res` of the control API: `UNAUTHORIZED: bad token` of its
 * error body, else `HTTP 502: <its text>`; `withCode` false: the error's message only. Here, not
 * in ./control, for the tests: Node has no `window` or `sessionStorage`, which ./control uses.
 */
export async function problemOf(res: Response, withCode = true): Promise<string> {
  const text = await res.text().catch(() => '');
  let error: { code?: unknown; message?: unknown } | undefined;
  try {
    error = (JSON.parse(text) as { error?: typeof error } | null)?.error;
  } catch {
    error = undefined;
  }
  if (typeof error?.message !== 'string') return httpProblemText(res.status, text);
  return withCode ? `${String(error.code)}: ${error.message}` : error.message;
}
