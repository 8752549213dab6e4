/**
 * Clients that are not the client under test, on the same address as it: the emulator's own
 * (the dashboard at `/`) and the test's own calls (a test reading flags or opening a stream to
 * check what the client did). They tag their requests with the header `X-BWC-Emu-Client:
 * dashboard` or `test`; what such a request causes is journaled with that `via` and left out
 * of the grade. It is opt-in and not a boundary: any client may send the header, and then it
 * is not graded (docs/grading.md says so).
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Clock } from './clock';
import type { Logger } from './log';
import { LogSummary } from './log-summary';

/** The header that names one of the emulator's own clients. */
export const CLIENT_HEADER = 'X-BWC-Emu-Client';

/** The clients that are not graded, as the header names them (exact, lower case): the dashboard, the test's own calls. */
export const CLIENT_VIAS = ['dashboard', 'test'] as const;

/** One of {@link CLIENT_VIAS}: what a journal entry's `via` says. */
export type ClientVia = (typeof CLIENT_VIAS)[number];

/** How Node keys the header (it lower-cases names). */
const HEADER_KEY = CLIENT_HEADER.toLowerCase();

/** Longest header value a log line repeats. */
const MAX_LOGGED = 64;

/** Ignored values logged one by one per interval; the rest go into one summary line. */
export const LOGGED_IGNORED_TAGS = 10;
/** The interval of {@link LOGGED_IGNORED_TAGS}. */
export const IGNORED_TAG_LOG_INTERVAL_MS = 10_000;

/** What the log line of an ignored value says. */
export const IGNORED_TAG_MESSAGE = `${CLIENT_HEADER} ignored: the values known are ${CLIENT_VIAS.map((v) => `"${v}"`).join(' and ')}; the request is graded as the client's`;

/**
 * The log of ignored header values of one device: {@link LOGGED_IGNORED_TAGS} per
 * {@link IGNORED_TAG_LOG_INTERVAL_MS} one by one, the rest counted by remote address into one
 * summary line, so a client that sends a wrong value on every request cannot fill the log.
 */
export class IgnoredTagLog {
  /** Made on the first ignored value: most devices never see one. */
  private summary: LogSummary | undefined = undefined;

  constructor(
    private readonly log: Logger,
    private readonly clock: Clock,
  ) {}

  /** Logs (or counts) one request's ignored `value`, from `remote`. */
  ignored(value: string | string[], remote: string | undefined): void {
    this.summary ??= new LogSummary(this.log, this.clock, {
      message: `${CLIENT_HEADER} values ignored, not logged one by one (counted by remote address)`,
      intervalMs: IGNORED_TAG_LOG_INTERVAL_MS,
      burst: LOGGED_IGNORED_TAGS,
    });
    if (this.summary.admit(remote))
      this.log.info({ header: CLIENT_HEADER, value: String(value).slice(0, MAX_LOGGED), remote }, IGNORED_TAG_MESSAGE);
  }

  /** Logs what is still counted (at close). */
  flush(): void {
    this.summary?.flush();
  }
}

/**
 * The emulator client a request names, or undefined for the client under test: no header, or
 * a value that is not exactly one of {@link CLIENT_VIAS} (ignored, and told to `log` when
 * given: call this once per request). One property read when the header is absent.
 */
export function clientVia(headers: IncomingHttpHeaders, log?: IgnoredTagLog, remote?: string): ClientVia | undefined {
  const value = headers[HEADER_KEY];
  if (value === undefined) return undefined;
  if (typeof value === 'string' && (CLIENT_VIAS as readonly string[]).includes(value)) return value as ClientVia;
  log?.ignored(value, remote);
  return undefined;
}

/**
 * Whether a journal entry is one of the emulator's own clients' (the dashboard's): the one
 * test of it, for the grader and for the journal's `via=client` alike. Every entry such a
 * client causes is marked when it is written, so the mark alone decides.
 */
export function isEmulatorClientEntry(entry: { readonly kind: string; readonly via?: ClientVia }): boolean {
  return entry.via !== undefined;
}
