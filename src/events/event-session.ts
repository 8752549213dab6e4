/**
 * One event stream connection: a stateless session that waits for
 * `events:configure`, then sends each event once per matching filter. A client
 * too slow to read is closed (1013) instead of growing the device's memory.
 */
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import type { ClientVia } from '../base/client-tag';
import { type Clock, systemClock } from '../base/clock';
import type { JournalWriter } from '../base/journal';
import type { Logger } from '../base/log';
import { fail } from '../base/result';
import { RpcErrorCode, rpcFailure, type RpcRequest, rpcSuccess, type RpcResponse } from '../protocol/rpc';
import { readClientMessage, type SentFilter, sentFilters } from './client-message';
import { CLOSE_TIMEOUT_MS, CloseHandshake, SLOW_CLOSE_TIMEOUT_MS } from './close-handshake';
import {
  type CompiledFilter,
  compileConfigure,
  type ConfigureResult,
  type ConfigureRules,
  filterMatches,
  listTerms,
} from './configure';
import type { DeviceEvent, EventBus } from './event-bus';
import type { EventFaults } from './event-faults';
import { refusedMessage, unreadableFrame } from './refused-message';
import { CLOSE_POLICY_VIOLATION, DEFAULT_PING_LIMIT, type PingLimit, PingWindow, pingFloodReason } from './ping-limit';
import type { SessionInfo, SessionState } from './session-info';
import type { SessionAccount } from './session-limits';
import { listenTo } from './session-listeners';
import { SessionOutbox } from './session-outbox';

/** What a session tells of itself: declared with its schema (./session-info). */
export type { SessionInfo, SessionState } from './session-info';

/** Who is at the other end of a session, as its handshake said. */
export interface SessionIdentity {
  remoteAddress: string | undefined;
  user: string | undefined;
  sources: string[];
  /**
   * One of the emulator's own clients (the dashboard: a token it fetched, or its header on the
   * handshake), whose session is journaled marked and not graded; undefined for a client.
   */
  via?: ClientVia;
  /** Whose session and term budget it counts against, worked out once at the handshake (not in {@link SessionInfo}). */
  account: SessionAccount;
}

/** Who hears of a session's configure and close (the stream server). */
export interface SessionObserver {
  /**
   * `session` asks to hold `wanted` filter terms instead of its {@link EventSession.heldTerms}:
   * undefined when granted, else why not (the account's budget is spent).
   */
  claimTerms(session: EventSession, wanted: number): string | undefined;
  /** `session` now has new filters instead of `previous`. */
  sessionConfigured(session: EventSession, previous: readonly CompiledFilter[]): void;
  sessionClosed(session: EventSession, code: number, reason: string, by: 'client' | 'device'): void;
}

/** Limits and collaborators of a session. */
export interface SessionSettings {
  bus: EventBus;
  rules: ConfigureRules;
  /** Larger incoming messages are answered with 2107. */
  maxMessageBytes: number;
  /** Past this many bytes waiting to be sent, the session is closed with 1013. */
  maxBufferedBytes: number;
  log: Logger;
  /** Where configures and notifications are journaled; none when undefined (no record is even made). */
  journal: JournalWriter | undefined;
  /** Fault switches in force (a stall, no current states); none when undefined. */
  faults?: EventFaults;
  /** More pings than this are answered with a close (1008); default {@link DEFAULT_PING_LIMIT}. */
  pingLimit?: PingLimit;
  /** A client that does not answer the device's close within this is cut; default {@link CLOSE_TIMEOUT_MS}. */
  closeTimeoutMs?: number;
  /** The same for the close of a client too slow to read (1013); default {@link SLOW_CLOSE_TIMEOUT_MS}. */
  slowCloseTimeoutMs?: number;
  /** Times pings; default the system clock. */
  clock?: Clock;
}

/** The filters of a session not configured yet: one array for all of them. */
const NO_FILTERS: readonly CompiledFilter[] = Object.freeze([]);

/** WebSocket close code for "try again later", used for a client too slow to read. */
export const CLOSE_TOO_SLOW = 1013;

/** Binds a WebSocket to the event bus through the client's filters. */
export class EventSession {
  private state: SessionState = 'OPEN';
  private filters: readonly CompiledFilter[] = NO_FILTERS;
  /** Filter terms held against the account's budget (see {@link heldTerms}). */
  private terms = 0;
  private dropped = 0;
  private readonly connectedAt = Date.now();
  /** What the session sends, on its way to the socket. */
  private readonly outbox: SessionOutbox;
  /** The close handshake, and who waits for the end of the connection: made at the close, or the first wait for it. */
  private handshake: CloseHandshake | undefined = undefined;
  /** The client's pings, counted against the limit: made on the first ping. */
  private pings: PingWindow | undefined;

  constructor(
    readonly id: string,
    private readonly ws: WebSocket,
    /** The TCP (or TLS) socket under `ws`, corked per tick so a burst of frames is one write. */
    private readonly socket: Duplex,
    readonly identity: SessionIdentity,
    private readonly settings: SessionSettings,
    private readonly observer: SessionObserver,
  ) {
    this.outbox = new SessionOutbox(ws, socket, settings.maxBufferedBytes);
    listenTo(ws, this);
  }

