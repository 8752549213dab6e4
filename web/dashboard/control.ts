/**
 * The emulator's control API (`/_emu`) on the device's own port: requests with the control
 * token when one is set (kept for the tab in sessionStorage, sent as `Bearer`), and whether
 * the API can be used at all, as one state the control panels show. While it cannot be reached,
 * or `/health` answers an error, `/health` is asked again after a back-off (1 s doubling to 30 s).
 */
import { Backoff } from './backoff.js';
import { messageOf } from './format.js';
import { jsonOf, problemOf, tagged } from './http.js';
import { Listeners } from './listeners.js';

/** Whether the control API can be used, and if not why. */
export type ControlState =
  | { kind: 'checking' }
  | { kind: 'ok' }
  | { kind: 'off'; message: string }
  | { kind: 'forbidden'; message: string }
  | { kind: 'unauthorized'; message: string }
  /** No answer at all (the emulator is down, the network is): checked again. */
  | { kind: 'unreachable'; message: string }
  /** `/health` answered an error (503 while it starts or closes, 429, an answer that is not JSON): checked again. */
  | { kind: 'failing'; message: string };

const TOKEN_KEY = 'bwc-emu.control-token';

/** The control API of this device. */
export class ControlApi {
  private current: ControlState = { kind: 'checking' };
  private readonly listeners = new Listeners<ControlState>();
  private readonly backoff = new Backoff();
  private recheck: number | undefined;

  /** @param base `/_emu`, or null when the device runs without the control API. */
  constructor(private readonly base: string | null) {
    if (base === null) this.current = { kind: 'off', message: 'the emulator runs without its control API' };
  }

  get state(): ControlState {
    return this.current;
  }

  /** Calls `listener` now and on every change of state; returns its remover. */
  watch(listener: (state: ControlState) => void): () => void {
    const remove = this.listeners.add(listener);
    this.listeners.call(listener, this.current);
    return remove;
  }

  /** The token in use, empty for none. */
  get token(): string {
    return sessionStorage.getItem(TOKEN_KEY) ?? '';
  }

  /** Uses `token` (empty: none) from now on and checks the API again; resolves with the state then. */
  async useToken(token: string): Promise<ControlState> {
    if (token) sessionStorage.setItem(TOKEN_KEY, token);
    else sessionStorage.removeItem(TOKEN_KEY);
    await this.check();
    return this.current;
  }

  /** Asks the API whether it answers (`GET /health`), and tells the listeners. */
  async check(): Promise<void> {
    if (this.base === null) return;
    let res: Response;
    try {
      res = await this.fetch('/health');
    } catch {
      return; // fetch() has made it unreachable.
    }
    if (isRefusal(res)) return void (await res.body?.cancel()); // fetch() has set the state.
    if (!res.ok) return this.set({ kind: 'failing', message: `/health answered ${await problemOf(res)}` });
    try {
      await jsonOf(res);
      this.set({ kind: 'ok' });
    } catch (err) {
      this.set({ kind: 'failing', message: `/health: ${messageOf(err)}` });
    }
  }

  /** `method path` with a JSON body; resolves with the JSON answer, rejects with what was wrong. */
  async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await this.fetch(path, {
      method,
      ...(body === undefined ? {} : { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }),
    });
    if (res.ok) return (await jsonOf(res)) as T;
    throw new Error(await problemOf(res));
  }

  /**
   * The raw answer of `path` (the feed reads it as a stream); no answer, a 401, a 403 or a
   * device 404 (no control API there) changes the state, and any success after one of them.
   */
  async fetch(path: string, init: RequestInit = {}): Promise<Response> {
    if (this.base === null) throw new Error('the control API is off');
    const headers = new Headers(init.headers);
    if (this.token) headers.set('Authorization', `Bearer ${this.token}`);
    let res: Response;
    try {
      res = await tagged(`${this.base}${path}`, { ...init, headers });
    } catch (err) {
      if (!init.signal?.aborted) this.set({ kind: 'unreachable', message: messageOf(err) });
      throw err;
    }
    if (res.status === 401 || res.status === 403) {
      const message = await problemOf(res.clone(), false);
      this.set(res.status === 401 ? { kind: 'unauthorized', message } : { kind: 'forbidden', message });
    } else if (isRefusal(res)) {
      this.set({ kind: 'off', message: 'the device answers 404 for the control API' });
    } else if (this.current.kind !== 'ok' && this.current.kind !== 'checking' && res.ok) {
      this.set({ kind: 'ok' });
    }
    return res;
  }

  private set(state: ControlState): void {
    if (state.kind === 'ok') {
      this.backoff.reset();
      window.clearTimeout(this.recheck);
      this.recheck = undefined;
    } else if (state.kind === 'unreachable' || state.kind === 'failing') {
      this.recheckLater();
    }
    if (JSON.stringify(state) === JSON.stringify(this.current)) return;
    this.current = state;
    this.listeners.emit(state);
  }

  /** Asks `/health` again after the back-off (once: a check already waiting is the one). */
  private recheckLater(): void {
    if (this.recheck !== undefined) return;
    this.recheck = window.setTimeout(() => {
      this.recheck = undefined;
      void this.check();
    }, this.backoff.next());
  }
}

/** Whether `res` is a refusal {@link ControlApi.fetch} turns into a state: 401, 403, or the device's own 404. */
function isRefusal(res: Response): boolean {
  if (res.status === 401 || res.status === 403) return true;
  // The device's own 404 (not JSON): nothing is mounted at /_emu.
  return res.status === 404 && !(res.headers.get('Content-Type') ?? '').includes('json');
}
