/**
 * The event stream's limits per device and per account: how many sessions may be open,
 * and how many filter terms the sessions of one account may hold together. Terms are what
 * evaluating filters costs per published event, so the per-account budget bounds how much
 * one account (a viewer included) can slow delivery to everyone else. The account is a key
 * the stream server makes: the emulator's own dashboard has its own next to the user's or
 * address's, so its session never takes the client's share; the device's total counts it.
 */
import { err, type ErrorInfo, ok, type Result } from '../base/result';

/** The limits; each is a whole number of at least 1. */
export interface SessionLimitSettings {
  /** Open sessions per device. */
  maxSessions: number;
  /** Open sessions per account (per remote address without authentication). */
  maxSessionsPerAccount: number;
  /** Filter terms the sessions of one account may hold together: the per-event evaluation budget. */
  maxAccountTerms: number;
}

/** Defaults: far above what a client or a video management system opens, low enough to keep one account's cost bounded. */
export const DEFAULT_SESSION_LIMITS: Readonly<SessionLimitSettings> = Object.freeze({
  maxSessions: 2_000,
  maxSessionsPerAccount: 500,
  maxAccountTerms: 2_048,
});

/** A refused handshake: 503 when the device is full, 429 when the account holds its share. */
export interface SessionRefusal extends ErrorInfo<'device-full' | 'account-full'> {
  readonly status: 503 | 429;
}

/** What one account holds. */
interface Holding {
  sessions: number;
  terms: number;
}

/** Counts the sessions and filter terms of each account against the limits. */
export class SessionLimits {
  private readonly accounts = new Map<string, Holding>();
  private sessions = 0;

  constructor(readonly settings: Readonly<SessionLimitSettings>) {}

  /** Whether `account` may open one more session (checked before the handshake completes). */
  admit(account: string): Result<void, SessionRefusal> {
    const { maxSessions, maxSessionsPerAccount } = this.settings;
    if (this.sessions >= maxSessions)
      return refuse(
        'device-full',
        503,
        `No free event stream session: this device serves at most ${maxSessions} at once`,
      );
    const held = this.accounts.get(account)?.sessions ?? 0;
    if (held >= maxSessionsPerAccount)
      return refuse(
        'account-full',
        429,
        `Too many event stream sessions for ${account}: at most ${maxSessionsPerAccount} at once`,
      );
    return ok(undefined);
  }

  /** A session of `account` opened. */
  opened(account: string): void {
    this.sessions++;
    this.holding(account).sessions++;
  }

  /**
   * A session of `account` that holds `held` terms asks to hold `wanted` instead (a new
   * configure replaces the old filters): undefined when granted, else the refusal's message.
   */
  claimTerms(account: string, held: number, wanted: number): string | undefined {
    const holding = this.holding(account);
    const others = holding.terms - held;
    const { maxAccountTerms } = this.settings;
    if (others + wanted > maxAccountTerms)
      return `the filters hold ${wanted} terms, and the sessions of ${account} may hold at most ${maxAccountTerms} together (${others} held by its other sessions)`;
    holding.terms = others + wanted;
    return undefined;
  }

  /** A session of `account` holding `terms` closed. */
  closed(account: string, terms: number): void {
    this.sessions--;
    const holding = this.accounts.get(account);
    if (!holding) return;
    holding.sessions--;
    holding.terms -= terms;
    if (holding.sessions <= 0) this.accounts.delete(account);
  }

  private holding(account: string): Holding {
    let holding = this.accounts.get(account);
    if (!holding) this.accounts.set(account, (holding = { sessions: 0, terms: 0 }));
    return holding;
  }
}

function refuse(
  code: SessionRefusal['code'],
  status: SessionRefusal['status'],
  message: string,
): Result<void, SessionRefusal> {
  return err({ code, status, message });
}
