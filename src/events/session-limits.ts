/**
 * The event stream's limits per device and per account: how many sessions may be open,
 * and how many filter terms the sessions of one account, and of the whole device, may hold
 * together. Terms are what evaluating filters costs per published event, so the per-account
 * budget bounds how much one account (a viewer included) can slow delivery to everyone else,
 * and the device's budget what all of them together can.
 *
 * The device's budget counts what each session holds beyond {@link SESSION_FREE_TERMS}: a
 * client's few filters always fit, however full the device is, and cost no more than any
 * session's (their total is bounded by `maxSessions`); large filter sets share `maxDeviceTerms`.
 *
 * Without authentication (`auth: none`) there are no accounts: sessions are counted per remote
 * address, but terms per session. An address is no identity for terms: local clients all come
 * from 127.0.0.1 (one holding the address's budget would stop the others subscribing) while a
 * stranger can take any of 127.0.0.0/8 (50 addresses held 50 budgets). So each session may hold
 * up to `maxAccountTerms`, and all of them together the device's budget: no number of addresses
 * raises it, and what strangers hold never keeps a client from its first few filters.
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
  /** Filter terms the sessions of one account may hold together (one session, without authentication). */
  maxAccountTerms: number;
  /** Filter terms all the clients' sessions of the device may hold together: the device's per-event evaluation budget. */
  maxDeviceTerms: number;
}

/** Defaults: far above what a client or a video management system opens, low enough to keep one account's cost bounded. */
export const DEFAULT_SESSION_LIMITS: Readonly<SessionLimitSettings> = Object.freeze({
  maxSessions: 2_000,
  maxSessionsPerAccount: 500,
  maxAccountTerms: 2_048,
  maxDeviceTerms: 8_192,
});

/**
 * Filter terms of each session that the device's budget does not count: a client's few filters
 * (a handful of topics and a short content filter), which it may always hold.
 */
export const SESSION_FREE_TERMS = 16;

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
  /**
   * `user`: a logged-in user's sessions share its budget; `address`: no authentication, the
   * sessions of a remote address are counted together, their terms each on its own; `emulator-client`:
   * the quota of one of the emulator's own clients.
   */
  readonly kind: 'user' | 'address' | 'emulator-client';
  /** Set for an emulator client's quota: {@link EMULATOR_CLIENT_SESSIONS} and {@link EMULATOR_CLIENT_TERMS}. */
  readonly via: ClientVia | undefined;
}

/** The account a session of `user` from `remoteAddress` counts against; `via` for an emulator client's. */
export function sessionAccount(
  user: string | undefined,
  remoteAddress: string | undefined,
  via: ClientVia | undefined,
): SessionAccount {
  const name =
    via !== undefined ? `the ${via}` : user !== undefined ? `user "${user}"` : `address ${remoteAddress ?? 'unknown'}`;
  // One frozen account per name for the process: a fleet's sessions from the same user or
  // address (most of them) share it, instead of an object and a name each.
  const known = ACCOUNTS.get(name);
  if (known !== undefined) return known;
  const kind = via !== undefined ? 'emulator-client' : user !== undefined ? 'user' : 'address';
  const account: SessionAccount = Object.freeze({ name, kind, via });
  if (ACCOUNTS.size < MAX_ACCOUNTS) ACCOUNTS.set(name, account);
  return account;
}

/** The accounts made so far, by name (names of different kinds never meet); past the bound each is made anew. */
const ACCOUNTS = new Map<string, SessionAccount>();
const MAX_ACCOUNTS = 10_000;

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
  /** Terms the clients' sessions hold beyond their free ones, together (the emulator's own clients apart: their quota bounds them). */
  private terms = 0;

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
   * The account's budget (the session's own without authentication) first, then the device's.
   */
  claimTerms(account: SessionAccount, held: number, wanted: number): string | undefined {
    const holding = this.holding(account);
    const others = holding.terms - held;
    const refused = this.accountRefusal(account, others, wanted);
    if (refused !== undefined) return refused;
    if (account.kind !== 'emulator-client') {
      const { maxDeviceTerms } = this.settings;
      const elsewhere = this.terms - counted(held);
      if (elsewhere + counted(wanted) > maxDeviceTerms)
        return `the filters hold ${wanted} terms, and beyond ${SESSION_FREE_TERMS} each the sessions of this device may hold at most ${maxDeviceTerms} together (${elsewhere} held by the other sessions)`;
      this.terms = elsewhere + counted(wanted);
    }
    holding.terms = others + wanted;
    return undefined;
  }

  /** A session of `account` holding `terms` closed. */
  closed(account: SessionAccount, terms: number): void {
    this.sessions--;
    if (account.kind !== 'emulator-client') this.terms -= counted(terms);
    const holding = this.accounts.get(account.name);
    if (!holding) return;
    holding.sessions--;
    holding.terms -= terms;
    if (holding.sessions <= 0) this.accounts.delete(account.name);
  }

  /** Why `wanted` terms do not fit `account`'s budget with `others` held by its other sessions; undefined when they do. */
  private accountRefusal(account: SessionAccount, others: number, wanted: number): string | undefined {
    if (account.kind === 'address') {
      // No identity to share a budget by: each session has its own, the device's bounds them all.
      const { maxAccountTerms } = this.settings;
      if (wanted > maxAccountTerms)
        return `the filters hold ${wanted} terms, and a session may hold at most ${maxAccountTerms} without authentication`;
      return undefined;
    }
    const budget = account.kind === 'user' ? this.settings.maxAccountTerms : EMULATOR_CLIENT_TERMS;
    if (others + wanted > budget)
      return `the filters hold ${wanted} terms, and the sessions of ${account.name} may hold at most ${budget} together (${others} held by its other sessions)`;
    return undefined;
  }

  private holding(account: SessionAccount): Holding {
    let holding = this.accounts.get(account.name);
    if (!holding) this.accounts.set(account.name, (holding = { sessions: 0, terms: 0 }));
    return holding;
  }
}

/** What of a session's `terms` the device's budget counts: those beyond its free ones. */
function counted(terms: number): number {
  return Math.max(0, terms - SESSION_FREE_TERMS);
}

function refuse(
  code: SessionRefusal['code'],
  status: SessionRefusal['status'],
  message: string,
): Result<void, SessionRefusal> {
  return err({ code, status, message });
}
