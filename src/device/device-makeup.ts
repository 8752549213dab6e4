/**
 * What a running device is made of. Its state (options, tokens, flags, the bus and its states,
 * fault settings) is made at start; its authentication and its event stream server are made
 * when first needed: a device of a fleet of 100,000 that no client reaches never pays for them
 * (about 0.8 KB a device). What they are told is read from the makeup itself, getters over
 * the device's resolved options, so no device keeps a copy of them; how to check configures is
 * shared by alike devices (see configureRules). Watchers of sessions that come before the stream server are kept
 * and handed to it when it is made.
 */
import type { IncomingMessage, RequestListener } from 'node:http';
import type { Duplex } from 'node:stream';
import { Authenticator, type AuthenticatorOptions } from '../auth/authenticator';
import type { ThrottleRules } from '../auth/login-throttle';
import type { SessionTokens } from '../auth/session-tokens';
import type { IgnoredTagLog } from '../base/client-tag';
import type { DeviceDoor, DoorEndpoint } from '../base/device-door';
import type { JournalWriter } from '../base/journal';
import type { Logger } from '../base/log';
import type { TlsMaterial } from '../base/tls';
import type { EventBus } from '../events/event-bus';
import type { EventFaults } from '../events/event-faults';
import type { SessionInfo } from '../events/event-session';
import type { ConfigureRules } from '../events/configure';
import { FilterCache } from '../events/filter-cache';
import type { SessionLimitSettings } from '../events/session-limits';
import { type SessionListener, StreamServer, type StreamServerOptions } from '../events/stream-server';
import type { DeviceBoot } from './device-app';
import { sessionLimitsOf, throttleOf } from './device-limits';
import type { ResolvedDeviceOptions } from './device-options';
import { devicePaths } from './endpoints';
import type { FeatureFlags } from './feature-flags';
import type { HttpFaults } from './faults/fault-target';

/** The parts made at start. */
export interface DeviceState {
  resolved: ResolvedDeviceOptions;
  /** Where the device's parts write what crossed its sockets (undefined without a journal). */
  journal: JournalWriter | undefined;
  log: Logger;
  tokens: SessionTokens;
  flags: FeatureFlags;
  bus: EventBus;
  /** What the fault switches set, read by the bus, the stream and the HTTP app. */
  events: EventFaults;
  http: HttpFaults;
  tls: TlsMaterial | undefined;
  /** The start time the dashboard's uptime counts from. */
  boot: DeviceBoot;
  /** The log of ignored `X-BWC-Emu-Client` values (HTTP requests and handshakes). */
  ignoredTags: IgnoredTagLog;
}

/**
 * How a device checks configures, and its cache of compiled filters: one for every device of
 * the process with the same aliases (the same object: devices told nothing share it) and
 * limits, as a filter compiles alike for all of them. A fleet's sessions that send the same
 * filter then share one compiled filter, and its devices one cache.
 */
function configureRules(resolved: ResolvedDeviceOptions): ConfigureRules {
  const { topicAliases, maxFilters } = resolved;
  const { maxFilterTerms, maxFilterNesting } = resolved.limits;
  let byLimits = sharedRules.get(topicAliases);
  if (byLimits === undefined) sharedRules.set(topicAliases, (byLimits = new Map<string, ConfigureRules>()));
  const key = `${maxFilters}/${maxFilterTerms}/${maxFilterNesting}`;
  let rules = byLimits.get(key);
  if (rules === undefined) {
    rules = { topicAliases, maxFilters, maxFilterTerms, maxFilterNesting, cache: new FilterCache() };
    byLimits.set(key, rules);
  }
  return rules;
}

/** The configure rules made so far, by aliases and limits. */
const sharedRules = new WeakMap<object, Map<string, ConfigureRules>>();

/** A device's parts: a class, so that a fleet of 100,000 shares its methods. */
export class DeviceMakeup implements DeviceState, DoorEndpoint, AuthenticatorOptions, StreamServerOptions {
  readonly resolved: ResolvedDeviceOptions;
  readonly journal: JournalWriter | undefined;
  readonly log: Logger;
  readonly tokens: SessionTokens;
  readonly flags: FeatureFlags;
  readonly bus: EventBus;
  readonly events: EventFaults;
  readonly http: HttpFaults;
  readonly tls: TlsMaterial | undefined;
  readonly boot: DeviceBoot;
  readonly ignoredTags: IgnoredTagLog;
  /** The device's HTTP answers (set once its app is built). */
  request: RequestListener = () => undefined;
  /** Where it is reached (set once its door is open). */
  listening: DeviceDoor | undefined = undefined;
  private auth: Authenticator | undefined = undefined;
  private streamServer: StreamServer | undefined = undefined;
  /** Watchers that came before the stream server, handed to it when it is made. */
  private earlyWatchers: Set<SessionListener> | undefined = undefined;

