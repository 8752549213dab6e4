/**
 * One simulated device: an Express app on a node:http(s) server we own, serving
 * the CGIs (feature flags, session tokens) behind real digest/Basic auth.
 * The WebSocket event stream shares this server through its `upgrade` event.
 */
import { join } from 'node:path';
import { SessionTokens, type TokenVerdict } from '../auth/session-tokens';
import { IgnoredTagLog } from '../base/client-tag';
import { EmulatorError } from '../base/errors';
import { err, ok } from '../base/result';
import type { Expectation, JournalWriter } from '../base/journal';
import type { NotificationMessage } from '../events/notification-message';
import { type DeviceEvent, EventBus, type PublishOptions } from '../events/event-bus';
import type { SessionInfo } from '../events/event-session';
import type { SessionListener } from '../events/stream-server';
import { type DeviceDoor, openDoor } from '../base/device-door';
import { createLogger } from '../base/log';
import { buildDeviceApp } from './device-app';
import { DeviceMakeup } from './device-makeup';
import { type DeviceOptions, resolveDeviceOptions, type ResolvedDeviceOptions } from './device-options';
import type { DeviceHandle } from './device-handle';
import { FeatureFlags, type FlagState } from './feature-flags';
import { devicePaths, deviceUrls, type DeviceUrls } from './endpoints';
import { selfSignedCertificate, wrongHostCertificate } from '../base/tls';
import type { EventFaults } from '../events/event-faults';
import type { ActiveFault, FaultName, FaultParamsInput } from '../protocol/fault-catalogue';
import { controlSockets } from './device-context';
import type { ActiveOverride, OverrideSpec } from '../protocol/answer-override-spec';
import { AnswerOverrides } from './answer-overrides';
import { DeviceFaults } from './faults/device-faults';
import { checkOverride } from './override-check';

// Part of the public face: src/index.ts exports the type from here.
export type { DeviceHandle } from './device-handle';

/** Lifecycle of a device, as a small explicit state. */
type DeviceState = 'RUNNING' | 'CLOSING' | 'CLOSED';

/** Starts a device on `options.port` (0 = a free port) and resolves when it listens. */
export async function startDevice(options: DeviceOptions = {}): Promise<DeviceHandle> {
  const resolved = resolveDeviceOptions(options);
  const log = (options.logger ?? createLogger({ level: options.logLevel })).child({ device: resolved.serial });
  const tls =
    resolved.tls === true
      ? await selfSignedCertificate(`${resolved.serial}.bwc-emu.local`, resolved.host)
      : resolved.tls || undefined;
  const tokens = new SessionTokens(
    resolved.clock,
    resolved.tokenLifetimeMs,
    resolved.limits.tokensPerAccount,
    resolved.sessionTokenFormat,
  );
  const stateFile = resolved.stateDir ? join(resolved.stateDir, resolved.serial, 'flags.json') : undefined;
  const flags = new FeatureFlags(resolved.flags, stateFile, (message) => log.warn({ stateFile }, message));

  const journal: JournalWriter | undefined = options.journal?.writerFor(resolved.serial);
  const events: EventFaults = {};
  const bus = new EventBus(resolved.clock, resolved.timestamps, events);
  publishInitialStates(bus, resolved);
  const parts = new DeviceMakeup({
    resolved,
    log,
    tokens,
    flags,
    bus,
    events,
    http: {},
    tls,
    journal,
    boot: { startedAt: resolved.clock.now() },
    ignoredTags: new IgnoredTagLog(log, resolved.clock),
  });
  parts.request = buildDeviceApp({
    options: resolved,
    auth: parts,
    tokens,
    flags,
    log,
    journal,
    control: options.control,
    http: parts.http,
    boot: parts.boot,
    ignoredTags: parts.ignoredTags,
  });
  const listening = await openDoor(parts, {
    port: resolved.port,
    host: resolved.host,
    tls,
    log,
    sharePort: resolved.sharePort,
  });
  parts.listening = listening;
  log.info({ url: listening.url, realm: resolved.realm, auth: resolved.auth }, 'device listening');
  return new RunningDeviceHandle(parts, listening);
}

/** Publishes the states a device starts with (at start, and again on a reset or a reboot). */
function publishInitialStates(bus: EventBus, resolved: ResolvedDeviceOptions): void {
  for (const initial of resolved.initialStates) bus.publish(initial.topic, initial.message, { stateful: true });
}

/** The handle of a device: a class, so a fleet of a thousand shares its methods. */
class RunningDeviceHandle implements DeviceHandle {
  private state: DeviceState = 'RUNNING';
  private closed: Promise<void> | undefined = undefined;
  /** Made on the first fault: a healthy device does not pay for it. */
  private switches: DeviceFaults | undefined = undefined;

  constructor(
    private readonly parts: DeviceMakeup,
    private readonly listening: DeviceDoor,
  ) {}

  get url(): string {
    return this.listening.url;
  }

  get port(): number {
    return this.listening.port;
  }

