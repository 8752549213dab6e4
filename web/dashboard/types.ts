/**
 * The page's own shapes, and those the page reads that are not generated from the server's
 * schemas yet. The device's facts, the sessions, flags, scenario status, journal entries and
 * the grading report are generated (./wire-types, `npm run docs`): import them from there.
 */
import type { EmulatorSession, Report } from './wire-types.js';

/** `source`, `key` or `data` of an event message. */
export type MessagePart = Record<string, string>;

/** What `events:notify` carries. */
export interface Notification {
  timestamp?: number;
  topic: string;
  message?: { source?: MessagePart; key?: MessagePart; data?: MessagePart };
}

/** One filter of a session, as the client wrote it. */
export type SessionFilter = EmulatorSession['filters'][number];

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

/** One finding of the grading report (generated: ./wire-types `Report`). */
export type Finding = Report['findings'][number];
