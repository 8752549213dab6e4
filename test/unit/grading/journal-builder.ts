/**
 * Synthetic journals for the grader's unit tests: a builder with its own clock (`at` sets
 * it to an offset from the start, `advance` moves it on) that appends entries of every kind
 * with sensible defaults (device DEV1, remote 127.0.0.1, increasing seq, ISO time from the
 * clock), and grades them against {@link JournalBuilder.facts}. No sockets, no timers.
 */
import type {
  AuthRefusedEntry,
  ConfigureEntry,
  ExpectEntry,
  FaultChangeEntry,
  HttpEntry,
  JournalAuth,
  JournalEntry,
  MessageRefusedEntry,
  NotificationEntry,
  WsCloseEntry,
  WsOpenEntry,
  WsRefusedEntry,
} from '../../../src/base/journal';
import type { BodyExcerpt } from '../../../src/base/body-excerpt';
import type { FaultName } from '../../../src/base/fault-names';
import type { RefusalCode } from '../../../src/base/refusal-codes';
import { grade } from '../../../src/grading/grade';
import type { DeviceFacts } from '../../../src/grading/journal-index';
import type { Finding, GradingReport, GradingThresholds } from '../../../src/grading/report';
import type { RuleId } from '../../../src/grading/rule-catalogue';

/** When every builder's clock starts (epoch ms). */
export const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
export const DEVICE = 'DEV1';
export const REMOTE = '127.0.0.1';
export const USER = 'operator';
export const STREAM_PATH = '/svc/ws-data-stream';
export const TOKEN_PATH = '/svc-cgi/wssession.cgi';
export const IO_PORT = 'tns1:Device/tnsvendor:IO/Port';
export const MOTION = 'tns1:VideoSource/MotionAlarm';
export const TOPICS: readonly string[] = [IO_PORT, MOTION];

/** A filter as a test writes it: a topic filter string, or the full object. */
export type FilterSpec = string | { topicFilter?: string; contentFilter?: string };

interface Common {
  device?: string;
  remote?: string;
}

/** The fields of an `http` entry a test may set. */
export type HttpOptions = {
  method?: string;
  path?: string;
  status?: number | undefined;
  auth?: JournalAuth | undefined;
  user?: string | undefined;
  ms?: number;
  error?: { code: number; message: string };
  /** The JSON-RPC method the body named. */
  call?: string;
  /** What a refused request sent (the text; its size is the text's unless given). */
  body?: string | BodyExcerpt;
  /** The number of the session token the request was answered with. */
  token?: number;
} & Common;

export class JournalBuilder {
  private clock: number;
  private seq = 0;
  private events = 0;
  private readonly list: JournalEntry[] = [];

  constructor(readonly start = T0) {
    this.clock = start;
  }

  /** Sets the clock to `ms` after the start. */
  at(ms: number): this {
    this.clock = this.start + ms;
    return this;
  }

  /** Moves the clock on by `ms`. */
  advance(ms: number): this {
    this.clock += ms;
    return this;
  }

  /** The clock, epoch ms. */
  get now(): number {
    return this.clock;
  }

  /** The epoch ms `ms` after the start. */
  time(ms: number): number {
    return this.start + ms;
  }

  /** The entries so far, oldest first. */
  get entries(): readonly JournalEntry[] {
    return this.list;
  }

  http(o: HttpOptions = {}): HttpEntry {
    return this.push<HttpEntry>({
      kind: 'http',
      method: o.method ?? 'GET',
      path: o.path ?? '/axis-cgi/param.cgi',
      status: 'status' in o ? o.status : 200,
      auth: 'auth' in o ? o.auth : 'digest',
      user: 'user' in o ? o.user : USER,
      ms: o.ms ?? 5,
      remote: o.remote ?? REMOTE,
      error: o.error,
      device: o.device,
      ...(o.token === undefined ? {} : { token: o.token }),
      ...(o.call === undefined ? {} : { call: o.call }),
      ...(o.body === undefined ? {} : { body: excerptOf(o.body) }),
    });
  }

  /** A session token fetch (`GET wssession.cgi`, digest, 200 unless told). */
  tokenFetch(o: Omit<HttpOptions, 'path'> = {}): HttpEntry {
    return this.http({ path: TOKEN_PATH, ...o });
  }

  wsOpen(session: string, o: { user?: string | undefined; token?: number } & Common = {}): WsOpenEntry {
    return this.push<WsOpenEntry>({
      kind: 'ws-open',
      session,
      user: 'user' in o ? o.user : USER,
      remote: o.remote ?? REMOTE,
      device: o.device,
      ...(o.token === undefined ? {} : { token: o.token }),
    });
  }

  wsClose(
    session: string,
    o: { code?: number; reason?: string; by?: 'client' | 'device'; device?: string } = {},
  ): WsCloseEntry {
    return this.push<WsCloseEntry>({
      kind: 'ws-close',
      session,
      code: o.code ?? 1000,
      reason: o.reason ?? '',
      by: o.by ?? 'client',
      device: o.device,
    });
  }

  /** A close by the device (default: 1001, "network reset"). */
  deviceClose(session: string, o: { code?: number; reason?: string; device?: string } = {}): WsCloseEntry {
    return this.wsClose(session, { code: 1001, reason: 'network reset', ...o, by: 'device' });
  }

