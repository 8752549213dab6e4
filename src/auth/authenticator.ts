/**
 * One `verify(req)` for every protected entry point of a device: Express routes
 * and raw WebSocket upgrade requests alike. Combines the accounts, digest and
 * Basic according to the auth mode, and builds the 401 answer real devices give.
 */
import { escapeHtml } from '../base/html-escape';
import type { IncomingMessage } from 'node:http';
import type { Clock } from '../base/clock';
import { err, type Err, type ErrorInfo, ok, type Result } from '../base/result';
import { type Account, AccountDirectory } from './accounts';
import { authScheme } from './auth-params';
import { basicChallenge, type BasicRefusal, verifyBasic } from './basic';
import {
  type DigestAlgorithm,
  type DigestRefusalCode,
  DigestServer,
  type DigestTuning,
  type ReplayMode,
} from './digest';

/** Which schemes a device accepts; `none` serves everything without credentials. */
export type AuthMode = 'digest' | 'basic' | 'both' | 'none';

/** The auth modes, for validation of options and flags. */
export const AUTH_MODES: readonly AuthMode[] = ['digest', 'basic', 'both', 'none'];

/** Who a request comes from: `account` is undefined in mode `none`. */
export interface Authenticated {
  account: Account | undefined;
  scheme: 'digest' | 'basic' | 'none' | 'token';
}

/** Why a request is refused; `stale` asks the 401 to say the nonce is stale (digest only). */
export interface AuthRefusal extends ErrorInfo<
  DigestRefusalCode | BasicRefusal['code'] | 'REJECTING' | 'NO_CREDENTIALS' | 'SCHEME_NOT_ACCEPTED'
> {
  readonly stale: boolean;
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
}

/** The 401 answer: status, headers and the small HTML body real devices send. */
export interface Unauthorized {
  status: 401;
  headers: Record<string, string | string[]>;
  body: string;
}

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

  constructor(readonly options: AuthenticatorOptions) {}

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
    if (this.rejecting) return refuse('REJECTING', 'logins are refused for a while (simulated reboot)');
    const header = req.headers.authorization;
    if (!header) return refuse('NO_CREDENTIALS', 'no credentials');
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
    return refuse('SCHEME_NOT_ACCEPTED', `scheme "${scheme}" is not accepted (auth mode ${this.options.mode})`);
  }

  /** The 401 answer with one challenge per digest algorithm (and Basic, if accepted). */
  unauthorized(req: IncomingMessage, stale = false): Unauthorized {
    const challenges: string[] = [];
    if (this.acceptsDigest()) challenges.push(...this.digest.challenges(stale));
    if (this.acceptsBasic()) challenges.push(basicChallenge(this.options.realm));
    const body = unauthorizedPage(requestTarget(req).split('?')[0]);
    return {
      status: 401,
      headers: {
        'WWW-Authenticate': challenges,
        'Content-Type': 'text/html',
        'Content-Length': String(Buffer.byteLength(body)),
      },
      body,
    };
  }

  private acceptsDigest(): boolean {
    return this.options.mode === 'digest' || this.options.mode === 'both';
  }

  private acceptsBasic(): boolean {
    return this.options.mode === 'basic' || this.options.mode === 'both';
  }
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
