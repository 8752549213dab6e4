/**
 * One `verify(req)` for every protected entry point of a device: Express routes
 * and raw WebSocket upgrade requests alike. Combines the accounts, digest and
 * Basic according to the auth mode, and builds the 401 answer real devices give.
 */
import { escapeHtml } from '../base/html-escape';
import type { IncomingMessage } from 'node:http';
import type { Clock } from '../base/clock';
import type { LogFields, Logger } from '../base/log';
import type { LogSummary } from '../base/log-summary';
import type { RefusalCode } from '../base/refusal-codes';
import { err, type Err, type ErrorInfo, ok, type Result } from '../base/result';
import { type Account, AccountDirectory } from './accounts';
import { authScheme, credentialUser } from './auth-params';
import { basicChallenge, type BasicRefusal, verifyBasic } from './basic';
import {
  type DigestAlgorithm,
  type DigestRefusalCode,
  DigestServer,
  type DigestTuning,
  type ReplayMode,
} from './digest';
import { DEFAULT_THROTTLE, LoginThrottle, refusalLog, type ThrottleRules } from './login-throttle';

/** Which schemes a device accepts; `none` serves everything without credentials. */
export type AuthMode = 'digest' | 'basic' | 'both' | 'none';

/** The auth modes, for validation of options and flags. */
export const AUTH_MODES: readonly AuthMode[] = ['digest', 'basic', 'both', 'none'];

/** A scheme a server offers and accepts. */
export type AuthScheme = 'digest' | 'basic';

/** What a Basic attempt refused on plain HTTP is told (the log line and the journal say it). */
export const BASIC_OVER_HTTP_REFUSED =
  'Basic credentials refused over plain HTTP; use digest, TLS, or --basic-over-http (option basicOverHttp)';

/** What a login refused while the device refuses every one (a simulated reboot) is told. */
export const REJECTING_MESSAGE = 'logins are refused for a while (simulated reboot)';

/**
 * The schemes in force: `both` on plain HTTP is digest alone unless `basicOverHttp` asks for
 * Basic too, since Basic sends the password in clear; `basic` is an explicit ask and stays.
 */
export function acceptedSchemes(mode: AuthMode, plainHttp: boolean, basicOverHttp: boolean): AuthScheme[] {
  if (mode === 'none') return [];
  if (mode === 'digest' || mode === 'basic') return [mode];
  return plainHttp && !basicOverHttp ? ['digest'] : ['digest', 'basic'];
}

/** Who a request comes from: `account` is undefined in mode `none`. */
export interface Authenticated {
  account: Account | undefined;
  scheme: 'digest' | 'basic' | 'none' | 'token';
}

/**
 * Why a request is refused; `stale` asks the 401 to say the nonce is stale (digest only).
 * With `retryAfterSeconds` the client must wait (throttled, or over a per-account limit): 429.
 * Every code is one of the catalogue's (base/refusal-codes), so the journal and the grader read it typed.
 */
export interface AuthRefusal extends ErrorInfo<
  | DigestRefusalCode
  | BasicRefusal['code']
  | Extract<RefusalCode, 'REJECTING' | 'NO_CREDENTIALS' | 'SCHEME_NOT_ACCEPTED' | 'BASIC_OVER_HTTP' | 'THROTTLED'>
> {
  readonly stale: boolean;
  readonly retryAfterSeconds?: number;
}

/** Result of {@link Authenticator.verify}. */
export type AuthVerdict = Result<Authenticated, AuthRefusal>;

/** How an {@link Authenticator} is set up. */
export interface AuthenticatorOptions {
  mode: AuthMode;
  accounts: readonly Account[];
  realm: string;
  algorithms: readonly DigestAlgorithm[];
  nonceLifetimeMs: number;
  replay: ReplayMode;
  clock: Clock;
  /** Strict replay protection: requests remembered per account (see DigestServerOptions). */
  replayPerAccount?: number;
  /** Wrong logins allowed per remote address, and per address and user, before 429; {@link DEFAULT_THROTTLE} when absent. */
  throttle?: ThrottleRules;
  /** Where {@link Authenticator.logRefusal} writes; silent when absent. */
  log?: Logger;
  /** The server has no TLS: mode `both` then offers and accepts digest only, unless `basicOverHttp`. */
  plainHttp?: boolean;
  /** Mode `both` offers and accepts Basic on plain HTTP too, where it sends the password in clear. */
  basicOverHttp?: boolean;
}

/** The 401 answer: status, headers and the small HTML body real devices send. */
export interface Unauthorized {
  status: 401;
  headers: Record<string, string | string[]>;
  body: string;
}

/** What {@link Authenticator.answer} and {@link Authenticator.logRefusal} read of a refusal (a token's too). */
export type RefusalInfo = Pick<AuthRefusal, 'message' | 'stale' | 'retryAfterSeconds'> & {
  readonly code: RefusalCode;
  /** A session token's number (never its value), when the device still knows the token refused. */
  readonly token?: number;
};