  /**
   * The WebSocket failed (called by its listener, see {@link listenTo}). A frame ws could not read
   * (too big for any message, invalid UTF-8, a protocol error) is the client's message refused:
   * ws closes the session for it, and the journal says so.
   */
  wsError(err: Error): void {
    this.settings.log.info({ session: this.id, reason: err.message }, 'event stream error');
    const { journal } = this.settings;
    const refused = journal && unreadableFrame(this.id, err);
    if (refused) journal(refused);
  }

  /** The WebSocket closed (called by its listener, see {@link listenTo}). */
  wsClosed(code: number, reason: string): void {
    // The device's own close, reset and terminate mark the session closed first.
    const by = this.state === 'CLOSED' ? 'device' : 'client';
    const end = this.end.ended(code, reason);
    this.state = 'CLOSED';
    this.observer.sessionClosed(this, end.code, end.reason, by);
  }

  /** The close handshake (made on first use: an idle session of a fleet never needs it). */
  private get end(): CloseHandshake {
    return (this.handshake ??= new CloseHandshake(this.id, this.ws, this.socket, this.settings.log));
  }

  /** Resolves when the connection is gone, whoever closed it. */
  get closed(): Promise<void> {
    return this.end.closed;
  }

  /**
   * Sends `event` once per matching filter; does nothing before a successful configure.
   * The stream server's index does the matching for published events (see
   * {@link deliverMatched}); this is for the current states a new configure is told.
   */
  deliver(event: DeviceEvent): void {
    if (this.state !== 'CONFIGURED' || this.settings.faults?.stall) return;
    let times = 0;
    for (const filter of this.filters) if (filterMatches(filter, event.topic, event.message)) times++;
    this.deliverMatched(event, times);
  }

  /** Sends `event`, which matched `times` of the current filters, once per match. */
  deliverMatched(event: DeviceEvent, times: number): void {
    if (this.state !== 'CONFIGURED') return;
    for (let t = 0; t < times; t++) {
      if (!this.send(event.payload, 'notification')) return;
      this.settings.journal?.({ kind: 'notification', session: this.id, topic: event.topic, event: event.id });
    }
  }

  /** Notifications dropped because the client did not read fast enough. */
  get droppedCount(): number {
    return this.dropped;
  }

  /** The current filters, compiled (none before a successful configure). */
  get compiledFilters(): readonly CompiledFilter[] {
    return this.filters;
  }

  /**
   * True when a current filter can select events of `topic`: its topic part matches,
   * or it has only a content filter (which may match any topic).
   */
  subscribesTo(topic: string): boolean {
    return this.filters.some((f) => !f.topic || f.topic.matches(topic));
  }

  /** False once the session is closed or closing. */
  get open(): boolean {
    return this.state !== 'CLOSED';
  }

  /**
   * Closes the session with a WebSocket close code and reason, after what is waiting to be
   * sent; a client that does not answer within the close timeout is cut.
   */
  close(code: number, reason: string): void {
    this.closeWithin(code, reason, this.settings.closeTimeoutMs ?? CLOSE_TIMEOUT_MS);
  }

  /** {@link close}, the client cut if it has not answered within `timeoutMs`. */
  private closeWithin(code: number, reason: string, timeoutMs: number): void {
    if (this.state === 'CLOSED') return;
    this.state = 'CLOSED';
    this.outbox.flush();
    this.end.start(code, reason, timeoutMs);
  }

  /**
   * Stops (or starts again) reading from the client: a hung device that answers no ping and
   * no configure. What the client sends waits in the kernel's buffers.
   */
  hold(holding: boolean): void {
    if (holding) this.socket.pause();
    else this.socket.resume();
  }

  /** Drops the connection with a TCP reset: no close frame, no FIN (a device losing power or its network). */
  reset(): void {
    this.state = 'CLOSED';
    this.dropped += this.outbox.drop();
    const socket = this.socket as Duplex & { resetAndDestroy?: () => void };
    if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
    else socket.destroy();
  }

  /** Ends the connection at once, without a close handshake. */
  terminate(): void {
    this.state = 'CLOSED';
    this.dropped += this.outbox.drop();
    if (this.ws.readyState !== this.ws.CLOSED) this.ws.terminate();
  }

  /** A snapshot for observers. */
  info(): SessionInfo {
    return {
      id: this.id,
      state: this.state,
      remoteAddress: this.identity.remoteAddress,
      user: this.identity.user,
      sources: [...this.identity.sources],
      via: this.identity.via,
      connectedAt: this.connectedAt,
      filters: this.filters.map((f) => ({
        ...(f.topic ? { topicFilter: f.topic.source } : {}),
        ...(f.content ? { contentFilter: f.content.source } : {}),
      })),
      sent: this.outbox.sent,
      dropped: this.dropped,
    };
  }

