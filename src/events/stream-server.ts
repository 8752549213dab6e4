/**
 * The event stream endpoint `{ws-prefix}/ws-data-stream`: a guard for upgrade
 * requests on the device's own HTTP server (each precondition ends the handshake
 * with its own status), then one {@link EventSession} per connection.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Clock } from '../base/clock';
import type { WebSocket, WebSocketServer } from 'ws';
import type { Authenticator } from '../auth/authenticator';
import type { SessionTokens } from '../auth/session-tokens';
import { type ClientVia, clientVia, type IgnoredTagLog } from '../base/client-tag';
import { EmulatorError } from '../base/errors';
import { type JournalWriter, viaWriter, writeVia } from '../base/journal';
import { errorOf, type Logger } from '../base/log';
import { closeFrameProblem } from '../protocol/websocket-close';
import type { CompiledFilter, ConfigureRules } from './configure';
import type { DeviceEvent, EventBus } from './event-bus';
import type { EventFaults } from './event-faults';
import { FilterIndex } from './filter-index';
import { handshakeLogin } from './handshake-login';
import { abortHandshake, refuseCredentials } from './handshake-refusal';
import { checkUpgradeRequest } from './upgrade-request-check';
import { parseUpgradeTarget } from './upgrade-target';
import { handshaker } from './ws-handshaker';
import {
  EventSession,
  type SessionIdentity,
  type SessionInfo,
  type SessionObserver,
  type SessionSettings,
} from './event-session';
import { DEFAULT_SESSION_LIMITS, sessionAccount, type SessionLimitSettings, SessionLimits } from './session-limits';

import type { SessionChange, SessionListener } from './session-change';

/** What watchers hear (./session-change), where the device and the public face have always found it. */
export type { SessionChange, SessionListener } from './session-change';

/** How the stream endpoint is set up. */
export interface StreamServerOptions {
  /** Full path, e.g. `/svc/ws-data-stream`. */
  path: string;
  authenticator: Authenticator;
  tokens: SessionTokens;
  bus: EventBus;
  rules: ConfigureRules;
  maxMessageBytes: number;
  maxBufferedBytes: number;
  /** Offer permessage-deflate. */
  deflate: boolean;
  log: Logger;
  /** Where a handshake's ignored `X-BWC-Emu-Client` value is logged (the device's, shared with its HTTP requests). */
  ignoredTags: IgnoredTagLog;
  /** Where sessions, configures, notifications and refused handshakes are journaled; none when undefined. */
  journal: JournalWriter | undefined;
  /** Fault switches in force (a stall, a slot limit, no WebSocket); none when undefined. */
  faults?: EventFaults;
  /** Sessions per device and per account, filter terms per account; {@link DEFAULT_SESSION_LIMITS} when absent. */
  limits?: Readonly<SessionLimitSettings>;
  /** Times the sessions' pings (the device's clock); the system clock when absent. */
  clock?: Clock;
}

const NO_SESSIONS: ReadonlyMap<string, EventSession> = new Map();
const NO_WATCHERS: ReadonlySet<SessionListener> = new Set();

/** Accepts upgrades and keeps the live sessions; it is the observer of its sessions. */
export class StreamServer implements SessionObserver {
  private readonly wss: WebSocketServer;
  /** The live sessions, made at the first: read through {@link live}. A fleet's idle devices have none. */
  private liveSessions: Map<string, EventSession> | undefined = undefined;
  private nextId = 1;
  private closedForSlowness = 0;
  /** The session watchers, made at the first: read through {@link watchers}. */
  private watching: Set<SessionListener> | undefined = undefined;
  /** The accounts' session and filter budgets, made at the first session. */
  private sessionLimits: SessionLimits | undefined = undefined;
  /** The bus listener, made (and subscribed) at the first configure: it delivers nothing before. */
  private deliverer: ((event: DeviceEvent) => void) | undefined = undefined;
  /** A socket's errors until its handshake ends, made at the first upgrade. */
  private handshakeErrors: ((err: Error) => void) | undefined = undefined;
  /** The configured sessions' filters, by topic: made at the first configure (a fleet's idle devices have none). */
  private index: FilterIndex | undefined;
  /** The settings of the emulator's own clients' sessions (their journal marked), made on the first one. */
  private viaSettings: Map<ClientVia, SessionSettings> | undefined;