/** The answer to a refused login: 401 with challenges, or 429 with `Retry-After`. */
export interface RefusalAnswer {
  status: 401 | 429;
  headers: Record<string, string | string[]>;
  body: string;
}

/** Refusal codes counted as a wrong password by the throttle (not a digest first leg, not a stale nonce). */
const WRONG_CREDENTIALS: ReadonlySet<RefusalCode> = new Set<RefusalCode>(['WRONG_PASSWORD', 'UNKNOWN_USER']);

/** Verifies credentials on any Node request. */
export class Authenticator {
  /** Until this clock time every login is refused, as by a device that is rebooting. */
  private rejectingUntil = Number.NEGATIVE_INFINITY;
  /**
   * The accounts and the digest server, made on first use: a device nobody has logged in
   * to yet (with auth `none`, never) does not pay for them, and a fleet has many such.
   */
  private directory: AccountDirectory | undefined = undefined;
  private digestServer: DigestServer | undefined = undefined;
  /** Made on the first failed login, like the directory. */
  private throttler: LoginThrottle | undefined = undefined;
  private refusalLog: LogSummary | undefined = undefined;
  private lastPage: UnauthorizedPage | undefined = undefined;
  /** The schemes offered and accepted (see {@link acceptedSchemes}): the options do not change, so worked out once. */
  readonly schemes: readonly AuthScheme[];
  private readonly digestAccepted: boolean;
  private readonly basicAccepted: boolean;

  constructor(readonly options: AuthenticatorOptions) {
    const { mode, plainHttp = false, basicOverHttp = false } = options;
    this.schemes = acceptedSchemes(mode, plainHttp, basicOverHttp);
    this.digestAccepted = this.schemes.includes('digest');
    this.basicAccepted = this.schemes.includes('basic');
  }

  private get throttle(): LoginThrottle {
    return (this.throttler ??= new LoginThrottle({
      clock: this.options.clock,
      ...(this.options.throttle ?? DEFAULT_THROTTLE),
    }));
  }

  /** The accounts logins are checked against. */
  get accounts(): AccountDirectory {
    return (this.directory ??= new AccountDirectory(this.options.accounts));
  }

  private get digest(): DigestServer {
    return (this.digestServer ??= new DigestServer({
      realm: this.options.realm,
      algorithms: this.options.algorithms,
      nonceLifetimeMs: this.options.nonceLifetimeMs,
      replay: this.options.replay,
      replayPerAccount: this.options.replayPerAccount,
      clock: this.options.clock,
      passwordOf: (name) => this.accounts.find(name)?.password,
    }));
  }

  /** The mode in force. */
  get mode(): AuthMode {
    return this.options.mode;
  }

  /** Refuses every login for `ms` from now (a simulated reboot); `--auth none` is not affected. */
  rejectFor(ms: number): void {
    this.rejectingUntil = this.options.clock.now() + ms;
  }

  /** Sets (or with undefined, ends) a digest fault: nonce lifetime, `stale=true` or not, nonces valid once. */
  tuneDigest(tuning: DigestTuning | undefined): void {
    if (tuning !== undefined || this.digestServer) this.digest.tune(tuning);
  }

  /** A new nonce secret (a reboot): nonces issued before are refused. */
  renewNonceSecret(): void {
    // Without a digest server no nonce was issued yet; the one made later has a new secret.
    this.digestServer?.renewSecret();
  }

  /** Accepts logins again at once (ends a {@link rejectFor}). */
  stopRejecting(): void {
    this.rejectingUntil = Number.NEGATIVE_INFINITY;
  }

  /** True while logins are refused by {@link rejectFor}. */
  get rejecting(): boolean {
    return this.options.mode !== 'none' && this.options.clock.now() < this.rejectingUntil;
  }

  /**
   * Checks the request's `Authorization` header. The digest `uri` is compared
   * with the original request target (Express's `originalUrl`, else `url`).
   */
  verify(req: IncomingMessage): AuthVerdict {
    if (this.options.mode === 'none') return ok({ account: undefined, scheme: 'none' });
    if (this.rejecting) return refuse('REJECTING', REJECTING_MESSAGE);
    const header = req.headers.authorization;
    if (!header) return refuse('NO_CREDENTIALS', 'no credentials');
    // A throttled address (or address and user) is refused unchecked: a guess must not learn anything. The
    // address and the user name are looked up only while some window is open, or on a failure.
    const throttler = this.throttler;
    const throttled =
      throttler?.active === true ? throttler.check(req.socket?.remoteAddress, credentialUser(header)) : undefined;
    if (throttled)
      return err({
        code: 'THROTTLED',
        message: throttled.message,
        stale: false,
        retryAfterSeconds: throttled.retryAfterSeconds,
      });
    const verdict = this.check(header, req);
    if (!verdict.ok && WRONG_CREDENTIALS.has(verdict.error.code))
      this.throttle.failed(req.socket?.remoteAddress, credentialUser(header));
    return verdict;
  }

