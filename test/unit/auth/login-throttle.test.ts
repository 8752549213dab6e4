import { LoginThrottle, throttleRules } from '../../../src/auth/login-throttle';
import { ManualClock } from '../../../src/base/clock';

function setup(perRemote = 3, perRemoteUser = 5): { throttle: LoginThrottle; clock: ManualClock } {
  const clock = new ManualClock();
  const throttle = new LoginThrottle({
    clock,
    perRemote: { failures: perRemote, windowMs: 10_000 },
    perRemoteUser: { failures: perRemoteUser, windowMs: 10_000 },
  });
  return { throttle, clock };
}

describe('LoginThrottle', () => {
  it('blocks an address after its limit of failures until the window that began with the first ends', () => {
    const { throttle, clock } = setup();
    for (let i = 0; i < 3; i++) {
      expect(throttle.check('10.0.0.1', 'root')).toBeUndefined();
      throttle.failed('10.0.0.1', 'root');
      clock.advance(1_000);
    }
    expect(throttle.check('10.0.0.1', 'root')).toEqual({
      by: 'remote',
      retryAfterSeconds: 7,
      message: 'too many failed logins from 10.0.0.1: at most 3 per 10 s; retry in 7 s',
    });
    expect(throttle.check('10.0.0.2', 'other')).toBeUndefined();
    clock.advance(7_000);
    expect(throttle.check('10.0.0.1', 'root')).toBeUndefined();
  });

  it('never refuses a user from an address that has not failed, however many others failed for it', () => {
    const { throttle, clock } = setup(20, 10);
    // 4 addresses, 10 wrong passwords a second each for root, for 30 s: every one is throttled.
    for (let s = 0; s < 30; s++) {
      for (let i = 0; i < 10; i++)
        for (const remote of ['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5'])
          if (!throttle.check(remote, 'root')) throttle.failed(remote, 'root');
      expect(throttle.check('127.0.0.2', 'root')).toBeDefined();
      expect(throttle.check('127.0.0.1', 'root')).toBeUndefined();
      clock.advance(1_000);
    }
  });

  it('blocks a user guessed from one address for that address only, before the address itself', () => {
    const { throttle } = setup(8, 5);
    for (let i = 0; i < 5; i++) throttle.failed('10.0.0.1', 'viewer');
    expect(throttle.check('10.0.0.1', 'viewer')).toEqual({
      by: 'remote-user',
      retryAfterSeconds: 10,
      message: 'too many failed logins for user "viewer" from 10.0.0.1: at most 5 per 10 s; retry in 10 s',
    });
    expect(throttle.check('10.0.0.1', 'root')).toBeUndefined();
    expect(throttle.check('10.0.0.2', 'viewer')).toBeUndefined();
    // The address's own limit counts every user it named.
    for (let i = 0; i < 3; i++) throttle.failed('10.0.0.1', `user${i}`);
    expect(throttle.check('10.0.0.1', 'root')?.by).toBe('remote');
  });

  it('keys a long user name by its first 128 characters (bounded memory per window)', () => {
    const { throttle } = setup(100, 2);
    const long = 'u'.repeat(200);
    throttle.failed('a', long);
    throttle.failed('a', `${long}x`);
    expect(throttle.check('a', `${'u'.repeat(128)}y`)?.by).toBe('remote-user');
    expect(throttle.check('a', 'u'.repeat(127))).toBeUndefined();
  });

  it('counts nothing and refuses nothing without a remote address', () => {
    const { throttle } = setup(1, 1);
    throttle.failed(undefined, 'root');
    expect(throttle.active).toBe(false);
    throttle.failed('a', 'root');
    expect(throttle.check(undefined, 'root')).toBeUndefined();
  });

  it('rounds a wait of less than a second up to 1 s', () => {
    const { throttle, clock } = setup(1);
    throttle.failed('a', undefined);
    clock.advance(9_999);
    expect(throttle.check('a', undefined)?.retryAfterSeconds).toBe(1);
  });

  it('counts nothing with a limit of 0', () => {
    const { throttle } = setup(0, 0);
    for (let i = 0; i < 1_000; i++) throttle.failed('a', 'root');
    expect(throttle.check('a', 'root')).toBeUndefined();
  });

  it('starts a new window after the last one ended, so old failures do not add up', () => {
    const { throttle, clock } = setup(3);
    throttle.failed('a', undefined);
    throttle.failed('a', undefined);
    clock.advance(10_000);
    throttle.failed('a', undefined);
    throttle.failed('a', undefined);
    expect(throttle.check('a', undefined)).toBeUndefined();
  });

  it('forgets the oldest window past 100 000 addresses, and keeps counting the newest', () => {
    const { throttle } = setup(1);
    for (let i = 0; i <= 100_000; i++) throttle.failed(`a${i}`, undefined);
    expect(throttle.check('a0', undefined)).toBeUndefined();
    expect(throttle.check('a1', undefined)?.by).toBe('remote');
    expect(throttle.check('a100000', undefined)?.by).toBe('remote');
  });

  it('is active only while some address has a window open', () => {
    const { throttle, clock } = setup();
    expect(throttle.active).toBe(false);
    throttle.failed('10.0.0.8', 'root');
    expect(throttle.active).toBe(true);
    clock.advance(10_000);
    // An ended window is dropped by the next check; from then the throttle is idle again.
    expect(throttle.check('a', 'root')).toBeUndefined();
    expect(throttle.active).toBe(false);
    throttle.failed('10.0.0.9', undefined);
    expect(throttle.active).toBe(true);
  });

  it('blocks by address, or by address and user, only for the rule whose windows are open', () => {
    const { throttle } = setup(0, 1);
    throttle.failed('10.0.0.9', undefined);
    expect(throttle.check('10.0.0.9', 'root')).toBeUndefined();
    throttle.failed('10.0.0.9', 'root');
    expect(throttle.check('10.0.0.9', 'root')).toMatchObject({ by: 'remote-user' });
    expect(throttle.check('10.0.0.9', undefined)).toBeUndefined();
    expect(throttle.check('10.0.0.8', 'root')).toBeUndefined();
  });
});

