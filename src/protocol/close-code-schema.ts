/**
 * A WebSocket close code a server may send and a close reason, as zod schemas whose JSON Schema
 * says what they accept: the fault switches' parameters are documented (docs/faults.md),
 * published (OpenAPI, GET /_emu/faults/switches) and turned into the dashboard's forms from their
 * JSON Schema, which cannot carry a refinement; minimum, maximum, maxLength and the ranges in the
 * description can.
 */
import { z } from 'zod';
import {
  isCloseCode,
  MAX_CLOSE_REASON_BYTES,
  NOT_A_CLOSE_CODE,
  SENDABLE_CLOSE_CODES,
  SENDABLE_CLOSE_CODES_TEXT,
} from './websocket-close';

const LOWEST = SENDABLE_CLOSE_CODES[0][0];
const HIGHEST = SENDABLE_CLOSE_CODES[SENDABLE_CLOSE_CODES.length - 1][1];

/** A close code described as `what` plus the codes allowed; every wrong code is refused with one message. */
export function closeCodeSchema(what: string): z.ZodNumber {
  return z
    .number()
    .int()
    .min(LOWEST, { error: NOT_A_CLOSE_CODE, abort: true })
    .max(HIGHEST, { error: NOT_A_CLOSE_CODE, abort: true })
    .refine(isCloseCode, { error: NOT_A_CLOSE_CODE })
    .meta({ description: `${what}: ${SENDABLE_CLOSE_CODES_TEXT}` });
}

/** A close reason: at most 123 bytes of UTF-8 (so at most 123 characters, which JSON Schema can say). */
export function closeReasonSchema(): z.ZodString {
  const error = `a close reason is at most ${MAX_CLOSE_REASON_BYTES} bytes`;
  return z
    .string()
    .max(MAX_CLOSE_REASON_BYTES, { error, abort: true })
    .refine((text) => Buffer.byteLength(text) <= MAX_CLOSE_REASON_BYTES, { error })
    .meta({ description: `close reason, at most ${MAX_CLOSE_REASON_BYTES} bytes of UTF-8` });
}
