import { AccountDirectory, DEFAULT_ACCOUNT, hasRole, parseAccount, ROLES, type Role } from '../../../src/auth/accounts';

describe('parseAccount', () => {
  it.each([
    ['root:pass', { name: 'root', password: 'pass', role: 'admin' }],
    ['op:secret:operator', { name: 'op', password: 'secret', role: 'operator' }],
    ['v:secret:viewer', { name: 'v', password: 'secret', role: 'viewer' }],
    ['a:secret:admin', { name: 'a', password: 'secret', role: 'admin' }],
    // Only a known role after the last colon is a role; otherwise it is part of the password.
    ['u:pa:ss', { name: 'u', password: 'pa:ss', role: 'admin' }],
    ['u:pa:ss:viewer', { name: 'u', password: 'pa:ss', role: 'viewer' }],
    ['u:secret:Viewer', { name: 'u', password: 'secret:Viewer', role: 'admin' }],
    ['u:viewer', { name: 'u', password: 'viewer', role: 'admin' }],
    ['u:x:', { name: 'u', password: 'x:', role: 'admin' }],
  ])('%j gives %j', (text, expected) => {
    expect(parseAccount(text)).toEqual(expected);
  });

  it.each([
    ['root', 'account "root" is not name:password[:role]'],
    ['', 'account "" is not name:password[:role]'],
    [':pass', 'account ":pass" is not name:password[:role]'],
    ['root:', 'account "root" has an empty password'],
    ['root::viewer', 'account "root" has an empty password'],
  ])('%j is refused with a message', (text, message) => {
    expect(parseAccount(text)).toBe(message);
  });
});

describe('hasRole', () => {
  const table: Array<[Role, Role, boolean]> = [
    ['viewer', 'viewer', true],
    ['viewer', 'operator', false],
    ['viewer', 'admin', false],
    ['operator', 'viewer', true],
    ['operator', 'operator', true],
    ['operator', 'admin', false],
    ['admin', 'viewer', true],
    ['admin', 'operator', true],
    ['admin', 'admin', true],
  ];
  it.each(table)('%s has at least %s: %s', (role, required, expected) => {
    expect(hasRole(role, required)).toBe(expected);
  });

  it('orders roles weakest first', () => {
    expect(ROLES).toEqual(['viewer', 'operator', 'admin']);
  });
});

describe('AccountDirectory', () => {
  it('finds accounts by name and lists them in definition order; the first definition wins', () => {
    const directory = new AccountDirectory([
      { name: 'root', password: 'one', role: 'admin' },
      { name: 'view', password: 'v', role: 'viewer' },
      { name: 'root', password: 'two', role: 'viewer' },
    ]);
    expect(directory.find('root')).toEqual({ name: 'root', password: 'one', role: 'admin' });
    expect(directory.find('nobody')).toBeUndefined();
    expect(directory.list().map((a) => a.name)).toEqual(['root', 'view']);
  });

  it('the default account is root / pass, admin', () => {
    expect(DEFAULT_ACCOUNT).toEqual({ name: 'root', password: 'pass', role: 'admin' });
  });
});
