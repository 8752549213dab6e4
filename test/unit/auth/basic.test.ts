import { basicChallenge, verifyBasic } from '../../../src/auth/basic';

const PASSWORDS: Record<string, string> = { root: 'pass', 'ü-user': 'pässwörd', colon: 'a:b:c' };
const passwordOf = (name: string): string | undefined => PASSWORDS[name];

function basic(userPass: string): string {
  return `Basic ${Buffer.from(userPass, 'utf8').toString('base64')}`;
}

describe('basicChallenge', () => {
  it('names the realm in a quoted string', () => {
    expect(basicChallenge('SVC_ACCC8E000001')).toBe('Basic realm="SVC_ACCC8E000001"');
    expect(basicChallenge('a"b')).toBe('Basic realm="a\\"b"');
  });
});

describe('verifyBasic', () => {
  it('accepts the right user and password', () => {
    expect(verifyBasic(basic('root:pass'), passwordOf)).toEqual({ ok: true, value: 'root' });
  });

  it('accepts the scheme in any case', () => {
    expect(verifyBasic(`basic ${Buffer.from('root:pass').toString('base64')}`, passwordOf).ok).toBe(true);
    expect(verifyBasic(`BASIC ${Buffer.from('root:pass').toString('base64')}`, passwordOf).ok).toBe(true);
  });

  it('decodes UTF-8 user names and passwords', () => {
    expect(verifyBasic(basic('ü-user:pässwörd'), passwordOf)).toEqual({ ok: true, value: 'ü-user' });
  });

  it('splits at the first colon: the password may hold colons', () => {
    expect(verifyBasic(basic('colon:a:b:c'), passwordOf)).toEqual({ ok: true, value: 'colon' });
  });

  it('refuses a wrong password, also one that is a prefix or an extension of the right one', () => {
    for (const guess of ['wrong', 'pas', 'passs', '', 'PASS']) {
      expect(verifyBasic(basic(`root:${guess}`), passwordOf)).toEqual({
        ok: false,
        error: { code: 'WRONG_PASSWORD', message: 'wrong password for user "root"' },
      });
    }
  });

  it('refuses an unknown user', () => {
    expect(verifyBasic(basic('mallory:pass'), passwordOf)).toEqual({
      ok: false,
      error: { code: 'UNKNOWN_USER', message: 'unknown user "mallory"' },
    });
  });

  it('refuses credentials without a colon', () => {
    expect(verifyBasic(basic('rootpass'), passwordOf)).toEqual({
      ok: false,
      error: { code: 'NO_COLON', message: 'Basic credentials lack a colon' },
    });
  });

  it('refuses another scheme', () => {
    expect(verifyBasic('Digest username="root"', passwordOf)).toEqual({
      ok: false,
      error: { code: 'WRONG_SCHEME', message: 'scheme Digest is not Basic' },
    });
  });

  it('refuses Basic with parameters instead of a token68', () => {
    expect(verifyBasic('Basic realm="x"', passwordOf)).toEqual({
      ok: false,
      error: { code: 'NOT_BASE64', message: 'Basic credentials are not base64' },
    });
    expect(verifyBasic('Basic', passwordOf)).toEqual({
      ok: false,
      error: { code: 'NOT_BASE64', message: 'Basic credentials are not base64' },
    });
  });

  it('refuses malformed headers with the parser reason', () => {
    expect(verifyBasic('', passwordOf)).toEqual({
      ok: false,
      error: { code: 'MALFORMED', message: 'malformed Authorization header: empty header' },
    });
    expect(verifyBasic('Basic abc def', passwordOf)).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/^malformed Authorization header/) as string },
    });
  });
});
