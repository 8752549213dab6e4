/**
 * Device user accounts and their roles. A device has a few accounts, each with a
 * role; APIs ask for a minimum role (feature flags need admin).
 */

/** Roles of a device user, weakest first. */
export const ROLES = ['viewer', 'operator', 'admin'] as const;

/** A device user role. */
export type Role = (typeof ROLES)[number];

/** One device user account. */
export interface Account {
  name: string;
  password: string;
  role: Role;
}

/** The built-in account a newcomer logs in with; printed at start-up. */
export const DEFAULT_ACCOUNT: Account = { name: 'root', password: 'pass', role: 'admin' };

/** Looks accounts up by name; the first definition of a name wins. */
export class AccountDirectory {
  private readonly byName = new Map<string, Account>();

  constructor(accounts: readonly Account[]) {
    for (const account of accounts) if (!this.byName.has(account.name)) this.byName.set(account.name, account);
  }

  /** The account with that name, if any. */
  find(name: string): Account | undefined {
    return this.byName.get(name);
  }

  /** All accounts, in definition order. */
  list(): Account[] {
    return [...this.byName.values()];
  }
}

/** True when `role` is at least `required`. */
export function hasRole(role: Role, required: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(required);
}

/**
 * Parses `name:password:role` (role optional, default admin) as given on the
 * command line; returns an error message for anything else.
 */
export function parseAccount(text: string): Account | string {
  const first = text.indexOf(':');
  if (first <= 0) return `account "${text}" is not name:password[:role]`;
  const name = text.slice(0, first);
  let password = text.slice(first + 1);
  let role: Role = 'admin';
  const last = password.lastIndexOf(':');
  if (last >= 0 && (ROLES as readonly string[]).includes(password.slice(last + 1))) {
    role = password.slice(last + 1) as Role;
    password = password.slice(0, last);
  }
  if (password.length === 0) return `account "${name}" has an empty password`;
  return { name, password, role };
}