  constructor(state: DeviceState) {
    this.resolved = state.resolved;
    this.journal = state.journal;
    this.log = state.log;
    this.tokens = state.tokens;
    this.flags = state.flags;
    this.bus = state.bus;
    this.events = state.events;
    this.http = state.http;
    this.tls = state.tls;
    this.boot = state.boot;
    this.ignoredTags = state.ignoredTags;
  }

  /** The device's authentication, made at its first use (reading its options from this makeup). */
  get authenticator(): Authenticator {
    return (this.auth ??= new Authenticator(this));
  }

  /** The authentication if it was made (what it holds to flush or stop, it holds only then). */
  get authenticatorIfMade(): Authenticator | undefined {
    return this.auth;
  }

  /** The event stream server, made at its first use (an upgrade, a fault, a session asked for). */
  get stream(): StreamServer {
    if (this.streamServer) return this.streamServer;
    const stream = (this.streamServer = new StreamServer(this));
    for (const listener of this.earlyWatchers ?? []) stream.watch(listener);
    this.earlyWatchers = undefined;
    return stream;
  }

  /** The stream server if it was made: a device without one has no session. */
  get streamIfMade(): StreamServer | undefined {
    return this.streamServer;
  }

  /** An upgrade request (the door's): the stream server takes it. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.stream.handleUpgrade(req, socket, head);
  }

  /*
   * What the authentication and the stream server are told: read from the resolved options on
   * each use, so that a device keeps no copy of them (AuthenticatorOptions, StreamServerOptions).
   */
  get mode(): ResolvedDeviceOptions['auth'] {
    return this.resolved.auth;
  }
  get accounts(): ResolvedDeviceOptions['accounts'] {
    return this.resolved.accounts;
  }
  get realm(): string {
    return this.resolved.realm;
  }
  get algorithms(): ResolvedDeviceOptions['digestAlgorithms'] {
    return this.resolved.digestAlgorithms;
  }
  get nonceLifetimeMs(): number {
    return this.resolved.nonceLifetimeMs;
  }
  get replay(): ResolvedDeviceOptions['digestReplay'] {
    return this.resolved.digestReplay;
  }
  get clock(): ResolvedDeviceOptions['clock'] {
    return this.resolved.clock;
  }
  get replayPerAccount(): number {
    return this.resolved.limits.replayPerAccount;
  }
  get throttle(): ThrottleRules {
    return throttleOf(this.resolved.limits);
  }
  get plainHttp(): boolean {
    return this.tls === undefined;
  }
  get basicOverHttp(): boolean {
    return this.resolved.basicOverHttp;
  }
  get path(): string {
    return devicePaths(this.resolved.cgiPrefix, this.resolved.wsPrefix).eventStream;
  }
  get rules(): ConfigureRules {
    return configureRules(this.resolved);
  }
  get limits(): Readonly<SessionLimitSettings> {
    return sessionLimitsOf(this.resolved.limits);
  }
  get maxMessageBytes(): number {
    return this.resolved.maxMessageBytes;
  }
  get maxBufferedBytes(): number {
    return this.resolved.maxBufferedBytes;
  }
  get deflate(): boolean {
    return this.resolved.wsDeflate;
  }
  get faults(): EventFaults {
    return this.events;
  }

  /** The live sessions (none before the stream server is made). */
  sessions(topic?: string): SessionInfo[] {
    return this.streamServer?.sessions(topic) ?? [];
  }

  /** Tells `listener` of every session change, from now on, without making the stream server. */
  watch(listener: SessionListener): () => void {
    if (this.streamServer) return this.streamServer.watch(listener);
    (this.earlyWatchers ??= new Set()).add(listener);
    return () => {
      if (this.streamServer) this.streamServer.unwatch(listener);
      else this.earlyWatchers?.delete(listener);
    };
  }
}