  wsRefused(o: { path?: string; status?: number; reason?: string } & Common = {}): WsRefusedEntry {
    return this.push<WsRefusedEntry>({
      kind: 'ws-refused',
      path: o.path ?? STREAM_PATH,
      status: o.status ?? 503,
      reason: o.reason ?? 'no free session slot',
      remote: o.remote ?? REMOTE,
      device: o.device,
    });
  }

  configure(
    session: string,
    filters: readonly FilterSpec[],
    o: { error?: { code: number; message: string }; device?: string } = {},
  ): ConfigureEntry {
    return this.push<ConfigureEntry>({
      kind: 'configure',
      session,
      filters: filters.map((f) => (typeof f === 'string' ? { topicFilter: f } : f)),
      error: o.error,
      device: o.device,
    });
  }

  /** A stream message the device refused (default: 2101 for text that is not JSON). */
  messageRefused(
    session: string,
    o: { code?: number; message?: string; closed?: boolean; binary?: boolean; sent?: string | BodyExcerpt | null } & {
      device?: string;
    } = {},
  ): MessageRefusedEntry {
    return this.push<MessageRefusedEntry>({
      kind: 'message-refused',
      session,
      code: o.code ?? 2101,
      message: o.message ?? 'Invalid JSON: Unexpected end of JSON input',
      closed: o.closed ?? false,
      binary: o.binary ?? false,
      sent: o.sent === null ? undefined : excerptOf(o.sent ?? '{"apiVersion":'),
      device: o.device,
    });
  }

  /** A notification; `event` (the device's event number) is a new one unless given: copies of one event share it. */
  notification(session: string, topic: string, o: { device?: string; event?: number } = {}): NotificationEntry {
    const event = o.event ?? ++this.events;
    return this.push<NotificationEntry>({ kind: 'notification', session, topic, event, device: o.device });
  }

  authRefused(
    o: {
      code: RefusalCode;
      method?: string;
      path?: string;
      scheme?: string | undefined;
      reason?: string;
      stale?: boolean;
      user?: string | undefined;
      token?: number;
    } & Common,
  ): AuthRefusedEntry {
    return this.push<AuthRefusedEntry>({
      kind: 'auth-refused',
      method: o.method ?? 'GET',
      path: o.path ?? STREAM_PATH,
      scheme: 'scheme' in o ? o.scheme : o.code === 'NO_CREDENTIALS' ? undefined : 'digest',
      code: o.code,
      reason: o.reason ?? o.code.toLowerCase().replace(/_/g, ' '),
      stale: o.stale ?? false,
      user: 'user' in o ? o.user : o.code === 'NO_CREDENTIALS' ? undefined : USER,
      remote: o.remote ?? REMOTE,
      device: o.device,
      ...(o.token === undefined ? {} : { token: o.token }),
    });
  }

  fault(
    name: FaultName,
    state: FaultChangeEntry['state'],
    params: Readonly<Record<string, unknown>> = {},
    o: { device?: string } = {},
  ): FaultChangeEntry {
    return this.push<FaultChangeEntry>({ kind: 'fault', name, state, params, device: o.device });
  }

  expect(
    name: string,
    that: ExpectEntry['that'],
    withinMs: number,
    topic?: string,
    o: { device?: string } = {},
  ): ExpectEntry {
    return this.push<ExpectEntry>({ kind: 'expect', name, that, withinMs, topic, device: o.device });
  }

  /** The facts of DEV1 (or `serial`), with any field overridden. */
  facts(overrides: Partial<DeviceFacts> = {}): DeviceFacts {
    return {
      serial: DEVICE,
      streamPath: STREAM_PATH,
      tokenPath: TOKEN_PATH,
      topics: TOPICS,
      topicAliases: { onvif: 'tns1' },
      ...overrides,
    };
  }

  /** Grades the journal at `now` (default: the builder's clock) against {@link facts}. */
  grade(
    now = this.now,
    o: {
      thresholds?: Partial<GradingThresholds>;
      devices?: readonly DeviceFacts[];
      dropped?: number;
      clientStopped?: boolean;
    } = {},
  ): GradingReport {
    return grade({
      entries: this.list,
      dropped: o.dropped ?? 0,
      devices: o.devices ?? [this.facts()],
      now,
      thresholds: o.thresholds,
      clientStopped: o.clientStopped,
    });
  }

  /** Numbers, times and files `fields` (device DEV1 unless given). */
  private push<E extends JournalEntry>(fields: Omit<E, 'seq' | 'time' | 'device'> & { device?: string }): E {
    const { device, ...rest } = fields;
    const entry = {
      seq: ++this.seq,
      time: new Date(this.clock).toISOString(),
      device: device ?? DEVICE,
      ...rest,
    } as unknown as E;
    this.list.push(entry);
    return entry;
  }
}

/** A body excerpt as the journal keeps one: `text` as given, its size its UTF-8 length unless given. */
function excerptOf(sent: string | BodyExcerpt): BodyExcerpt {
  return typeof sent === 'string' ? { bytes: Buffer.byteLength(sent), text: sent } : sent;
}

/** The rule ids of a report's findings, in report order. */
export function ruleIds(report: GradingReport): RuleId[] {
  return report.findings.map((f) => f.rule);
}

/** The findings of one rule. */
export function findingsOf(report: GradingReport, rule: RuleId): Finding[] {
  return report.findings.filter((f) => f.rule === rule);
}

/** The only finding of a report, checked to be of `rule`. */
export function onlyFinding(report: GradingReport, rule: RuleId): Finding {
  expect(ruleIds(report)).toEqual([rule]);
  return report.findings[0];
}
