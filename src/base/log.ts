/**
 * Structured logging (pino) with the secrets redacted: Authorization headers,
 * session tokens in URLs. Synchronous destinations only, so a library user's test
 * process has no worker threads to wait for.
 */
import pino from 'pino';

/** The logger type every module takes. */
export type Logger = pino.Logger;

/** Log levels, quietest last. */
export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;

/** One of {@link LOG_LEVELS}. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** A value a log line may carry: text, a number, a flag, or a list of them (never an object). */
export type LogValue = string | number | boolean | bigint | null | undefined | readonly (string | number | boolean)[];

/**
 * Fields of a log line that a helper passes on (log by allow-list): each is named where the
 * literal is written, which the `local/log-fields` lint rule checks (eslint-rules/log-fields.js);
 * a request, context, headers or option bag is never one.
 */
export interface LogFields {
  readonly [name: string]: LogValue;
}

/** A caught value as an Error for a log's `err` field (pino's serializer is made for Errors only). */
export function errorOf(err: unknown): Error {
  if (err instanceof Error) return err;
  return new Error(`thrown, not an Error: ${typeof err === 'object' && err !== null ? 'an object' : String(err)}`);
}

/** How to build a logger. */
export interface LoggerOptions {
  level?: LogLevel;
  /** `pretty`: one readable line per entry (for a terminal); `json`: pino's lines. */
  format?: 'pretty' | 'json';
  /** Where lines go; stdout by default. */
  write?: (line: string) => void;
}

/** Builds a logger; a library user gets a silent one unless they ask. */
export function createLogger(options: LoggerOptions = {}): Logger {
  const level = options.level ?? 'silent';
  const write = options.write ?? ((line: string) => process.stdout.write(line));
  const format = options.format ?? 'json';
  const stream = { write: format === 'pretty' ? (line: string) => write(prettyLine(line)) : write };
  return pino(
    {
      level,
      base: undefined,
      redact: {
        paths: ['authorization', 'headers.authorization', 'req.headers.authorization', 'wssession', 'token'],
        censor: '[redacted]',
      },
    },
    stream,
  );
}

/** Removes the value of a `wssession` query parameter from a URL, for logs. */
export function redactUrl(url: string): string {
  return url.replace(/([?&]wssession=)[^&#]*/gi, '$1[redacted]');
}

const LEVEL_NAMES: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO ',
  40: 'WARN ',
  50: 'ERROR',
  60: 'FATAL',
};

/** `12:00:01 INFO  message key=value ...` from one pino JSON line. */
function prettyLine(line: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  const { level, time, msg, ...rest } = entry;
  const clock = typeof time === 'number' ? new Date(time).toISOString().slice(11, 19) : '--:--:--';
  const fields = Object.entries(rest)
    .map(([k, v]) => `${k}=${typeof v === 'string' && !/\s/.test(v) ? v : JSON.stringify(v)}`)
    .join(' ');
  return `${clock} ${LEVEL_NAMES[level as number] ?? String(level)} ${typeof msg === 'string' ? msg : JSON.stringify(msg ?? '')}${fields ? ` ${fields}` : ''}\n`;
}
