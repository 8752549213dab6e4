/**
 * The page's own shapes, made from the generated ones or its own reading of them. Every shape
 * the page reads from the device and the control API (the device's facts, sessions, flags,
 * scenario status, journal entries, grading report, fault switches, the feed's events and the
 * event stream's notifications) is generated from the server's schemas (./wire-types,
 * `npm run docs`): import them from there.
 */
import type { EmulatorSession, Report } from './wire-types.js';

/** One filter of a session, as the client wrote it. */
export type SessionFilter = EmulatorSession['filters'][number];

/**
 * The part of JSON Schema (draft 2020-12) the page's form reads of a fault switch's `params`.
 * The server does not declare this shape (zod writes the JSON Schema of each switch's params, and
 * the answer's schema says only "a JSON Schema"): this is how the page reads that standard format.
 */
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

/** One finding of the grading report (generated: ./wire-types `Report`). */
export type Finding = Report['findings'][number];