describe('throttleRules (the destination option loginThrottle)', () => {
  it('fills in the defaults and keeps 0 as off', () => {
    expect(throttleRules({ failuresPerRemoteUser: 0 })).toEqual({
      perRemote: { failures: 20, windowMs: 10_000 },
      perRemoteUser: { failures: 0, windowMs: 10_000 },
    });
  });

  it.each([
    [{ failuresPerRemote: -1 }, 'loginThrottle.failuresPerRemote must be a whole number from 0 to 1000000, not -1'],
    [{ windowMs: 0 }, 'loginThrottle.windowMs must be a whole number from 1 to 86400000, not 0'],
    [
      { failuresPerRemoteUser: 2.5 },
      'loginThrottle.failuresPerRemoteUser must be a whole number from 0 to 1000000, not 2.5',
    ],
    [
      { perRemote: 3 },
      'loginThrottle has unknown field(s) perRemote; known: failuresPerRemote, failuresPerRemoteUser, windowMs',
    ],
    [
      { failuresPerUser: 50 },
      'loginThrottle has unknown field(s) failuresPerUser; known: failuresPerRemote, failuresPerRemoteUser, windowMs (failuresPerUser: wrong logins are no longer counted per user from any address (strangers could lock the user out); they are counted per remote address and per remote address and user)',
    ],
  ])('refuses %j with BAD_OPTION naming the field', (settings, message) => {
    expect(() => throttleRules(settings as Parameters<typeof throttleRules>[0])).toThrow(
      expect.objectContaining({ code: 'BAD_OPTION', message }) as Error,
    );
  });
});
