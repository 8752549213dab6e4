/**
 * The shapes the page reads: the device's facts (device.json), and the control API's answers
 * and feed events (docs/control-api.md). Only what the page uses; the server is the authority.
 */

/** `/dashboard/device.json`. */
export interface DeviceInfo {
  serial: string;
  realm: string;
  identity: { model: string; name: string; firmware: string; brand: string };
  startedAt: number;
  now: number;
  paths: { featureFlags: string; sessionToken: string; eventStream: string; [name: string]: string };
  control: string | null;
}

/** One feature flag as featureflag.cgi `listAll` lists it. */
export interface Flag {
  name: string;
  description: string;
  defaultValue: boolean;
  value: boolean;
}

/** `source`, `key` or `data` of an event message. */
export type MessagePart = Record<string, string>;

/** What `events:notify` carries. */
export interface Notification {
  timestamp?: number;
  topic: string;
  message?: { source?: MessagePart; key?: MessagePart; data?: MessagePart };
}

/** `GET /_emu/scenario` and the feed's `scenario` event. */
export interface ScenarioStatus {
  name: string | null;
  state: 'playing' | 'paused' | 'finished';
  positionMs: number;
  speed: number;
  topics: string[];
  /** Bumped by every change of name, state or speed (a playing scenario's position is no change). */
  revision: number;
}

/** One filter of a session, as the client wrote it. */
export interface SessionFilter {
  topicFilter?: string;
  contentFilter?: string;
}

/** One event stream session (`GET /_emu/sessions`, the feed's `sessions` event). */
export interface SessionInfo {
  id: string;
  state: string;
  remoteAddress?: string;
  user?: string;
  connectedAt: number;
  filters: SessionFilter[];
  sent: number;
  dropped: number;
}

/** One journal entry: the common fields, and the kind's own ones read loosely. */
export interface JournalEntry {
  seq: number;
  time: string;
  device: string;
  kind: string;
  [field: string]: unknown;
}

/** The kinds of journal entries, for the journal's filter. */
export const JOURNAL_KINDS = [
  'http',
  'ws-open',
  'ws-close',
  'ws-refused',
  'configure',
  'message-refused',
  'notification',
  'auth-refused',
  'fault',
  'expect',
] as const;

/** A fault switch that is on (`GET /_emu/faults`, the feed's `faults` event). */
export interface ActiveFault {
  name: string;
  params: Record<string, unknown>;
  since: number;
  until: number | null;
}

/** A JSON Schema as the fault switches' `params` use it. */
export interface ParamSchema {
  type?: string;
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  default?: unknown;
  description?: string;
  properties?: Record<string, ParamSchema>;
  additionalProperties?: ParamSchema | boolean;
  required?: string[];
}

/** One fault switch (`GET /_emu/faults/switches`). */
export interface FaultSwitch {
  name: string;
  kind: 'state' | 'action';
  does: string;
  exposes: string;
  source: string;
  params?: ParamSchema;
}

/** One finding of the grading report. */
export interface Finding {
  rule: string;
  severity: 'error' | 'warning' | 'info';
  client: { remote: string; users: readonly string[] };
  message: string;
  fix: string;
}

/** `GET /_emu/report`, the parts the page shows. */
export interface Report {
  generatedAt: string;
  journal: { entries: number; dropped: number };
  summary: { errors: number; warnings: number; infos: number; expectationsBroken: number };
  findings: Finding[];
  expectations: { name: string; status: string; that: string; topic?: string }[];
}

/** One device of `GET /_emu/devices`. */
export interface DeviceAccess {
  serial: string;
  urls: { base: string; [name: string]: string };
}
