import {
  EMULATOR_CLIENT_SESSIONS,
  EMULATOR_CLIENT_TERMS,
  SESSION_FREE_TERMS,
  sessionAccount,
  SessionLimits,
} from '../../../src/events/session-limits';

const LIMITS = { maxSessions: 3, maxSessionsPerAccount: 2, maxAccountTerms: 10, maxDeviceTerms: 1000 };

const A = sessionAccount('a', '10.0.0.1', undefined);
const B = sessionAccount('b', '10.0.0.1', undefined);
const C = sessionAccount('c', '10.0.0.1', undefined);
/** The dashboard, logged in as `a`. */
const DASHBOARD = sessionAccount('a', '10.0.0.1', 'dashboard');

describe('sessionAccount', () => {
  it('names the user, else the address; an emulator client by itself, whoever it logged in as', () => {
    expect(A).toEqual({ name: 'user "a"', kind: 'user', via: undefined });
    expect(sessionAccount(undefined, '::1', undefined)).toEqual({
      name: 'address ::1',
      kind: 'address',
      via: undefined,
    });
    expect(sessionAccount(undefined, undefined, undefined).name).toBe('address unknown');
    expect(DASHBOARD).toEqual({ name: 'the dashboard', kind: 'emulator-client', via: 'dashboard' });
    expect(sessionAccount('b', '10.0.0.2', 'dashboard')).toEqual(DASHBOARD);
  });
});

describe('SessionLimits', () => {
  it('admits sessions up to the account share (429) and the device total (503)', () => {
    const limits = new SessionLimits(LIMITS);
    limits.opened(A);
    limits.opened(A);
    expect(limits.admit(A)).toMatchObject({ ok: false, error: { code: 'account-full', status: 429 } });
    expect(limits.admit(B).ok).toBe(true);
    limits.opened(B);
    expect(limits.admit(C)).toMatchObject({ ok: false, error: { code: 'device-full', status: 503 } });
    limits.closed(A, 0);
    expect(limits.admit(A).ok).toBe(true);
  });

  it("budgets terms over all of an account's sessions; a claim replaces what the session held", () => {
    const limits = new SessionLimits(LIMITS);
    limits.opened(A);
    limits.opened(A);
    expect(limits.claimTerms(A, 0, 7)).toBeUndefined();
    expect(limits.claimTerms(A, 0, 4)).toBe(
      'the filters hold 4 terms, and the sessions of user "a" may hold at most 10 together (7 held by its other sessions)',
    );
    expect(limits.claimTerms(A, 7, 2)).toBeUndefined();
    expect(limits.claimTerms(A, 0, 8)).toBeUndefined();
    expect(limits.claimTerms(B, 0, 10)).toBeUndefined();
    limits.closed(A, 8);
    expect(limits.claimTerms(A, 2, 10)).toBeUndefined();
  });

  it('forgets an account when its last session closes', () => {
    const limits = new SessionLimits(LIMITS);
    limits.opened(A);
    expect(limits.claimTerms(A, 0, 10)).toBeUndefined();
    limits.closed(A, 10);
    limits.opened(A);
    expect(limits.claimTerms(A, 0, 10)).toBeUndefined();
  });
});

describe('SessionLimits: the emulator client quota', () => {
  const ROOMY = { maxSessions: 100, maxSessionsPerAccount: 50, maxAccountTerms: 10_000, maxDeviceTerms: 100_000 };

  it(`admits ${EMULATOR_CLIENT_SESSIONS} sessions of the dashboard per device, whatever the account share`, () => {
    const limits = new SessionLimits(ROOMY);
    for (let i = 0; i < EMULATOR_CLIENT_SESSIONS; i++) {
      expect(limits.admit(DASHBOARD).ok).toBe(true);
      limits.opened(DASHBOARD);
    }
    expect(limits.admit(DASHBOARD)).toEqual({
      ok: false,
      error: {
        code: 'emulator-client-full',
        status: 429,
        message: `Too many event stream sessions for the dashboard: at most ${EMULATOR_CLIENT_SESSIONS} at once per device`,
      },
    });
    limits.closed(DASHBOARD, 0);
    expect(limits.admit(DASHBOARD).ok).toBe(true);
  });

  it("takes nothing of the account's share: the user it logged in as keeps all of it", () => {
    const limits = new SessionLimits({ ...ROOMY, maxSessionsPerAccount: 2, maxAccountTerms: 10 });
    limits.opened(DASHBOARD);
    limits.opened(DASHBOARD);
    expect(limits.claimTerms(DASHBOARD, 0, 10)).toBeUndefined();
    limits.opened(A);
    expect(limits.admit(A).ok).toBe(true);
    limits.opened(A);
    expect(limits.claimTerms(A, 0, 10)).toBeUndefined();
    expect(limits.admit(A)).toMatchObject({ ok: false, error: { code: 'account-full' } });
  });

  it(`budgets ${EMULATOR_CLIENT_TERMS} terms over its sessions, not the account's budget`, () => {
    const limits = new SessionLimits({ ...ROOMY, maxAccountTerms: 100_000 });
    limits.opened(DASHBOARD);
    limits.opened(DASHBOARD);
    expect(limits.claimTerms(DASHBOARD, 0, EMULATOR_CLIENT_TERMS - 1)).toBeUndefined();
    expect(limits.claimTerms(DASHBOARD, 0, 2)).toBe(
      `the filters hold 2 terms, and the sessions of the dashboard may hold at most ${EMULATOR_CLIENT_TERMS} together (${EMULATOR_CLIENT_TERMS - 1} held by its other sessions)`,
    );
    expect(limits.claimTerms(DASHBOARD, 0, 1)).toBeUndefined();
  });

  it("counts the dashboard's sessions toward the device's total", () => {
    const limits = new SessionLimits({ ...ROOMY, maxSessions: 2 });
    limits.opened(DASHBOARD);
    limits.opened(A);
    expect(limits.admit(B)).toMatchObject({ ok: false, error: { code: 'device-full', status: 503 } });
    expect(limits.admit(DASHBOARD)).toMatchObject({ ok: false, error: { code: 'device-full', status: 503 } });
  });
});

