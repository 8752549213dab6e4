/**
 * The event stream endpoint `{ws-prefix}/ws-data-stream`: a guard for upgrade
 * requests on the device's own HTTP server (each precondition ends the handshake
 * with its own status), then one {@link EventSession} per connection.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import { authScheme } from '../auth/auth-params';
import type { Authenticator, RefusalInfo } from '../auth/authenticator';
import type { SessionTokens } from '../auth/session-tokens';
import { type ClientVia, clientVia, type IgnoredTagLog } from '../base/client-tag';
import { EmulatorError } from '../base/errors';
import { TOKEN_REFUSAL_CODES } from '../base/refusal-codes';
import { type JournalWriter, viaWriter, writeVia } from '../base/journal';
import { errorOf, type Logger } from '../base/log';
import { closeFrameProblem } from '../protocol/websocket-close';
import type { CompiledFilter, ConfigureRules } from './configure';
import type { DeviceEvent, EventBus } from './event-bus';
import type { EventFaults } from './event-faults';
import { FilterIndex } from './filter-index';
import { abortHandshake, refuseCredentials } from './handshake-refusal';
import { parseUpgradeTarget } from './upgrade-target';
import {
  EventSession,
  type SessionIdentity,
  type SessionInfo,
  type SessionObserver,
  type SessionSettings,
} from './event-session';
import { DEFAULT_SESSION_LIMITS, sessionAccount, type SessionLimitSettings, SessionLimits } from './session-limits';

/**
 * What {@link StreamServer.watch} listeners hear: the client's sessions coming, configuring,
 * going. The sessions of the emulator's own clients (`identity.via` set: the dashboard) are
 * never told: they are not the client under test, so they fire no scenario trigger and meet no
 * wait for a session. {@link StreamServer.sessions} still lists them.
 */
export type SessionChange =
  | { kind: 'connect'; session: SessionInfo }
  | {
      kind: 'configure';
      session: SessionInfo;
      /** True when the new filters can select `topic`. */ subscribesTo(topic: string): boolean;
    }
  | { kind: 'disconnect'; session: SessionInfo; code: number; reason: string };

/** A listener of {@link StreamServer.watch}; called synchronously. */
export type SessionListener = (change: SessionChange) => void;

/** Data sources the stream serves; `events` is event streaming. */
export const STREAM_SOURCES = ['events'] as const;

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
}

const WS_KEY = /^[+/0-9A-Za-z]{22}==$/;
/** Frames above this are refused by ws itself (close 1009); between the limit and this, 2107. */
const HARD_FRAME_LIMIT_FACTOR = 16;

/**
 * ws servers by their settings. In noServer mode without client tracking a ws server only
 * performs handshakes and keeps nothing, so every device with the same settings shares one
 * (a fleet of a thousand would otherwise hold a thousand).
 */
const handshakers = new Map<string, WebSocketServer>();

function handshaker(deflate: boolean, maxPayload: number): WebSocketServer {
  const key = `${deflate} ${maxPayload}`;
  let wss = handshakers.get(key);
  if (!wss) {
    wss = new WebSocketServer({
      noServer: true,
      clientTracking: false,
      perMessageDeflate: deflate ? { threshold: 256 } : false,
      maxPayload,
      // Sessions answer pings themselves, up to a limit and then with a close (1008): ws's own
      // answer drops a connection with 60 pongs not yet written, without a close frame.
      autoPong: false,
    });
    handshakers.set(key, wss);
  }
  return wss;
}

/** Accepts upgrades and keeps the live sessions; it is the observer of its sessions. */
export class StreamServer implements SessionObserver {
  private readonly wss: WebSocketServer;
  private readonly live = new Map<string, EventSession>();
  private nextId = 1;
  private closedForSlowness = 0;
  private readonly watchers = new Set<SessionListener>();
  private readonly limits: SessionLimits;
  /** The configured sessions' filters, by topic: made at the first configure (a fleet's idle devices have none). */
  private index: FilterIndex | undefined;
  /** The settings of the emulator's own clients' sessions (their journal marked), made on the first one. */
  private viaSettings: Map<ClientVia, SessionSettings> | undefined;

  constructor(private readonly options: StreamServerOptions) {
    this.limits = new SessionLimits(options.limits ?? DEFAULT_SESSION_LIMITS);
    this.wss = handshaker(options.deflate, Math.max(options.maxMessageBytes * HARD_FRAME_LIMIT_FACTOR, 1024 * 1024));
    options.bus.subscribe(this.deliver);
  }

  /** A session asks to hold more (or fewer) filter terms: its account's budget decides. */
  claimTerms(session: EventSession, wanted: number): string | undefined {
    return this.limits.claimTerms(session.identity.account, session.heldTerms, wanted);
  }

