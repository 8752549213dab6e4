/**
 * HA1 = H(username:realm:password) of each account, kept per hash so that a digest check
 * hashes the password once per account instead of on every request. An entry is keyed by
 * the password it was computed from: an account whose password changes gets a new one on
 * its next check, and the old value is never used again.
 */
import type { DigestHashName } from './digest-hash';
import { hashHex } from './quick-hash';

/** At most this many accounts are kept; past it the cache starts over (accounts are few). */
const MAX_ACCOUNTS = 1_024;

/** One account's HA1 values, for the password they were computed from. */
interface Entry {
  readonly password: string;
  readonly byHash: Map<DigestHashName, string>;
}

/** The HA1 values of one realm's accounts. */
export class Ha1Cache {
  private readonly entries = new Map<string, Entry>();

  constructor(readonly realm: string) {}

  /** HA1 of `username` with `password` under `hash`: computed on the first call, and again after a password change. */
  ha1(hash: DigestHashName, username: string, password: string): string {
    let entry = this.entries.get(username);
    if (entry?.password !== password) {
      if (!entry && this.entries.size >= MAX_ACCOUNTS) this.entries.clear();
      entry = { password, byHash: new Map() };
      this.entries.set(username, entry);
    }
    let value = entry.byHash.get(hash);
    if (value === undefined) {
      value = hashHex(hash, `${username}:${this.realm}:${password}`);
      entry.byHash.set(hash, value);
    }
    return value;
  }

  /** Accounts with an entry (for tests and diagnostics). */
  get size(): number {
    return this.entries.size;
  }
}