describe("SessionLimits: the device's budget", () => {
  const USERS = { maxSessions: 100, maxSessionsPerAccount: 50, maxAccountTerms: 100, maxDeviceTerms: 50 };

  it('bounds what the sessions of every account hold beyond their free terms together; a close frees it', () => {
    const limits = new SessionLimits(USERS);
    for (const account of [A, B]) {
      limits.opened(account);
      expect(limits.claimTerms(account, 0, beyondFree(24))).toBeUndefined();
    }
    limits.opened(C);
    expect(limits.claimTerms(C, 0, beyondFree(3))).toBe(
      `the filters hold ${beyondFree(3)} terms, and beyond ${SESSION_FREE_TERMS} each the sessions of this device may hold at most 50 together (48 held by the other sessions)`,
    );
    expect(limits.claimTerms(C, 0, beyondFree(2))).toBeUndefined();
    // A reconfigure replaces what the session held, on the device's count too.
    expect(limits.claimTerms(A, beyondFree(24), beyondFree(4))).toBeUndefined();
    expect(limits.claimTerms(C, beyondFree(2), beyondFree(22))).toBeUndefined();
    limits.closed(B, beyondFree(24));
    expect(limits.claimTerms(A, beyondFree(4), beyondFree(28))).toBeUndefined();
  });

  it(`always grants a session its first ${SESSION_FREE_TERMS} terms, however full the device`, () => {
    const limits = new SessionLimits(USERS);
    limits.opened(A);
    expect(limits.claimTerms(A, 0, beyondFree(50))).toBeUndefined();
    limits.opened(B);
    expect(limits.claimTerms(B, 0, beyondFree(1))).toMatch(/\(50 held by the other sessions\)$/);
    expect(limits.claimTerms(B, 0, SESSION_FREE_TERMS)).toBeUndefined();
    limits.opened(C);
    expect(limits.claimTerms(C, 0, 1)).toBeUndefined();
  });

  it("leaves the dashboard's quota out of it, both ways", () => {
    const limits = new SessionLimits({ ...USERS, maxDeviceTerms: 10 });
    limits.opened(DASHBOARD);
    expect(limits.claimTerms(DASHBOARD, 0, EMULATOR_CLIENT_TERMS)).toBeUndefined();
    limits.opened(A);
    expect(limits.claimTerms(A, 0, beyondFree(10))).toBeUndefined();
    limits.closed(DASHBOARD, EMULATOR_CLIENT_TERMS);
    expect(limits.claimTerms(A, beyondFree(10), beyondFree(11))).toMatch(
      /at most 10 together \(0 held by the other sessions\)$/,
    );
  });
});

describe('SessionLimits without authentication (remote addresses)', () => {
  const NONE = { maxSessions: 100, maxSessionsPerAccount: 3, maxAccountTerms: beyondFree(20), maxDeviceTerms: 50 };
  const LOCAL = sessionAccount(undefined, '127.0.0.1', undefined);

  it('gives each session of an address its own share: one holding it leaves the others of the address theirs', () => {
    const limits = new SessionLimits(NONE);
    limits.opened(LOCAL);
    expect(limits.claimTerms(LOCAL, 0, beyondFree(20))).toBeUndefined();
    limits.opened(LOCAL);
    expect(limits.claimTerms(LOCAL, 0, beyondFree(21))).toBe(
      `the filters hold ${beyondFree(21)} terms, and a session may hold at most ${beyondFree(20)} without authentication`,
    );
    expect(limits.claimTerms(LOCAL, 0, beyondFree(20))).toBeUndefined();
    // Sessions are still counted per address.
    limits.opened(LOCAL);
    expect(limits.admit(LOCAL)).toMatchObject({ ok: false, error: { code: 'account-full', status: 429 } });
  });

  it("bounds every address together by the device's budget, however many, and leaves a newcomer its free terms", () => {
    const limits = new SessionLimits(NONE);
    let granted = 0;
    for (let i = 1; i <= 50; i++) {
      const stranger = sessionAccount(undefined, `127.0.0.${i}`, undefined);
      limits.opened(stranger);
      if (limits.claimTerms(stranger, 0, beyondFree(20)) === undefined) granted++;
    }
    expect(granted).toBe(2);
    limits.opened(LOCAL);
    expect(limits.claimTerms(LOCAL, 0, beyondFree(11))).toMatch(/\(40 held by the other sessions\)$/);
    expect(limits.claimTerms(LOCAL, 0, beyondFree(10))).toBeUndefined();
    limits.opened(LOCAL);
    expect(limits.claimTerms(LOCAL, 0, SESSION_FREE_TERMS)).toBeUndefined();
  });
});

/** Terms of which `n` count against the device's budget. */
function beyondFree(n: number): number {
  return SESSION_FREE_TERMS + n;
}