  /** A session configured its filters: it tells its server itself (the server is its observer). */
  sessionConfigured(configured: EventSession, previous: readonly CompiledFilter[]): void {
    this.index ??= new FilterIndex();
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
    if (this.live.delete(closed.id)) {
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
  private readonly deliver = (event: DeviceEvent): void => {
    if (this.options.faults?.stall) return;
    this.index?.deliver(event);
  };

  /** A socket's errors until its handshake ends (then the session, or the HTTP server, hears them): one for every socket. */
  private readonly onHandshakeError = (err: Error): void =>
    this.options.log.debug({ reason: err.message }, 'socket error during handshake');

  /** Handles a `server.on('upgrade')` request: guards, authentication, then the session. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const { authenticator, tokens } = this.options;
    socket.on('error', this.onHandshakeError);
    const url = parseUpgradeTarget(req.url);
    const token = url?.searchParams.get('wssession') ?? null;
    const remote = req.socket.remoteAddress;
    // Whose handshake: the dashboard's header (read once), or the token issued to it (see viaOfRefused).
    const headerVia = clientVia(req.headers, this.options.ignoredTags, remote);
    /** Ends the handshake with `status` and `message` (logged and journaled as this handshake's). */
    const refuse = (status: number, message: string, extra?: Record<string, string>): void =>
      abortHandshake(socket, status, message, this.options, req, viaOfRefused(headerVia, token, tokens), extra);
    /** Ends the handshake with the authenticator's answer to `refusal` (401, or 429); the connection may stay. */
    const refuseLogin = (refusal: RefusalInfo, scheme: string | undefined): void =>
      refuseCredentials(
        { socket, head, onError: this.onHandshakeError },
        this.options,
        req,
        refusal,
        scheme,
        viaOfRefused(headerVia, token, tokens),
      );
    if (this.options.faults?.noWebSocket) return refuse(404, 'Not Found (this firmware has no WebSocket event stream)');
    if (!url || url.pathname !== this.options.path)
      return refuse(
        404,
        `No WebSocket endpoint at ${url?.pathname ?? req.url}; the event stream is ${this.options.path}`,
      );
    if (req.method !== 'GET') return refuse(400, 'The WebSocket handshake must be a GET request');
    if ((req.headers.upgrade ?? '').toLowerCase() !== 'websocket')
      return refuse(400, 'Upgrade header must be "websocket"');
    if (!WS_KEY.test(String(req.headers['sec-websocket-key'] ?? '').trim()))
      return refuse(400, 'Missing or invalid Sec-WebSocket-Key');
    const version = req.headers['sec-websocket-version'];
    if (version === undefined) return refuse(400, 'Missing Sec-WebSocket-Version (must be 13)');
    if (version.trim() !== '13')
      return refuse(426, `Sec-WebSocket-Version ${version} is not supported; use 13`, {
        'Sec-WebSocket-Version': '13',
      });
    const sourcesParam = url.searchParams.get('sources');
    if (sourcesParam === null || sourcesParam.trim() === '')
      return refuse(400, `Missing query parameter sources (e.g. ?sources=events)`);
    const sources = sourcesParam.split(',').map((s) => s.trim());
    const unknown = sources.filter((s) => !(STREAM_SOURCES as readonly string[]).includes(s));
    if (unknown.length > 0)
      return refuse(400, `Unknown data source(s): ${unknown.join(', ')}; known: ${STREAM_SOURCES.join(', ')}`);

    let user: string | undefined;
    let via = headerVia;
    /** The number of the session token that opens the session (the journal names it, never the token). */
    let tokenNumber: number | undefined;
    if (authenticator.rejecting) {
      const refusal: RefusalInfo = {
        code: 'REJECTING',
        message: 'logins are refused for a while (simulated reboot)',
        stale: false,
      };
      return refuseLogin(refusal, schemeOf(req, token));
    } else if (authenticator.mode !== 'none' && token !== null) {
      const use = tokens.consume(token);
      if (!use.ok) {
        const { code, message, number } = use.error;
        const refusal: RefusalInfo = { code: TOKEN_REFUSAL_CODES[code], message, stale: false, token: number };
        return refuseLogin(refusal, 'token');
      }
      user = use.value.username;
      via ??= use.value.via;
      tokenNumber = use.value.number;
    } else {
      const verdict = authenticator.verify(req);
      if (!verdict.ok) return refuseLogin(verdict.error, schemeOf(req, null));
      user = verdict.value.account?.name;
      // Without authentication a token is not used up, but whose it is still tells whose session this is.
      if (token !== null) via ??= tokens.viaOf(token);
    }
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
    this.live.set(id, session);
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
      const { journal } = this.options;
      settings = { ...this.options, journal: journal && viaWriter(journal, via) };
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
    this.watchers.add(listener);
    return () => this.watchers.delete(listener);
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
    this.options.bus.unsubscribe(this.deliver);
    await this.endSessions(1001, 'device shutting down', graceMs);
    this.live.clear();
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

/** The scheme a handshake tried: a session token, the Authorization header's scheme, or none. */
function schemeOf(req: IncomingMessage, token: string | null): string | undefined {
  return token !== null ? 'token' : authScheme(req.headers.authorization);
}