  /** Made on each read: a fleet does not keep a thousand sets of URL strings nobody reads. */
  get urls(): DeviceUrls {
    const { cgiPrefix, wsPrefix } = this.parts.resolved;
    return deviceUrls(this.url, devicePaths(cgiPrefix, wsPrefix));
  }

  get certificate(): string | undefined {
    return this.parts.tls?.cert;
  }

  get host(): string {
    return this.parts.resolved.host;
  }

  get serial(): string {
    return this.parts.resolved.serial;
  }

  get realm(): string {
    return this.parts.resolved.realm;
  }

  get options(): Readonly<ResolvedDeviceOptions> {
    return this.parts.resolved;
  }

  flags(): FlagState[] {
    return this.parts.flags.list();
  }

  async setFlags(values: Readonly<Record<string, boolean>>): Promise<void> {
    const result = await this.parts.flags.set(values);
    if (!result.ok) throw new EmulatorError('BAD_OPTION', result.error.message);
  }

  issueToken(username = 'root'): string {
    const issued = this.parts.tokens.issue(username);
    if (!issued.ok) throw new EmulatorError('LIMIT', issued.error.message);
    return issued.value;
  }

  consumeToken(token: string): TokenVerdict {
    const use = this.parts.tokens.consume(token);
    if (use.ok) return ok(use.value.username);
    const { code, message } = use.error;
    return err({ code, message });
  }

  publish(topic: string, message?: NotificationMessage, options?: PublishOptions): DeviceEvent {
    return this.parts.bus.publish(topic, message, options);
  }

  sessions(topic?: string): SessionInfo[] {
    return this.parts.sessions(topic);
  }

  watchSessions(listener: SessionListener): () => void {
    return this.parts.watch(listener);
  }

  rejectAuth(ms: number): void {
    this.parts.authenticator.rejectFor(ms);
    this.parts.log.info({ ms }, 'refusing logins for a while');
  }

  closeSessions(code?: number, reason?: string): number {
    return this.parts.streamIfMade?.closeSessions(code, reason) ?? 0;
  }

  expect({ name, that, topic, withinMs }: Expectation): void {
    this.parts.journal?.({ kind: 'expect', name, that, topic, withinMs });
  }

  fault<N extends FaultName>(name: N, params?: FaultParamsInput<N>): Promise<ActiveFault> {
    return this.faultSwitches().set(name, params);
  }

  clearFaults(name?: FaultName): FaultName[] {
    return this.switches?.clear(name) ?? [];
  }

  faults(): ActiveFault[] {
    return this.switches?.list() ?? [];
  }

  override(spec: OverrideSpec): ActiveOverride {
    const { http, log } = this.parts;
    const override = (http.overrides ??= new AnswerOverrides()).add(checkOverride(spec));
    log.info({ override: override.id, cgi: override.cgi, method: override.method }, 'answer override made');
    return override;
  }

  clearOverrides(id?: string): string[] {
    return this.parts.http.overrides?.clear(id) ?? [];
  }

  overrides(): ActiveOverride[] {
    return this.parts.http.overrides?.list() ?? [];
  }

  async reset(): Promise<void> {
    const { streamIfMade: stream, tokens, authenticatorIfMade: authenticator, bus, flags, log } = this.parts;
    this.switches?.clear();
    this.clearOverrides();
    await stream?.endSessions(1001, 'reset by the emulator');
    tokens.revokeAll();
    authenticator?.stopRejecting();
    bus.clearStates();
    publishInitialStates(bus, this.parts.resolved);
    await flags.reset();
    log.info('device reset');
  }

  close(): Promise<void> {
    if (this.state !== 'RUNNING') return this.closed as Promise<void>;
    this.state = 'CLOSING';
    this.switches?.close();
    const { listening } = this;
    const { log } = this.parts;
    this.closed = (async () => {
      await listening.close(async () => this.parts.streamIfMade?.close());
      this.parts.authenticatorIfMade?.flushLog();
      this.parts.ignoredTags.flush();
      this.state = 'CLOSED';
      log.info('device closed');
    })();
    return this.closed;
  }

  private faultSwitches(): DeviceFaults {
    if (this.switches) return this.switches;
    const { resolved, log, authenticator, tokens, bus, stream, events, http, tls, journal, boot } = this.parts;
    const { listening } = this;
    const certificateFor = tls
      ? async (hostname: string | undefined): Promise<void> =>
          listening.useCertificate(hostname === undefined ? undefined : await wrongHostCertificate(hostname))
      : undefined;
    // Made on the first fault switch. The module loads at start: loading it on first use saved
    // 0.6 MB and no measurable time, zod being loaded by the journal anyway (bench/lazy-load.js).
    this.switches = new DeviceFaults({
      serial: resolved.serial,
      namespace: resolved.namespace,
      events,
      http,
      stream,
      bus,
      authenticator,
      tokens,
      listening,
      spares: (socket) => controlSockets.has(socket),
      // Called by a reboot only: the device starts again, so its uptime does too.
      restartStates: () => {
        boot.startedAt = resolved.clock.now();
        bus.clearStates();
        publishInitialStates(bus, resolved);
      },
      certificateFor,
      log,
      journal,
      clock: resolved.clock,
    });
    return this.switches;
  }
}
