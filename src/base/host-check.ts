/**
 * The Host check of a server's pages and control API (see ./host-allow-list): tells whether a
 * request names one of the server's own hosts and logs the refusals, the first few of each
 * interval one by one and the rest counted into one warning, since a rebinding page can send
 * them as fast as it likes. The answer (JSON or text) is the caller's.
 */
import type { Clock } from './clock';
import { allowedHostProblem, type HostAllowList, hostnameOf, isAllowedHost } from './host-allow-list';
import { type Logger, redactUrl } from './log';
import { LogSummary } from './log-summary';

/** Refusals logged one by one per interval; the rest are counted into one line. */
const LOGGED_REFUSALS = { intervalMs: 10_000, burst: 10 };

/** The longest `Host` quoted back in a message or a log line. */
const MAX_QUOTED = 100;

/** What {@link HostCheck.admit} reads of a request. */
export interface HostRequest {
  headers: { host?: string };
  /** The request target, for the log line (session tokens redacted there). */
  url?: string;
  socket: { remoteAddress?: string };
}

/** One server's Host check and its refusal log. */
export class HostCheck {
  private summary: LogSummary | undefined;

  constructor(
    readonly hosts: HostAllowList,
    private readonly log: Logger,
    private readonly clock: Clock,
    /** What is refused, for the log line: `control API`, `dashboard`. */
    private readonly what: string,
  ) {}

  /** True when `req` names one of the server's hosts; otherwise logs the refusal and returns false. */
  admit(req: HostRequest): boolean {
    const { host } = req.headers;
    if (isAllowedHost(host, this.hosts)) return true;
    this.summary ??= new LogSummary(this.log, this.clock, {
      message: `${this.what}: requests for a Host not allowed refused, not logged one by one`,
      ...LOGGED_REFUSALS,
    });
    const remote = req.socket.remoteAddress;
    if (this.summary.admit(remote))
      this.log.info(
        { host: quoted(host ?? ''), url: redactUrl(req.url ?? '/'), remote },
        `${this.what}: Host not allowed (a DNS rebinding page?)`,
      );
    return false;
  }

  /** Logs the refusals not yet told (at close). */
  flush(): void {
    this.summary?.flush();
  }
}

/**
 * The text of the 403 for `host`: what is wrong and the three ways out (a name of the server's
 * own, `--allowed-host`, a control token for the control API).
 */
export function hostNotAllowedMessage(host: string | undefined, forControl: boolean): string {
  const shown = JSON.stringify(quoted(host ?? ''));
  // Suggested only when it is a plain name: the header is the sender's, and the line may be pasted into a shell.
  const hostname = host === undefined ? undefined : hostnameOf(host);
  const name = hostname !== undefined && allowedHostProblem(hostname) === undefined ? hostname : 'NAME';
  const token = forControl ? ', or start with --control-token and send it' : '';
  return (
    `Host ${shown} is not one of this server's names (localhost, 127.0.0.1, [::1], its --host, the --allowed-host ` +
    `names): a page served under another name that resolves to this machine may be a DNS rebinding attack. ` +
    `Use one of those names, or allow this one with --allowed-host ${name} (option allowedHosts)${token}`
  );
}

/** `text` cut to {@link MAX_QUOTED} characters, for a message or a log line. */
function quoted(text: string): string {
  return text.length > MAX_QUOTED ? `${text.slice(0, MAX_QUOTED)}...` : text;
}
