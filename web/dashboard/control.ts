/**
 * The emulator's control API (`/_emu`) on the device's own port: requests with the control
 * token when one is set (kept for the tab in sessionStorage, sent as `Bearer`), and whether
 * the API can be used at all, as one state the control panels show.
 */
import { tagged } from './http.js';

/** Whether the control API can be used, and if not why. */
export type ControlState =
  | { kind: 'checking' }
  | { kind: 'ok' }
  | { kind: 'off'; message: string }
  | { kind: 'forbidden'; message: string }
  | { kind: 'unauthorized'; message: string }
  | { kind: 'unreachable'; message: string };

/** A refused control request: its status and the API's `{ error: { code, message } }`. */
export class ControlFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(`${code}: ${message}`);
  }
}

const TOKEN_KEY = 'bwc-emu.control-token';

/** The control API of this device. */
export class ControlApi {
  private current: ControlState = { kind: 'checking' };
  private readonly listeners = new Set<(state: ControlState) => void>();

  /** @param base `/_emu`, or null when the device runs without the control API. */
  constructor(private readonly base: string | null) {
    if (base === null) this.current = { kind: 'off', message: 'the emulator runs without its control API' };
  }

  get state(): ControlState {
    return this.current;
  }

  /** Calls `listener` now and on every change of state; returns its remover. */
  watch(listener: (state: ControlState) => void): () => void {
    this.listeners.add(listener);
    listener(this.current);
    return () => this.listeners.delete(listener);
  }

  /** The token in use, empty for none. */
  get token(): string {
    return sessionStorage.getItem(TOKEN_KEY) ?? '';
  }

  /** Uses `token` (empty: none) from now on and checks the API again. */
  async useToken(token: string): Promise<void> {
    if (token) sessionStorage.setItem(TOKEN_KEY, token);
    else sessionStorage.removeItem(TOKEN_KEY);
    await this.check();
  }

  /** Asks the API whether it answers (`GET /health`), and tells the listeners. */
  async check(): Promise<void> {
    if (this.base === null) return;
    try {
      await this.call('GET', '/health');
      this.set({ kind: 'ok' });
    } catch (err) {
      // call() has set the state for 401, 403 and "off"; anything else leaves the API usable.
      if (!(err instanceof ControlFailure) || err.status >= 500) this.set({ kind: 'ok' });
    }
  }

  /** `method path` with a JSON body; resolves with the JSON answer, rejects with a {@link ControlFailure}. */
  async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await this.fetch(path, {
      method,
      ...(body === undefined ? {} : { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }),
    });
    const text = await res.text();
    const json = parseJson(text);
    if (res.ok) return json as T;
    const error = (json as { error?: { code?: string; message?: string } } | undefined)?.error;
    throw new ControlFailure(res.status, error?.code ?? `HTTP_${res.status}`, error?.message ?? text.trim());
  }

  /**
   * The raw answer of `path` (the feed reads it as a stream); a 401, a 403 or a device 404
   * (no control API there) changes the state.
   */
  async fetch(path: string, init: RequestInit = {}): Promise<Response> {
    if (this.base === null) throw new ControlFailure(404, 'OFF', 'the control API is off');
    const headers = new Headers(init.headers);
    if (this.token) headers.set('Authorization', `Bearer ${this.token}`);
    let res: Response;
    try {
      res = await tagged(`${this.base}${path}`, { ...init, headers });
    } catch (err) {
      this.set({ kind: 'unreachable', message: err instanceof Error ? err.message : String(err) });
      throw err;
    }
    if (res.status === 401 || res.status === 403) {
      const message = await messageOf(res.clone());
      this.set(res.status === 401 ? { kind: 'unauthorized', message } : { kind: 'forbidden', message });
    } else if (res.status === 404 && !(res.headers.get('Content-Type') ?? '').includes('json')) {
      // The device's own 404: nothing is mounted at /_emu.
      this.set({ kind: 'off', message: 'the device answers 404 for the control API' });
    } else if (this.current.kind !== 'ok' && this.current.kind !== 'checking' && res.ok) {
      this.set({ kind: 'ok' });
    }
    return res;
  }

  private set(state: ControlState): void {
    if (JSON.stringify(state) === JSON.stringify(this.current)) return;
    this.current = state;
    for (const listener of [...this.listeners]) listener(state);
  }
}

/** The message of a refusal's JSON body, else its text. */
async function messageOf(res: Response): Promise<string> {
  const text = await res.text().catch(() => '');
  const json = parseJson(text) as { error?: { message?: string } } | undefined;
  return json?.error?.message ?? (text.trim() || `HTTP ${res.status}`);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
