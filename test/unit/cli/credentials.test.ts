/** How a banner shows a secret: the view, the secret or where it comes from, and shell words for the commands. */
import { acceptedSchemes } from '../../../src/auth/authenticator';
import { connectionKeyCommand, secretsView, shellWord, shownSecret, variableLines } from '../../../src/cli/credentials';

const FROM = { given: 'as given by --password', fromDefault: 'the default one', variable: 'BWC_EMU_PASSWORD' };

describe('secretsView', () => {
  it.each([
    [undefined, true, true],
    ['pretty', true, true],
    ['json', true, false],
    [undefined, false, false],
    ['pretty', false, false],
  ] as const)('--log-format %s, terminal %s: defaults shown %s', (format, isTty, shown) => {
    expect(secretsView(format === undefined ? {} : { 'log-format': format }, isTty)).toEqual({ showDefaults: shown });
  });
});

describe('shownSecret', () => {
  it('shows the built-in default only when the view allows it', () => {
    expect(shownSecret({ showDefaults: true }, 'pass', 'pass', FROM)).toEqual({
      value: 'pass',
      from: 'the default one',
      variable: 'BWC_EMU_PASSWORD',
    });
    expect(shownSecret({ showDefaults: false }, 'pass', 'pass', FROM).value).toBeUndefined();
  });

  it('never shows a chosen secret, and says where it comes from', () => {
    expect(shownSecret({ showDefaults: true }, 'chosen', 'pass', FROM)).toEqual({
      value: undefined,
      from: 'as given by --password',
      variable: 'BWC_EMU_PASSWORD',
    });
  });
});

describe('shellWord', () => {
  const hidden = shownSecret({ showDefaults: false }, 'x', 'pass', FROM);
  const shown = (value: string) => ({ value, from: '', variable: 'V' });

  it('reads a hidden secret from its variable, the prefix quoted for double quotes', () => {
    expect(shellWord('root:', hidden)).toBe('"root:$BWC_EMU_PASSWORD"');
    expect(shellWord('a"b$c`d\\:', hidden)).toBe('"a\\"b\\$c\\`d\\\\:$BWC_EMU_PASSWORD"');
  });

  it('writes a shown secret bare when it can, else in single quotes', () => {
    expect(shellWord('root:', shown('pass'))).toBe('root:pass');
    expect(shellWord('X-Auth-Key: ', shown('secret'))).toBe(`'X-Auth-Key: secret'`);
    expect(shellWord('', shown(`it's`))).toBe(`'it'\\''s'`);
  });
});

describe('variableLines', () => {
  it('says how to set the variable: by hand, or from a command', () => {
    const hidden = shownSecret({ showDefaults: false }, 'x', 'pass', FROM);
    expect(variableLines(hidden, 'password')).toEqual([
      'The password is not printed here (as given by --password); the commands below read it from BWC_EMU_PASSWORD:',
      `  export BWC_EMU_PASSWORD='<the password>'`,
    ]);
    expect(variableLines(hidden, 'key', 'cmd')[1]).toBe('  export BWC_EMU_PASSWORD="$(cmd)"');
    expect(variableLines(shownSecret({ showDefaults: true }, 'pass', 'pass', FROM), 'password')).toEqual([]);
  });

  it('reads the key of a connection file with Node.js, its path quoted', () => {
    expect(connectionKeyCommand('/tmp/cd.json')).toBe(
      `node -p 'JSON.parse(require("fs").readFileSync(process.argv[1])).BlobAPIKey' /tmp/cd.json`,
    );
    expect(connectionKeyCommand("/tmp/it's here.json")).toMatch(/ '\/tmp\/it'\\''s here\.json'$/);
  });
});

describe('acceptedSchemes', () => {
  it.each([
    ['both', true, false, ['digest']],
    ['both', true, true, ['digest', 'basic']],
    ['both', false, false, ['digest', 'basic']],
    ['basic', true, false, ['basic']],
    ['digest', false, true, ['digest']],
    ['none', true, true, []],
  ] as const)('%s, plain HTTP %s, basicOverHttp %s: %j', (mode, plainHttp, basicOverHttp, schemes) => {
    expect(acceptedSchemes(mode, plainHttp, basicOverHttp)).toEqual(schemes);
  });
});
