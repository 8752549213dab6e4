/**
 * A fake {@link EmulatorHandle} for the control API's tests: two devices, flags and a
 * journal of its own (a real Journal on a manual clock), events stamped by a real
 * EventBus; it records every call, and throws what a test asks it to.
 */
import express from 'express';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { ManualClock } from '../../../src/base/clock';
import {
  Journal,
  type JournalEntry,
  type JournalFilter,
  type JournalKind,
  type NewestEntries,
  type NotificationEntry,
} from '../../../src/base/journal';
import { createLogger, type Logger } from '../../../src/base/log';
import { type ControlOptions, controlRouter } from '../../../src/control/control-router';
import type { ControlledEmulator, DeviceFault, DeviceOverride } from '../../../src/control/controlled-emulator';
import type { OverrideSpec } from '../../../src/protocol/answer-override-spec';
import { EmulatorError } from '../../../src/base/errors';
import { FAULT_NAMES, type FaultName, type FaultParamsInput } from '../../../src/protocol/fault-catalogue';
import type { FlagState } from '../../../src/device/feature-flags';
import type {
  DeviceAccess,
  EmulatedDevice,
  EmulatorHandle,
  EmulatorSession,
  OnDevice,
  ReportOptions,
  ScenarioStatus,
  SegmentInfo,
  WaitOptions,
} from '../../../src/emulator/handle';
import { grade } from '../../../src/grading/grade';
import type { GradingReport } from '../../../src/grading/report';
import type { NotificationMessage } from '../../../src/events/notification-message';
import { type DeviceEvent, EventBus, type PublishOptions } from '../../../src/events/event-bus';
import type { Scenario } from '../../../src/scenario/schema';

/** The control API takes an EmulatorHandle: it has all the control API uses (a compile-time check). */
export const handleFits = (handle: EmulatorHandle): ControlledEmulator => handle;

/** The serials of the fake's devices: the first is the port's own. */
export const SERIALS = ['B8A44F000001', 'B8A44F000002'] as const;

/** One recorded call: the method and its arguments. */
export interface Call {
  method: keyof EmulatorHandle;
  args: unknown[];
}

const FLAGS: FlagState[] = [
  { name: 'graphics_udvd', value: false, description: 'new renderer', defaultValue: false },
  { name: 'bwc_gnss_track_upload', value: true, description: 'GNSS track', defaultValue: true },
];

/** The fake emulator. */
export class FakeEmulator implements EmulatorHandle {
  readonly calls: Call[] = [];
  readonly clock = new ManualClock(Date.UTC(2026, 0, 1));
  readonly journalRing: Journal;
  /** What `scenarioStatus()` answers, for every device. */
  scenario: ScenarioStatus = {
    name: 'quiet',
    state: 'playing',
    positionMs: 1500,
    speed: 1,
    revision: 0,
    topics: ['tns1:Device/tnsvendor:IO/Port'],
  };
  /** Thrown by the next call of the named method. */
  readonly throwOn = new Map<keyof EmulatorHandle, Error>();
  private readonly bus = new EventBus(this.clock);
  private readonly flagValues = new Map(SERIALS.map((serial) => [serial as string, FLAGS.map((f) => ({ ...f }))]));

  /** @param journalCapacity entries its journal keeps (small, so that tests see it drop some) */
  constructor(journalCapacity = 4) {
    this.journalRing = new Journal(this.clock, journalCapacity);
  }

  get devices(): readonly EmulatedDevice[] {
    return this.access().map((access, i) => {
      const device = { serial: access.serial, host: '127.0.0.1', port: 8080 + i };
      return { access, device } as unknown as EmulatedDevice;
    });
  }

  get journalDropped(): number {
    return this.journalRing.dropped;
  }

  get journalSeq(): number {
    return this.journalRing.lastSeq;
  }

  access(): DeviceAccess[] {
    return SERIALS.map((serial, i) => ({
      serial,
      urls: { base: `http://127.0.0.1:${8080 + i}` } as DeviceAccess['urls'],
      user: i === 0 ? 'root' : undefined,
      password: i === 0 ? 'pass' : undefined,
      realm: 'AXIS_B8A44F',
      control: i === 0 ? 'http://127.0.0.1:8080/_emu' : undefined,
    }));
  }