  /** A message from the client (called by the WebSocket's listener, see {@link listenTo}). */
  onMessage(data: Buffer, isBinary: boolean): void {
    if (this.state === 'CLOSED') return;
    const message = readClientMessage(data, isBinary, this.settings.maxMessageBytes);
    if (message.kind === 'refused') return this.refuse(data, message.binary, message.response);
    if (message.kind === 'configure-refused') {
      const { filters, response } = message;
      if (response.error)
        this.settings.journal?.({ kind: 'configure', session: this.id, filters, error: response.error });
      return this.answer(response);
    }
    this.configure(message.request);
  }

  /** Filter terms the current filters hold (counted against the account's budget). */
  get heldTerms(): number {
    return this.terms;
  }

  /** Compiles a configure request's filters: they replace the current ones, or the request is refused. */
  private configure(request: RpcRequest): void {
    const { log, rules, bus } = this.settings;
    const compiled = this.withinBudget(
      compileConfigure(request, rules, (message, fields) => log.debug({ session: this.id, ...fields }, message)),
    );
    this.settings.journal?.({
      kind: 'configure',
      session: this.id,
      filters: sentFilters(request.params),
      error: compiled.ok ? undefined : { code: compiled.error.code, message: compiled.error.message },
    });
    if (!compiled.ok) return this.answer(rpcFailure(request, compiled.error.code, compiled.error.message));
    const previous = this.filters;
    this.filters = compiled.value;
    this.state = 'CONFIGURED';
    // The snapshot is built only for a log that shows it: a configure is on every connection's path.
    if (log.isLevelEnabled('info'))
      log.info({ session: this.id, filters: this.info().filters.map(filterText) }, 'events configured');
    this.answer(rpcSuccess(request, {}));
    if (!this.settings.faults?.noInitialStates) for (const state of bus.currentStates()) this.deliver(state);
    this.observer.sessionConfigured(this, previous);
  }

  /**
   * A compiled configure, or 2104 when its terms do not fit the account's budget (which the
   * observer keeps); on success the session holds the new terms instead of the old.
   */
  private withinBudget(compiled: ConfigureResult): ConfigureResult {
    if (!compiled.ok) return compiled;
    const wanted = listTerms(compiled.value);
    const refused = this.observer.claimTerms(this, wanted);
    if (refused !== undefined)
      return fail(RpcErrorCode.INVALID_PARAMETER, `Invalid parameter: eventFilterList: ${refused}`);
    this.terms = wanted;
    return compiled;
  }

  /**
   * Answers a message refused before it was a configure request, and journals it with what it
   * sent (cut, secrets redacted): only refused messages pay for the excerpt.
   */
  private refuse(data: Buffer, binary: boolean, response: RpcResponse): void {
    if (response.error) this.settings.journal?.(refusedMessage(this.id, data, binary, response.error));
    this.answer(response);
  }

  /** Sends `response`, logged when it refuses. */
  private answer(response: RpcResponse): void {
    if (response.error)
      this.settings.log.info(
        { session: this.id, code: response.error.code, message: response.error.message },
        'configure refused',
      );
    this.send(Buffer.from(JSON.stringify(response), 'utf8'), 'response');
  }

  /** Queues `payload` (UTF-8 JSON) as a text frame; false (and the session closed) when the client is too slow. */
  private send(payload: Buffer, kind: 'notification' | 'response'): boolean {
    if (this.state === 'CLOSED') return false;
    if (this.outbox.offer(payload, kind === 'notification')) return true;
    // What waits is dropped, so that the close frame waits behind the socket's high-water mark only.
    const buffered = this.outbox.bufferedBytes;
    this.dropped += 1 + this.outbox.drop();
    this.settings.log.warn(
      { session: this.id, buffered, limit: this.settings.maxBufferedBytes, dropped: this.dropped },
      'client too slow: closing the session',
    );
    // It reads what its socket holds before it sees the close: it gets as long as ws would give it.
    this.closeWithin(
      CLOSE_TOO_SLOW,
      'client too slow: send buffer full',
      this.settings.slowCloseTimeoutMs ?? SLOW_CLOSE_TIMEOUT_MS,
    );
    return false;
  }

  /** A ping from the client (called by its listener, see {@link listenTo}): a pong, or a close past the ping limit. */
  wsPing(data: Buffer): void {
    if (this.state === 'CLOSED') return;
    const limit = this.settings.pingLimit ?? DEFAULT_PING_LIMIT;
    this.pings ??= new PingWindow(limit);
    if (this.pings.allow((this.settings.clock ?? systemClock).now())) return this.outbox.pong(data);
    this.settings.log.warn(
      { session: this.id, pings: limit.pings, windowMs: limit.windowMs },
      'ping flood: closing the session',
    );
    this.close(CLOSE_POLICY_VIOLATION, pingFloodReason(limit));
  }
}

/** A filter of a configure in one line for the log: its topic filter, and its content filter after `|`. */
function filterText(filter: SentFilter): string {
  return [filter.topicFilter ?? '', filter.contentFilter].filter((part) => part !== undefined).join(' | ');
}
