/**
 * Durations in scenario files: `500ms`, `2s`, `1m`, `1h`, `1.5s`, `1m30s`.
 *
 * Rules (chosen so a scenario reads the same to every reader):
 * - One or more `<number><unit>` parts, units `h`, `m`, `s`, `ms`, largest first,
 *   each unit at most once (`1m30s`, `1h0m5s`, `2s500ms`). No spaces, no sign.
 * - A number is digits with an optional fraction (`1.5s`); no exponents.
 * - A bare number (`500`) is an error: a reader cannot tell seconds from milliseconds,
 *   so the file must say which.
 * - The value is rounded to whole milliseconds and is at most {@link MAX_DURATION_MS}
 *   (the longest delay a Node.js timer can wait).
 */
import { z } from 'zod';
import { type Err, type ErrorInfo, fail as failWith, ok, type Result } from './result';

/** The longest duration accepted: 2^31 - 1 ms (about 24.8 days), Node's timer limit. */
export const MAX_DURATION_MS = 2 ** 31 - 1;

/** The outcome of {@link parseDuration}: milliseconds, or a message the user can act on. */
export type DurationResult = Result<number, ErrorInfo<'BAD_DURATION'>>;

/** A JSON Schema `pattern` matching the shape of a duration (the limit is checked separately). */
export const DURATION_PATTERN =
  '^(?:\\d+(?:\\.\\d+)?h)?(?:\\d+(?:\\.\\d+)?m)?(?:\\d+(?:\\.\\d+)?s)?(?:\\d+(?:\\.\\d+)?ms)?$';

const UNIT_MS: Readonly<Record<Unit, number>> = { h: 3_600_000, m: 60_000, s: 1_000, ms: 1 };
const UNITS: readonly Unit[] = ['h', 'm', 's', 'ms'];
const PART = /(\d+(?:\.\d+)?)(ms|h|m|s)/y;
const EXAMPLES = 'e.g. 500ms, 2s, 1.5s, 1m30s, 1h';

type Unit = 'h' | 'm' | 's' | 'ms';

/**
 * Parses a duration into milliseconds. Never throws: any input yields either
 * `{ ok: true, value: ms }` or `{ ok: false, error: { code: 'BAD_DURATION', message } }`.
 */
export function parseDuration(text: unknown): DurationResult {
  if (typeof text === 'number') return fail(`duration ${text} has no unit; write ${text}ms or ${text}s (${EXAMPLES})`);
  if (typeof text !== 'string') return fail(`a duration must be a string (${EXAMPLES})`);
  const shown = JSON.stringify(text);
  if (text.trim() === '') return fail(`duration is empty; ${EXAMPLES}`);
  if (text.trim().startsWith('-')) return fail(`duration ${shown} is negative; durations are 0 or more`);
  if (/^\d+(\.\d+)?$/.test(text.trim()))
    return fail(`duration ${shown} has no unit; write ${text.trim()}ms or ${text.trim()}s`);
  let ms = 0;
  let at = 0;
  let lastRank = -1;
  PART.lastIndex = 0;
  while (at < text.length) {
    PART.lastIndex = at;
    const match = PART.exec(text);
    if (!match) return fail(`duration ${shown} is not a duration (${EXAMPLES})`);
    const unit = match[2] as Unit;
    const rank = UNITS.indexOf(unit);
    if (rank <= lastRank)
      return fail(
        `duration ${shown} repeats or misorders units; write the largest unit first, each once (${EXAMPLES})`,
      );
    lastRank = rank;
    ms += Number(match[1]) * UNIT_MS[unit];
    at = PART.lastIndex;
  }
  const rounded = Math.round(ms);
  if (!Number.isFinite(rounded) || rounded > MAX_DURATION_MS) {
    return fail(`duration ${shown} is longer than the limit of ${formatDuration(MAX_DURATION_MS)} (about 24.8 days)`);
  }
  return ok(rounded);
}

/**
 * Formats whole milliseconds in the canonical form that {@link parseDuration} reads
 * back to the same value: `0ms`, `1s500ms`, `1m30s`, `2h`.
 */
export function formatDuration(ms: number): string {
  if (!Number.isInteger(ms) || ms < 0) throw new RangeError(`formatDuration needs whole milliseconds >= 0, got ${ms}`);
  if (ms === 0) return '0ms';
  let rest = ms;
  let out = '';
  for (const unit of UNITS) {
    const count = Math.floor(rest / UNIT_MS[unit]);
    if (count > 0) out += `${count}${unit}`;
    rest -= count * UNIT_MS[unit];
  }
  return out;
}

function fail(message: string): Err<ErrorInfo<'BAD_DURATION'>> {
  return failWith('BAD_DURATION', message);
}

/** A duration string in a YAML file (`500ms`, `1m30s`), as milliseconds; an error tells the user how to write it. */
export const DurationSchema = z
  .string({
    error: (iss) =>
      typeof iss.input === 'number'
        ? `duration ${iss.input} has no unit; write ${iss.input}ms or ${iss.input}s`
        : 'expected a duration like 500ms, 2s, 1m30s',
  })
  .meta({ pattern: DURATION_PATTERN, description: 'A duration: 500ms, 2s, 1.5s, 1m, 1m30s, 1h' })
  .transform((text, ctx) => {
    const result = parseDuration(text);
    if (result.ok) return result.value;
    ctx.addIssue({ code: 'custom', message: result.error.message, input: text, params: { kind: 'duration' } });
    return z.NEVER;
  });