  publish(topic: string, message?: NotificationMessage, options?: PublishOptions & OnDevice): DeviceEvent[] {
    this.record('publish', topic, message, options);
    return [this.bus.publish(topic, message, options)];
  }

  setState(topic: string, message: NotificationMessage, options?: OnDevice): DeviceEvent[] {
    this.record('setState', topic, message, options);
    return [this.bus.publish(topic, message, { stateful: true })];
  }

  flags(options?: OnDevice): FlagState[] {
    this.record('flags', options);
    return this.flagValues.get(String(options?.device ?? SERIALS[0])) ?? [];
  }

  setFlags(values: Readonly<Record<string, boolean>>, options?: OnDevice): Promise<void> {
    this.record('setFlags', values, options);
    for (const flag of this.flagValues.get(String(options?.device)) ?? []) flag.value = values[flag.name] ?? flag.value;
    return Promise.resolve();
  }

  sessions(options?: OnDevice): EmulatorSession[] {
    this.record('sessions', options);
    const session = { id: 's1', state: 'CONFIGURED' as const, remoteAddress: '127.0.0.1', user: 'root' };
    return [{ ...session, sources: ['events'], connectedAt: 1, filters: [{ topicFilter: 'tns1:Device' }] }].map(
      (s) => ({ ...s, sent: 2, dropped: 0, device: String(options?.device) }),
    );
  }

  closeSessions(code?: number, options?: OnDevice & { reason?: string }): number {
    this.record('closeSessions', code, options);
    return 1;
  }

  fault<N extends FaultName>(name: N, params?: FaultParamsInput<N>, options?: OnDevice): Promise<DeviceFault[]> {
    this.record('fault', name, params, options);
    if (!FAULT_NAMES.includes(name)) return Promise.reject(new EmulatorError('BAD_FAULT', `no fault switch "${name}"`));
    const since = this.clock.now();
    const info = { name, params: { ...params }, since, until: undefined, device: String(options?.device) };
    return Promise.resolve([info]);
  }

  clearFaults(name?: FaultName, options?: OnDevice): FaultName[] {
    this.record('clearFaults', name, options);
    return name ? [name] : [];
  }

  faults(options?: OnDevice): DeviceFault[] {
    this.record('faults', options);
    return [{ name: 'stall', params: { pings: true }, since: 1, until: undefined, device: String(options?.device) }];
  }

  override(spec: OverrideSpec, options?: OnDevice): DeviceOverride[] {
    this.record('override', spec, options);
    return [{ ...spec, id: 'o1', answered: 0, device: String(options?.device) }];
  }

  clearOverrides(id?: string, options?: OnDevice): string[] {
    this.record('clearOverrides', id, options);
    return id ? [id] : [];
  }

  overrides(options?: OnDevice): DeviceOverride[] {
    this.record('overrides', options);
    return [
      { cgi: 'featureflag.cgi', answer: { status: 500 }, id: 'o1', answered: 0, device: String(options?.device) },
    ];
  }

  waitForSession(options?: WaitOptions): Promise<EmulatorSession> {
    this.record('waitForSession', options);
    return Promise.resolve(this.sessions(options)[0]);
  }

  waitForNotification(options?: WaitOptions): Promise<NotificationEntry> {
    this.record('waitForNotification', options);
    return Promise.reject(new Error('not used'));
  }

  waitForEntry<K extends JournalKind>(kind: K, options?: WaitOptions): Promise<Extract<JournalEntry, { kind: K }>> {
    this.record('waitForEntry', kind, options);
    const found = this.journalRing.entries({ kind, since: options?.since }).find((e) => e.kind === kind);
    if (found) return Promise.resolve(found as Extract<JournalEntry, { kind: K }>);
    return Promise.reject(
      new EmulatorError('TIMEOUT', `no ${kind} entry within ${options?.timeout ?? 5000} ms; seen: nothing else`),
    );
  }

  clearJournal(): void {
    this.record('clearJournal');
    this.journalRing.clear();
  }

