/**
 * The event stream's limits per device and per account: how many sessions may be open,
 * and how many filter terms the sessions of one account may hold together. Terms are what
 * evaluating filters costs per published event, so the per-account budget bounds how much
 * one account (a viewer included) can slow delivery to everyone else.
 *
 * The emulator's own clients (the dashboard) do not count against the account they logged in
 * as, nor get an account's share: each has a small fixed quota per device
 * ({@link EMULATOR_CLIENT_SESSIONS} sessions, {@link EMULATOR_CLIENT_TERMS} terms), since any
 * client may send their header. The device's total counts their sessions too.
 */
import type { ClientVia } from '../base/client-tag';
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

/** Open sessions of one emulator client (the dashboard) per device: a page open in two tabs. */
export const EMULATOR_CLIENT_SESSIONS = 2;

/** Filter terms the sessions of one emulator client hold together per device: a few typed filters. */
export const EMULATOR_CLIENT_TERMS = 128;

/**
 * Whose budget a session counts against, worked out once per session at its handshake: an
 * account of the client (its user, or its remote address without authentication), or the
 * quota of one of the emulator's own clients.
 */
export interface SessionAccount {
  /** The budget's key, and how refusals name it: `user "root"`, `address ::1`, `the dashboard`. */
  readonly name: string;
  /** Set for an emulator client's quota: {@link EMULATOR_CLIENT_SESSIONS} and {@link EMULATOR_CLIENT_TERMS}. */
  readonly via: ClientVia | undefined;
}

/** The account a session of `user` from `remoteAddress` counts against; `via` for an emulator client's. */
export function sessionAccount(
  user: string | undefined,
  remoteAddress: string | undefined,
  via: ClientVia | undefined,
): SessionAccount {
  if (via !== undefined) return { name: `the ${via}`, via };
  return { name: user !== undefined ? `user "${user}"` : `address ${remoteAddress ?? 'unknown'}`, via };
}

/**
 * A refused handshake: 503 when the device is full, 429 when the account holds its share or
 * the emulator client its quota.
 */
export interface SessionRefusal extends ErrorInfo<'device-full' | 'account-full' | 'emulator-client-full'> {
  readonly status: 503 | 429;
}

/** What one account holds. */
interface Holding {
  sessions: number;
  terms: number;
}

/** Counts the sessions and filter terms of each account against the limits. */
export class SessionLimits {
  /** By {@link SessionAccount.name}: an account's and an emulator client's names never meet. */
  private readonly accounts = new Map<string, Holding>();
  private sessions = 0;

  constructor(readonly settings: Readonly<SessionLimitSettings>) {}

  /** Whether `account` may open one more session (checked before the handshake completes). */
  admit(account: SessionAccount): Result<void, SessionRefusal> {
    const { maxSessions } = this.settings;
    if (this.sessions >= maxSessions)
      return refuse(
        'device-full',
        503,
        `No free event stream session: this device serves at most ${maxSessions} at once`,
      );
    const held = this.accounts.get(account.name)?.sessions ?? 0;
    if (account.via !== undefined) {
      if (held >= EMULATOR_CLIENT_SESSIONS)
        return refuse(
          'emulator-client-full',
          429,
          `Too many event stream sessions for ${account.name}: at most ${EMULATOR_CLIENT_SESSIONS} at once per device`,
        );
      return ok(undefined);
    }
    const { maxSessionsPerAccount } = this.settings;
    if (held >= maxSessionsPerAccount)
      return refuse(
        'account-full',
        429,
        `Too many event stream sessions for ${account.name}: at most ${maxSessionsPerAccount} at once`,
      );
    return ok(undefined);
  }

  /** A session of `account` opened. */
  opened(account: SessionAccount): void {
    this.sessions++;
    this.holding(account).sessions++;
  }

  /**
   * A session of `account` that holds `held` terms asks to hold `wanted` instead (a new
   * configure replaces the old filters): undefined when granted, else the refusal's message.
   */
  claimTerms(account: SessionAccount, held: number, wanted: number): string | undefined {
    const holding = this.holding(account);
    const others = holding.terms - held;
    const budget = account.via === undefined ? this.settings.maxAccountTerms : EMULATOR_CLIENT_TERMS;
    if (others + wanted > budget)
      return `the filters hold ${wanted} terms, and the sessions of ${account.name} may hold at most ${budget} together (${others} held by its other sessions)`;
    holding.terms = others + wanted;
    return undefined;
  }

  /** A session of `account` holding `terms` closed. */
  closed(account: SessionAccount, terms: number): void {
    this.sessions--;
    const holding = this.accounts.get(account.name);
    if (!holding) return;
    holding.sessions--;
    holding.terms -= terms;
    if (holding.sessions <= 0) this.accounts.delete(account.name);
  }

  private holding(account: SessionAccount): Holding {
    let holding = this.accounts.get(account.name);
    if (!holding) this.accounts.set(account.name, (holding = { sessions: 0, terms: 0 }));
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