  /** The credentials of `header` checked by their scheme. */
  private check(header: string, req: IncomingMessage): AuthVerdict {
    const scheme = authScheme(header);
    if (scheme === 'digest' && this.acceptsDigest()) {
      const verdict = this.digest.verify(header, req.method ?? 'GET', requestTarget(req));
      if (!verdict.ok) return verdict;
      return ok({ account: this.accounts.find(verdict.value), scheme: 'digest' });
    }
    if (scheme === 'basic' && this.acceptsBasic()) {
      const verdict = verifyBasic(header, (name) => this.accounts.find(name)?.password);
      if (!verdict.ok) return refuse(verdict.error.code, verdict.error.message);
      return ok({ account: this.accounts.find(verdict.value), scheme: 'basic' });
    }
    // Refused before the password is looked at: the answer says nothing about it.
    if (scheme === 'basic' && this.options.mode === 'both') return refuse('BASIC_OVER_HTTP', BASIC_OVER_HTTP_REFUSED);
    return refuse('SCHEME_NOT_ACCEPTED', `scheme "${scheme}" is not accepted (auth mode ${this.options.mode})`);
  }

  /**
   * The answer to a refusal: 429 with `Retry-After` when the client must wait (throttled,
   * over a per-account limit), else the 401 with challenges ({@link unauthorized}).
   */
  answer(req: IncomingMessage, refusal: RefusalInfo): RefusalAnswer {
    if (refusal.retryAfterSeconds === undefined) return this.unauthorized(req, refusal.stale);
    const body = `${refusal.message}\n`;
    return {
      status: 429,
      headers: {
        'Retry-After': String(refusal.retryAfterSeconds),
        'Content-Type': 'text/plain',
        'Content-Length': String(Buffer.byteLength(body)),
      },
      body,
    };
  }

  /**
   * Logs a refusal: a missing header (digest's first leg) at debug, the rest as warnings,
   * at most {@link refusalLog}'s share per interval one by one and the others in
   * one summary line, so a password guesser cannot fill the log.
   */
  logRefusal(refusal: RefusalInfo, fields: LogFields, message: string, remote: string | undefined): void {
    const log = this.options.log;
    if (!log) return;
    if (refusal.code === 'NO_CREDENTIALS') {
      // Every digest login starts with one: no fields are gathered for a level that is off.
      if (log.isLevelEnabled('debug')) log.debug({ ...fields, reason: refusal.message }, message);
      return;
    }
    this.refusalLog ??= refusalLog(
      log,
      this.options.clock,
      'authentication failures not logged one by one (counted by remote address)',
    );
    if (this.refusalLog.admit(remote)) log.warn({ ...fields, reason: refusal.message, stale: refusal.stale }, message);
  }

  /** Logs what {@link logRefusal} still holds back (at close). */
  flushLog(): void {
    this.refusalLog?.flush();
  }

  /** The 401 answer with one challenge per digest algorithm (and Basic, if accepted). */
  unauthorized(req: IncomingMessage, stale = false): Unauthorized {
    const challenges: string[] = [];
    if (this.acceptsDigest()) challenges.push(...this.digest.challenges(stale));
    if (this.acceptsBasic()) challenges.push(basicChallenge(this.options.realm));
    const page = this.pageFor(requestTarget(req));
    return {
      status: 401,
      headers: { 'WWW-Authenticate': challenges, 'Content-Type': 'text/html', 'Content-Length': page.length },
      body: page.body,
    };
  }

  /** The 401 page for a request target; the last one is kept, since clients mostly ask for the same path. */
  private pageFor(target: string): UnauthorizedPage {
    const query = target.indexOf('?');
    const path = query < 0 ? target : target.slice(0, query);
    if (this.lastPage?.path !== path) {
      const body = unauthorizedPage(path);
      this.lastPage = { path, body, length: String(Buffer.byteLength(body)) };
    }
    return this.lastPage;
  }

  private acceptsDigest(): boolean {
    return this.digestAccepted;
  }

  private acceptsBasic(): boolean {
    return this.basicAccepted;
  }
}

/** A 401 page with its path and its length, as {@link Authenticator.unauthorized} keeps the last one. */
interface UnauthorizedPage {
  readonly path: string;
  readonly body: string;
  readonly length: string;
}

/** The request target as the client sent it (Express may rewrite `url` when mounted). */
export function requestTarget(req: IncomingMessage): string {
  const original = (req as IncomingMessage & { originalUrl?: unknown }).originalUrl;
  return typeof original === 'string' ? original : (req.url ?? '/');
}

function refuse(code: AuthRefusal['code'], message: string): Err<AuthRefusal> {
  return err({ code, message, stale: false });
}

function unauthorizedPage(path: string): string {
  const safe = escapeHtml(path);
  return `<HTML><HEAD><TITLE>401 Unauthorized</TITLE></HEAD><BODY><H1>401 Unauthorized</H1>\nYour client does not have permission to get URL ${safe} from this server.\n</BODY></HTML>\n`;
}
