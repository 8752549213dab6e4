/**
 * The page's own event stream session, made as any client makes one: a session token from
 * wssession.cgi, the WebSocket on the device's stream path, then `events:configure`. When the
 * device closes it, it says so and connects again after a back-off (1 s doubling to 30 s).
 *
 * The device answers configures in the order they were sent, so each answer is matched to the
 * oldest filter sent and not answered yet. A new session is configured with the filter last
 * applied if the device has not answered it yet (it may have been applied while reconnecting),
 * else with the one the device took last.
 */
import { Backoff } from './backoff.js';
import { messageOf } from './format.js';
import { httpProblem, tagged } from './http.js';
import type { SessionFilter } from './types.js';
import type { Notification } from './wire-types.js';
import type { DashboardDeviceInfo } from './wire-types.js';

/** What the session is doing. */
export type StreamState =
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
  /** A frame that is not a JSON-RPC message, or an event without a topic, was ignored; `count` so far. */
  malformed(count: number): void;
}

/** The paths the session uses (from device.json). */
export type StreamPaths = Pick<DashboardDeviceInfo['paths'], 'sessionToken' | 'eventStream'>;

/** One event stream session that keeps itself connected. */
export class EventStream {
  private socket: WebSocket | undefined;
  private timer: number | undefined;
  private readonly backoff = new Backoff();
  /** The filter the device took last (sent again after a reconnect). */
  private accepted: SessionFilter | undefined;
  /** The filter applied last, until the device answers it. */
  private wanted: SessionFilter | undefined;
  /** The filters sent on this socket and not answered yet, oldest first. */
  private sent: SessionFilter[] = [];
  private malformed = 0;
  private phase: 'connecting' | 'open' | 'waiting' | undefined;

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

  private async connect(): Promise<void> {
    window.clearTimeout(this.timer);
    this.phase = 'connecting';
    this.on.state({ kind: 'connecting', step: 'session token' });
    let token: string;
    try {
      const res = await tagged(this.paths.sessionToken);
      if (!res.ok) {
        const retryAfter = Number(res.headers.get('Retry-After'));
        const message = `wssession.cgi: ${await httpProblem(res)}`;
        return this.retry({ kind: 'failed', message, retryInMs: 0 }, retryAfter);
      }
      token = (await res.text()).trim();
    } catch (err) {
      return this.retry({ kind: 'failed', message: `wssession.cgi: ${messageOf(err)}`, retryInMs: 0 });
    }
    this.on.state({ kind: 'connecting', step: 'WebSocket' });
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const url = `${scheme}://${location.host}${this.paths.eventStream}?sources=events&wssession=${encodeURIComponent(token)}`;
    const socket = new WebSocket(url);
    this.socket = socket;
    this.sent = [];
    socket.addEventListener('open', () => {
      this.phase = 'open';
      const filter = this.wanted ?? this.accepted;
      if (filter) this.configure(filter);
    });
    socket.addEventListener('message', (message) => this.receive(message.data));
    socket.addEventListener('close', (closed) => {
      if (this.socket !== socket) return;
      this.socket = undefined;
      const reason = closed.reason || (closed.code === 1006 ? lostReason(this.phase === 'open') : '');
      this.retry({ kind: 'closed', code: closed.code, reason, retryInMs: 0 });
    });
  }

  private configure(filter: SessionFilter): void {
    if (!this.socket) return;
    this.sent.push(filter);
    this.socket.send(
      JSON.stringify({
        apiVersion: '1.0',
        context: 'dashboard',
        method: 'events:configure',
        params: { eventFilterList: [filter] },
      }),
    );
  }

  private receive(data: unknown): void {
    let message: {
      method?: string;
      params?: { notification?: Notification };
      error?: { code: number; message: string };
    };
    try {
      message = JSON.parse(String(data)) as typeof message;
      if (typeof message !== 'object' || message === null) throw new Error('not an object');
    } catch {
      this.on.malformed(++this.malformed);
      return;
    }
    if (message.method === 'events:notify') {
      const notification = message.params?.notification;
      // Every row shows the topic: an event without one as text is as unreadable as a frame that is not JSON.
      if (typeof notification?.topic !== 'string') return void this.on.malformed(++this.malformed);
      this.on.event(notification);
      return;
    }
    if (message.method !== 'events:configure') return;
    const filter = this.sent.shift();
    if (!filter) return;
    if (this.wanted === filter) this.wanted = undefined;
    if (message.error) {
      this.on.refused(filter, message.error.code, message.error.message);
      return;
    }
    this.accepted = filter;
    this.backoff.reset();
    this.on.state({ kind: 'open' });
    this.on.configured(filter);
  }

  /** Tells `state` with the wait, and connects again after it (`retryAfterS` from the device, if it said). */
  private retry(state: Extract<StreamState, { retryInMs: number }>, retryAfterS = 0): void {
    this.phase = 'waiting';
    const backoff = this.backoff.next();
    const wait = retryAfterS > 0 ? retryAfterS * 1000 : backoff;
    this.on.state({ ...state, retryInMs: wait });
    this.timer = window.setTimeout(() => void this.connect(), wait);
  }
}

/**
 * What a close without a close frame (1006) means: after the handshake, a lost connection; before
 * it, a refused handshake, whose HTTP status a browser does not show (the journal has it).
 */
function lostReason(opened: boolean): string {
  return opened
    ? 'no close frame: connection lost'
    : 'the handshake was refused (the journal says why: e.g. at most 2 dashboard sessions per device, ' +
        'or the no-websocket fault)';
}
