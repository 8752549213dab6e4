/**
 * The page's own event stream session, made as any client makes one: a session token from
 * wssession.cgi, the WebSocket on the device's stream path, then `events:configure`. When the
 * device closes it, it says so and connects again after a back-off (1 s doubling to 30 s).
 */
import { httpProblem, tagged } from './http.js';
import type { Notification, SessionFilter } from './types.js';

/** What the session is doing. */
export type StreamState =
  | { kind: 'idle' }
  | { kind: 'connecting'; step: string }
  | { kind: 'open' }
  | { kind: 'closed'; code: number; reason: string; retryInMs: number }
  | { kind: 'failed'; message: string; retryInMs: number };

/** What the session tells the page. */
export interface StreamHandlers {
  state(state: StreamState): void;
  event(notification: Notification): void;
  /** The device took `filter`. */
  configured(filter: SessionFilter): void;
  /** The device refused `filter` with error `code` (its previous filter stays in force). */
  refused(filter: SessionFilter, code: number, message: string): void;
}

/** The paths the session uses (from device.json). */
export interface StreamPaths {
  sessionToken: string;
  eventStream: string;
}

const FIRST_RETRY_MS = 1000;
const MAX_RETRY_MS = 30_000;

/** One event stream session that keeps itself connected. */
export class EventStream {
  private socket: WebSocket | undefined;
  private timer: number | undefined;
  private retryMs = FIRST_RETRY_MS;
  /** The filter the device took last (sent again after a reconnect). */
  private accepted: SessionFilter | undefined;
  /** The filter sent last and not answered yet, or refused. */
  private wanted: SessionFilter | undefined;
  private phase: 'idle' | 'connecting' | 'open' | 'waiting' = 'idle';

  constructor(
    private readonly paths: StreamPaths,
    private readonly on: StreamHandlers,
  ) {}

  /** Configures `filter`: on the open session, or on a new one. */
  apply(filter: SessionFilter): void {
    this.wanted = filter;
    // Connecting: the filter goes out once the socket opens.
    if (this.phase === 'open') this.configure(filter);
    else if (this.phase !== 'connecting') void this.connect();
  }

  /** Closes the session (1000) and does not reconnect. */
  stop(): void {
    this.phase = 'idle';
    window.clearTimeout(this.timer);
    this.socket?.close(1000, 'dashboard closed the view');
    this.socket = undefined;
    this.on.state({ kind: 'idle' });
  }

  private async connect(): Promise<void> {
    window.clearTimeout(this.timer);
    this.phase = 'connecting';
    this.on.state({ kind: 'connecting', step: 'session token' });
    let token: string;
    try {
      const res = await tagged(this.paths.sessionToken);
      if (!res.ok) {
        const retryAfter = Number(res.headers.get('Retry-After'));
        return this.retry(
          { kind: 'failed', message: `wssession.cgi: ${await httpProblem(res)}`, retryInMs: 0 },
          retryAfter,
        );
      }
      token = (await res.text()).trim();
    } catch (err) {
      return this.retry({ kind: 'failed', message: `wssession.cgi: ${String(err)}`, retryInMs: 0 });
    }
    if (this.phase !== 'connecting') return;
    this.on.state({ kind: 'connecting', step: 'WebSocket' });
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const url = `${scheme}://${location.host}${this.paths.eventStream}?sources=events&wssession=${encodeURIComponent(token)}`;
    const socket = new WebSocket(url);
    this.socket = socket;
    socket.addEventListener('open', () => {
      this.phase = 'open';
      const filter = this.accepted ?? this.wanted;
      if (filter) this.configure(filter);
    });
    socket.addEventListener('message', (message) => this.receive(message.data));
    socket.addEventListener('close', (closed) => {
      if (this.socket !== socket) return;
      this.socket = undefined;
      if (this.phase === 'idle') return;
      const reason =
        closed.reason || (closed.code === 1006 ? 'no close frame: connection lost or handshake refused' : '');
      this.retry({ kind: 'closed', code: closed.code, reason, retryInMs: 0 });
    });
  }

  private configure(filter: SessionFilter): void {
    this.wanted = filter;
    this.socket?.send(
      JSON.stringify({
        apiVersion: '1.0',
        context: 'dashboard',
        method: 'events:configure',
        params: { eventFilterList: [filter] },
      }),
    );
  }

  private receive(data: unknown): void {
    if (typeof data !== 'string') return;
    let message: {
      method?: string;
      params?: { notification?: Notification };
      error?: { code: number; message: string };
    };
    try {
      message = JSON.parse(data) as typeof message;
    } catch {
      return;
    }
    if (message.method === 'events:notify' && message.params?.notification) {
      this.on.event(message.params.notification);
      return;
    }
    if (message.method !== 'events:configure' || !this.wanted) return;
    const filter = this.wanted;
    if (message.error) {
      this.on.refused(filter, message.error.code, message.error.message);
      return;
    }
    this.accepted = filter;
    this.retryMs = FIRST_RETRY_MS;
    this.on.state({ kind: 'open' });
    this.on.configured(filter);
  }

  /** Tells `state` with the wait, and connects again after it (`retryAfterS` from the device, if it said). */
  private retry(state: Extract<StreamState, { retryInMs: number }>, retryAfterS = 0): void {
    if (this.phase === 'idle') return;
    this.phase = 'waiting';
    const wait = retryAfterS > 0 ? retryAfterS * 1000 : this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS);
    this.on.state({ ...state, retryInMs: wait });
    this.timer = window.setTimeout(() => void this.connect(), wait);
  }
}