  constructor(private readonly options: StreamServerOptions) {
    this.wss = handshaker(options.deflate, options.maxMessageBytes);
  }

  /** The live sessions (an empty map, never written, before the first). */
  private get live(): ReadonlyMap<string, EventSession> {
    return this.liveSessions ?? NO_SESSIONS;
  }

  private get watchers(): ReadonlySet<SessionListener> {
    return this.watching ?? NO_WATCHERS;
  }

  private get limits(): SessionLimits {
    return (this.sessionLimits ??= new SessionLimits(this.options.limits ?? DEFAULT_SESSION_LIMITS));
  }

  /** A session asks to hold more (or fewer) filter terms: its account's budget decides. */
  claimTerms(session: EventSession, wanted: number): string | undefined {
    return this.limits.claimTerms(session.identity.account, session.heldTerms, wanted);
  }

  /** A session configured its filters: it tells its server itself (the server is its observer). */
  sessionConfigured(configured: EventSession, previous: readonly CompiledFilter[]): void {
    if (this.index === undefined) {
      this.index = new FilterIndex();
      this.options.bus.subscribe(this.deliver);
    }
    this.index.remove(configured, previous);
    this.index.add(configured, configured.compiledFilters);
    if (this.toldOf(configured))
      this.tell({
        kind: 'configure',
        session: configured.info(),
        subscribesTo: (topic) => configured.subscribesTo(topic),
      });
  }

  /** A session is gone (see {@link sessionConfigured}). */
  sessionClosed(closed: EventSession, code: number, reason: string, by: 'client' | 'device'): void {
    if (this.liveSessions?.delete(closed.id)) {
      this.limits.closed(closed.identity.account, closed.heldTerms);
      this.index?.remove(closed, closed.compiledFilters);
    }
    const { journal } = this.options;
    if (journal) writeVia(journal, { kind: 'ws-close', session: closed.id, code, reason, by }, closed.identity.via);
    if (closed.droppedCount > 0) this.closedForSlowness++;
    // Snapshots are built only for a log or a watcher that takes them: this is on every connection's path.
    const log = this.options.log;
    const told = this.toldOf(closed);
    if (!told && !log.isLevelEnabled('info')) return;
    const info = closed.info();
    log.info({ session: closed.id, code, reason, sent: info.sent, dropped: info.dropped }, 'event stream disconnected');
    if (told) this.tell({ kind: 'disconnect', session: info, code, reason });
  }

  /** The bus listener: every event to the sessions whose filters match it (none while stalled). */
  private get deliver(): (event: DeviceEvent) => void {
    return (this.deliverer ??= (event) => {
      if (this.options.faults?.stall) return;
      this.index?.deliver(event);
    });
  }

  /** A socket's errors until its handshake ends (then the session, or the HTTP server, hears them): one for every socket. */
  private get onHandshakeError(): (err: Error) => void {
    return (this.handshakeErrors ??= (err) =>
      this.options.log.debug({ reason: err.message }, 'socket error during handshake'));
  }

