/**
 * What a running device offers its caller (`startDevice` resolves with it): its URLs and
 * options, flags, session tokens, events, sessions, auth, expectations, fault switches,
 * reset and close.
 */
import type { TokenVerdict } from '../auth/session-tokens';
import type { Expectation } from '../base/journal';
import type { DeviceEvent, PublishOptions } from '../events/event-bus';
import type { SessionInfo } from '../events/event-session';
import type { NotificationMessage } from '../events/notification-message';
import type { SessionListener } from '../events/stream-server';
import type { ActiveOverride, OverrideSpec } from '../protocol/answer-override-spec';
import type { ActiveFault, FaultName, FaultParamsInput } from '../protocol/fault-catalogue';
import type { ResolvedDeviceOptions } from './device-options';
import type { DeviceUrls } from './endpoints';
import type { FlagState } from './feature-flags';

/** A running device. */
export interface DeviceHandle {
  /** Base URL, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  /** The URL of every endpoint: feature flags, session token, event stream (`ws://`), discovery, ... */
  readonly urls: DeviceUrls;
  readonly port: number;
  readonly host: string;
  readonly serial: string;
  /** The digest realm the device challenges with. */
  readonly realm: string;
  /** The options in force, defaults filled in. */
  readonly options: Readonly<ResolvedDeviceOptions>;
  /** The PEM certificate the device serves (HTTPS only), to trust in a client. */
  readonly certificate: string | undefined;
  /** Current feature flags. */
  flags(): FlagState[];
  /** Sets feature flags all-or-nothing, as `featureflag.cgi` `set` does; rejects unknown names. */
  setFlags(values: Readonly<Record<string, boolean>>): Promise<void>;
  /**
   * Issues a session token without the HTTP round trip (what `wssession.cgi` answers); throws
   * `LIMIT` when the user holds its share of pending tokens.
   */
  issueToken(username?: string): string;
  /** Uses up a session token: valid once, within its lifetime. */
  consumeToken(token: string): TokenVerdict;
  /**
   * Publishes an event on the device's event system: every stream session gets it
   * once per matching filter. `stateful` events are also kept as the current state.
   */
  publish(topic: string, message?: NotificationMessage, options?: PublishOptions): DeviceEvent;
  /** Calls `listener` when a stream session connects, configures or disconnects; returns its remover. */
  watchSessions(listener: SessionListener): () => void;
  /**
   * The live event stream sessions: id, remote address, filters, sent and dropped counts;
   * with `topic`, only those configured with a filter that can select it.
   */
  sessions(topic?: string): SessionInfo[];
  /**
   * Refuses every login (digest, Basic, session tokens) with 401 for `ms`, as a
   * rebooting device does; tokens issued before stay valid if they outlive it.
   */
  rejectAuth(ms: number): void;
  /**
   * Records in the journal that, from now, the client has `withinMs` to do `that` (a
   * scenario's `expect:` step); the grader says whether it did. Without a journal, nothing.
   */
  expect(expectation: Expectation): void;
  /**
   * Back to how it started: fault switches and answer overrides off, sessions closed (1001), session tokens
   * revoked, refused logins ended, states back to the initial ones, flags to their defaults.
   */
  reset(): Promise<void>;
  /**
   * Turns fault switch `name` on (docs/faults.md): a state switch until cleared or for
   * `forMs`, an action (drop, reboot, flap, storm) at once, resolving when it is over.
   * Throws `BAD_FAULT` for an unknown switch or bad parameters.
   */
  fault<N extends FaultName>(name: N, params?: FaultParamsInput<N>): Promise<ActiveFault>;
  /** Switches fault `name` off (every one when undefined); returns the names switched off. */
  clearFaults(name?: FaultName): FaultName[];
  /** The fault switches that are on. */
  faults(): ActiveFault[];
  /**
   * Makes the device answer a CGI (by method, by text in the request) with a JSON-RPC error, an
   * HTTP status, a JSON body or a delay, after authentication, `times` times or until cleared
   * (docs/control-api.md). Throws `BAD_OVERRIDE` for an unknown CGI or method or a bad answer.
   */
  override(spec: OverrideSpec): ActiveOverride;
  /** Removes override `id` (every one when undefined); returns the ids removed. */
  clearOverrides(id?: string): string[];
  /** The answer overrides in force. */
  overrides(): ActiveOverride[];
  /** Closes every event stream session (default 1001 "closed by the emulator"); returns how many. */
  closeSessions(code?: number, reason?: string): number;
  /** Stops listening and ends every connection; resolves when all is closed. */
  close(): Promise<void>;
}