  report(options?: ReportOptions): GradingReport {
    this.record('report', options);
    const entries = this.journalRing.entries(options?.device === undefined ? {} : { device: String(options.device) });
    const devices = SERIALS.map((serial) => ({
      serial,
      streamPath: '/svc/ws-data-stream',
      tokenPath: '/svc-cgi/wssession.cgi',
      topics: [],
      topicAliases: {},
    }));
    return grade({ entries, dropped: this.journalRing.dropped, devices, now: this.clock.now() });
  }

  journal(filter?: JournalFilter): ReturnType<EmulatorHandle['journal']> {
    this.record('journal', filter);
    return this.journalRing.entries(filter);
  }

  newestEntries(count: number, options?: OnDevice & { after?: number }): NewestEntries {
    this.record('newestEntries', count, options);
    const device = options?.device === undefined ? undefined : String(options.device);
    return this.journalRing.newest(count, { device, after: options?.after });
  }

  watchJournal(listener: () => void, options?: OnDevice): () => void {
    this.record('watchJournal', options);
    return this.journalRing.watchWrites(listener, options?.device === undefined ? undefined : String(options.device));
  }

  scenarioStatus(options?: OnDevice): ScenarioStatus {
    this.record('scenarioStatus', options);
    return { ...this.scenario, topics: [...this.scenario.topics] };
  }

  setScenario(scenario: Scenario, options?: OnDevice): void {
    this.record('setScenario', scenario, options);
  }

  pauseScenario(options?: OnDevice): void {
    this.record('pauseScenario', options);
  }

  playScenario(options?: OnDevice): void {
    this.record('playScenario', options);
  }

  restartScenario(options?: OnDevice): void {
    this.record('restartScenario', options);
  }

  reset(options?: { segment?: string }): Promise<void> {
    this.record('reset', ...(options === undefined ? [] : [options]));
    this.journalRing.clear();
    return Promise.resolve();
  }

  nameSegment(name: string): SegmentInfo {
    this.record('nameSegment', name);
    return { index: 1, name, named: true, from: new Date(this.clock.now()).toISOString() };
  }

  close(): Promise<void> {
    this.record('close');
    return Promise.resolve();
  }

  /** The calls of `method`, oldest first. */
  callsOf(method: keyof EmulatorHandle): unknown[][] {
    return this.calls.filter((call) => call.method === method).map((call) => call.args);
  }

  /** Records a call; throws what `throwOn` holds for the method. */
  private record(method: keyof EmulatorHandle, ...args: unknown[]): void {
    const error = this.throwOn.get(method);
    this.throwOn.delete(method);
    if (error) throw error;
    this.calls.push({ method, args });
  }
}

/** A control API on a real server, port 0 on 127.0.0.1, mounted at /_emu as the emulator does. */
export interface ControlServer {
  emulator: FakeEmulator;
  server: Server;
  url: string;
  /** What the router logged, one parsed pino line each. */
  logs: Array<{ level: number; msg: string; [field: string]: unknown }>;
  /** Set what `state()` answers. */
  setState(state: ReturnType<ControlOptions['state']>): void;
  close(): Promise<void>;
}

/** Starts a control server; `before` runs ahead of the router (to fake a remote address). */
export async function startControl(
  options: Partial<Omit<ControlOptions, 'emulator' | 'state' | 'log'>> & { journalCapacity?: number } = {},
  before?: express.RequestHandler,
): Promise<ControlServer> {
  const { journalCapacity, ...routerOptions } = options;
  const emulator = new FakeEmulator(journalCapacity);
  const logs: ControlServer['logs'] = [];
  const log: Logger = createLogger({
    level: 'debug',
    write: (line) => void logs.push(JSON.parse(line) as ControlServer['logs'][number]),
  });
  let state: ReturnType<ControlOptions['state']> = 'ready';
  const app = express();
  if (before) app.use(before);
  const router = controlRouter({
    emulator,
    state: () => state,
    device: SERIALS[0],
    fleetRoutes: true,
    token: undefined,
    log,
    ...routerOptions,
  });
  app.use('/_emu', router);
  const server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const { port } = server.address() as AddressInfo;
  return {
    emulator,
    server,
    url: `http://127.0.0.1:${port}`,
    logs,
    setState: (next) => void (state = next),
    // Open connections (a live feed) are ended, as the device's server does on close.
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