  /** Handles a `server.on('upgrade')` request: guards, authentication, then the session. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const { tokens } = this.options;
    socket.on('error', this.onHandshakeError);
    const url = parseUpgradeTarget(req.url);
    const token = url?.searchParams.get('wssession') ?? null;
    const remote = req.socket.remoteAddress;
    // Whose handshake: the dashboard's header (read once), or the token issued to it (see viaOfRefused).
    const headerVia = clientVia(req.headers, this.options.ignoredTags, remote);
    /** Ends the handshake with `status` and `message` (logged and journaled as this handshake's). */
    const refuse = (status: number, message: string, extra?: Record<string, string>): void =>
      abortHandshake(socket, status, message, this.options, req, viaOfRefused(headerVia, token, tokens), extra);
    const request = checkUpgradeRequest(req, url, this.options.path, this.options.faults?.noWebSocket === true);
    if (!request.ok) return refuse(request.error.code, request.error.message, request.error.headers);
    const sources = request.value;
    const login = handshakeLogin(req, token, headerVia, this.options);
    // The authenticator's answer (401, or 429); the connection may stay.
    if (!login.ok)
      return refuseCredentials(
        { socket, head, onError: this.onHandshakeError },
        this.options,
        req,
        login.error,
        login.error.scheme,
        viaOfRefused(headerVia, token, tokens),
      );
    const { user, via, token: tokenNumber } = login.value;
    const slots = this.options.faults?.slots;
    const taken = slots && [...this.live.values()].filter((session) => session.open);
    if (slots && taken && taken.length >= slots.max) {
      if (slots.overflow === 'refuse') return refuse(503, `No free event stream slot: at most ${slots.max} sessions`);
      // The oldest go first, as on devices where a new subscription knocks out an old one.
      for (const session of taken.slice(0, taken.length - slots.max + 1)) session.close(slots.code, slots.reason);
    }
    // Worked out once: the session keeps it for its term claims and its close.
    const account = sessionAccount(user, remote, via);
    const admitted = this.limits.admit(account);
    if (!admitted.ok) return refuse(admitted.error.status, admitted.error.message);
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      // From here ws hears the socket's errors and the session logs them.
      socket.off('error', this.onHandshakeError);
      this.open(ws, socket, { remoteAddress: remote, user, sources, via, account }, tokenNumber);
    });
  }

  /**
   * Starts the session of an accepted upgrade. Kept apart from `handleUpgrade` so a
   * session holds only what it needs, not the handshake's request, URL and head.
   */
  private open(ws: WebSocket, socket: Duplex, identity: SessionIdentity, token: number | undefined): void {
    const id = `s${this.nextId++}`;
    const { user, remoteAddress: remote, via, account } = identity;
    const sources = [...new Set(identity.sources)];
    const settings = via === undefined ? this.options : this.settingsOf(via);
    const session = new EventSession(
      id,
      ws,
      socket,
      { remoteAddress: remote, user, sources, via, account },
      settings,
      this,
    );
    (this.liveSessions ??= new Map()).set(id, session);
    this.limits.opened(account);
    if (this.options.faults?.stall?.pings === false) session.hold(true);
    const { journal, log } = this.options;
    if (journal) writeVia(journal, { kind: 'ws-open', session: id, user, remote, token }, via);
    if (log.isLevelEnabled('info'))
      log.info(
        { session: id, user, remote, sources: identity.sources, deflate: Boolean(ws.extensions), via },
        'event stream connected',
      );
    if (this.toldOf(session)) this.tell({ kind: 'connect', session: session.info() });
  }

  /**
   * The settings of a session of the emulator's own client `via`: the server's, with a journal
   * that marks the session's configures and notifications. Made once per server, not per session.
   */
  private settingsOf(via: ClientVia): SessionSettings {
    let settings = this.viaSettings?.get(via);
    if (!settings) {
      // Named field by field, not spread: the options may be getters (a device's makeup), which a spread leaves out.
      const { bus, rules, maxMessageBytes, maxBufferedBytes, log, journal, faults, clock } = this.options;
      settings = {
        bus,
        rules,
        maxMessageBytes,
        maxBufferedBytes,
        log,
        faults,
        clock,
        journal: journal && viaWriter(journal, via),
      };
      (this.viaSettings ??= new Map()).set(via, settings);
    }
    return settings;
  }

  /**
   * Adds a listener of the client's session changes (a scenario's triggers, a wait for a
   * session); the emulator's own clients' sessions are not told (see {@link SessionChange}).
   * Returns its remover.
   */
  watch(listener: SessionListener): () => void {
    (this.watching ??= new Set()).add(listener);
    return () => this.unwatch(listener);
  }

  /** Stops telling `listener` (see {@link watch}). */
  unwatch(listener: SessionListener): void {
    this.watching?.delete(listener);
  }

  /** Snapshots of the live sessions; with `topic`, only those whose filters can select it. */
  sessions(topic?: string): SessionInfo[] {
    const live = [...this.live.values()];
    return (topic === undefined ? live : live.filter((s) => s.subscribesTo(topic))).map((s) => s.info());
  }

  /**
   * Closes every live session with a close code and reason; returns how many. Throws
   * `BAD_OPTION` for a code or reason a close frame cannot carry, before closing any.
   */
  closeSessions(code = 1001, reason = 'closed by the emulator'): number {
    const problem = closeFrameProblem(code, reason);
    if (problem) throw new EmulatorError('BAD_OPTION', problem);
    const sessions = [...this.live.values()];
    for (const session of sessions) session.close(code, reason);
    return sessions.length;
  }

  /** Stops (or starts again) reading from every session's client: a hung device (see EventSession.hold). */
  holdSessions(holding: boolean): void {
    for (const session of this.live.values()) session.hold(holding);
  }

  /** Drops every session with a TCP reset, no close frame; returns how many. */
  resetSessions(): number {
    const sessions = [...this.live.values()];
    for (const session of sessions) session.reset();
    return sessions.length;
  }

  /** Sessions closed because their client could not keep up. */
  get slowClientsClosed(): number {
    return this.closedForSlowness;
  }

  /**
   * Closes every session with `code` and `reason` and resolves once each has closed;
   * sessions whose client does not finish the close handshake within `graceMs` are cut.
   */
  async endSessions(code: number, reason: string, graceMs = 250): Promise<void> {
    const sessions = [...this.live.values()];
    for (const session of sessions) session.close(code, reason);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(sessions.map((s) => s.closed)),
      new Promise((resolve) => (timer = setTimeout(resolve, graceMs))),
    ]);
    clearTimeout(timer);
    for (const session of sessions) session.terminate();
    await Promise.all(sessions.map((s) => s.closed));
  }

  /**
   * Stops listening to the bus and closes every session with 1001 "device shutting
   * down", as a rebooting device does; sessions still open after `graceMs` are cut.
   */
  async close(graceMs = 250): Promise<void> {
    if (this.deliverer) this.options.bus.unsubscribe(this.deliverer);
    await this.endSessions(1001, 'device shutting down', graceMs);
    this.liveSessions?.clear();
  }

  /**
   * Whether the watchers hear of `session`'s changes: when there are any, and the session is
   * the client's, not one of the emulator's own (see {@link SessionChange}).
   */
  private toldOf(session: EventSession): boolean {
    return this.watchers.size > 0 && session.identity.via === undefined;
  }

  /** Tells every watcher; a throwing watcher is logged and does not stop the others. */
  private tell(change: SessionChange): void {
    for (const watcher of this.watchers) {
      try {
        watcher(change);
      } catch (err) {
        this.options.log.error({ err: errorOf(err), change: change.kind }, 'session watcher failed');
      }
    }
  }
}

/**
 * The emulator client a refused handshake is journaled as: its header's, else its token's
 * (issued to the dashboard; remembered until it expires, used or not). Looked up only when a
 * handshake is refused: an accepted one learns it from the token it uses up.
 */
function viaOfRefused(
  headerVia: ClientVia | undefined,
  token: string | null,
  tokens: SessionTokens,
): ClientVia | undefined {
  return headerVia ?? (token === null ? undefined : tokens.viaOf(token));
}
