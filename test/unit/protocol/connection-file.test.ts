/**
 * Reading a connection file (src/protocol/connection-file.ts): every field and limit of
 * the reference, each problem named by its field; what a real system ignores (unknown
 * fields, keys without WantEncryption) as warnings; size, JSON and BOM handling; and
 * that no input at all makes the parser throw.
 */
import fc from 'fast-check';
import {
  checkConnectionFile,
  MAX_CONNECTION_FILE_BYTES,
  parseConnectionFile,
  trustedCertificates,
} from '../../../src/protocol/connection-file';
import { pemToBase64 } from '../../../src/protocol/connection-file';
import { selfSignedCertificate } from '../../../src/base/tls';
import { propertyRuns } from '../../helpers/fast-check-config';

/** A minimal valid file, as a destination would hand it out. */
const BASE = {
  ConnectionFileVersion: '1.0',
  SiteName: 'Site',
  ApplicationName: 'App',
  ApplicationVersion: '1.0',
  AuthenticationTokenURI: ['http://127.0.0.1:8080/auth/v1.0'],
  BlobAPIUserName: 'bws',
  BlobAPIKey: 'secret',
} as const;

/** {@link BASE} as read: the optional fields with their defaults. */
const BASE_WITH_DEFAULTS = {
  ...BASE,
  ContentDestinationAsNTPServer: false,
  ContainerType: 'mkv',
  FullStoreAndReadSupport: false,
  WantEncryption: false,
};

type Fields = Record<string, unknown>;

const parse = (fields: Fields, source?: string) => parseConnectionFile(JSON.stringify(fields), source);
const without = (name: string): Fields => Object.fromEntries(Object.entries(BASE).filter(([k]) => k !== name));

/** The errors of a file that must be refused. */
function errorsOf(fields: Fields | string): string[] {
  const result = typeof fields === 'string' ? parseConnectionFile(fields) : parse(fields);
  if (result.ok) throw new Error(`expected a refusal, got ${JSON.stringify(result.value)}`);
  return result.error.errors;
}

/** Only one error, naming the field. */
function onlyError(fields: Fields, field: string): string {
  const errors = errorsOf(fields);
  expect(errors).toHaveLength(1);
  expect(errors[0]).toContain(field);
  expect(errors[0]).toMatch(/^connection file: /);
  return errors[0];
}

let certificate: string;
beforeAll(async () => {
  certificate = (await selfSignedCertificate('bws-test', '127.0.0.1')).cert;
});

describe('a valid file', () => {
  it('is read with the defaults filled in', () => {
    const result = parse({ ...BASE });
    expect(result).toEqual({
      ok: true,
      value: BASE_WITH_DEFAULTS,
      warnings: [],
    });
  });

  it('keeps every optional field given', () => {
    const file = {
      ...BASE,
      AuthenticationTokenURI: ['https://a.example/auth/v1.0', 'http://b.example:8080/auth/v1.0'],
      ContentDestinationAsNTPServer: true,
      HTTPSCertificate: [pemToBase64(certificate)],
      ContainerType: 'mp4',
      FullStoreAndReadSupport: true,
      WantEncryption: true,
      PublicKey: 'MIIBIjANBg...',
      PublicKeyId: 'key-1',
    };
    expect(parse(file)).toEqual({ ok: true, value: file, warnings: [] });
  });

  it("reads the vendor example installer's file: an extra BlobAPI field (a warning) and empty keys without WantEncryption", () => {
    const file = {
      ...BASE,
      BlobAPI: 'Swift',
      ContainerType: 'mkv',
      FullStoreAndReadSupport: false,
      WantEncryption: false,
      PublicKey: '',
      PublicKeyId: '',
    };
    const result = parseConnectionFile(JSON.stringify(file, null, 2), 'cd.json');
    expect(result).toEqual({
      ok: true,
      value: BASE_WITH_DEFAULTS,
      warnings: ['cd.json: unknown field(s) ignored: BlobAPI'],
    });
  });

  it('accepts a UTF-8 byte order mark before the JSON', () => {
    const result = parseConnectionFile(`\uFEFF${JSON.stringify(BASE)}`);
    expect(result.ok).toBe(true);
  });

  it('accepts a file of exactly 64 kB (padding included)', () => {
    const json = JSON.stringify(BASE);
    const text = `${json}${' '.repeat(MAX_CONNECTION_FILE_BYTES - Buffer.byteLength(json))}`;
    expect(Buffer.byteLength(text)).toBe(64 * 1024);
    expect(parseConnectionFile(text).ok).toBe(true);
  });
});

describe('text fields and their limits', () => {
  it.each([
    ['SiteName', 64],
    ['ApplicationName', 256],
    ['ApplicationVersion', 128],
    ['BlobAPIUserName', 64],
    ['BlobAPIKey', 64],
  ])('%s: up to %d characters; longer, empty, not a string or missing are refused by name', (field, max) => {
    expect(parse({ ...BASE, [field]: 'x'.repeat(max) }).ok).toBe(true);
    expect(parse({ ...BASE, [field]: 'é'.repeat(max) }).ok).toBe(true); // characters, not bytes
    expect(onlyError({ ...BASE, [field]: 'x'.repeat(max + 1) }, field)).toBe(
      `connection file: ${field} is longer than ${max} characters`,
    );
    expect(onlyError({ ...BASE, [field]: '' }, field)).toBe(`connection file: ${field} must not be empty`);
    expect(onlyError({ ...BASE, [field]: 42 }, field)).toBe(`connection file: ${field} must be a string`);
    expect(onlyError({ ...BASE, [field]: null }, field)).toBe(`connection file: ${field} must be a string`);
    expect(onlyError(without(field), field)).toBe(`connection file: ${field} is required`);
  });

  it('ConnectionFileVersion must be "1.0"', () => {
    for (const version of ['2.0', '1', 1, 1.0, '', null])
      expect(onlyError({ ...BASE, ConnectionFileVersion: version }, 'ConnectionFileVersion')).toBe(
        'connection file: ConnectionFileVersion must be "1.0"',
      );
    expect(onlyError(without('ConnectionFileVersion'), 'ConnectionFileVersion')).toBe(
      'connection file: ConnectionFileVersion is required',
    );
  });

  it('every problem is reported at once, each naming its field', () => {
    const errors = errorsOf({
      ...BASE,
      SiteName: '',
      ApplicationName: 'x'.repeat(257),
      BlobAPIKey: 7,
      ContainerType: 'avi',
    });
    expect(errors).toHaveLength(4);
    expect(errors.join('\n')).toEqual(expect.stringContaining('SiteName'));
    for (const field of ['SiteName', 'ApplicationName', 'BlobAPIKey', 'ContainerType'])
      expect(errors.some((e) => e.includes(field))).toBe(true);
  });

  it('messages carry the source name given', () => {
    expect(errorsOf(JSON.stringify({ ...BASE, SiteName: '' })).length).toBe(1);
    const result = parse({ ...BASE, SiteName: '' }, 'site.json');
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'INVALID',
        message: 'site.json: SiteName must not be empty',
        errors: ['site.json: SiteName must not be empty'],
      },
    });
  });
});

describe('booleans', () => {
  it.each(['ContentDestinationAsNTPServer', 'FullStoreAndReadSupport', 'WantEncryption'])(
    '%s must be true or false (default false)',
    (field) => {
      const result = parse({ ...BASE });
      expect(result.ok && (result.value as unknown as Fields)[field]).toBe(false);
      for (const value of ['true', 1, 0, null, 'yes'])
        expect(onlyError({ ...BASE, [field]: value }, field)).toBe(`connection file: ${field} must be true or false`);
    },
  );
});

describe('AuthenticationTokenURI', () => {
  const uris = (n: number) => Array.from({ length: n }, (_, i) => `http://dest${i}.example/auth/v1.0`);

  it('holds 1 to 10 URLs, in order', () => {
    for (const n of [1, 2, 10]) {
      const result = parse({ ...BASE, AuthenticationTokenURI: uris(n) });
      expect(result.ok && result.value.AuthenticationTokenURI).toEqual(uris(n));
    }
    expect(onlyError({ ...BASE, AuthenticationTokenURI: [] }, 'AuthenticationTokenURI')).toBe(
      'connection file: AuthenticationTokenURI needs at least 1 URL',
    );
    expect(onlyError({ ...BASE, AuthenticationTokenURI: uris(11) }, 'AuthenticationTokenURI')).toBe(
      'connection file: AuthenticationTokenURI holds at most 10 URLs',
    );
  });

  it('is a list of strings', () => {
    expect(onlyError({ ...BASE, AuthenticationTokenURI: 'http://a' }, 'AuthenticationTokenURI')).toBe(
      'connection file: AuthenticationTokenURI must be a list of URLs',
    );
    expect(errorsOf({ ...BASE, AuthenticationTokenURI: 'http://a.example/auth/v1.0' })[0]).toBe(
      'connection file: AuthenticationTokenURI must be a list of URLs',
    );
    expect(onlyError({ ...BASE, AuthenticationTokenURI: [5] }, 'AuthenticationTokenURI')).toBe(
      'connection file: AuthenticationTokenURI entries must be strings',
    );
    expect(onlyError(without('AuthenticationTokenURI'), 'AuthenticationTokenURI')).toBe(
      'connection file: AuthenticationTokenURI is required',
    );
  });

  it('a single string instead of a list gets exactly one message', () => {
    for (const value of ['http://a.example/auth/v1.0', '', { length: 20 }]) {
      expect(errorsOf({ ...BASE, AuthenticationTokenURI: value })).toEqual([
        'connection file: AuthenticationTokenURI must be a list of URLs',
      ]);
    }
  });

  it.each([
    'http://127.0.0.1:8080/auth/v1.0',
    'https://dest.example/auth/v1.0',
    'HTTPS://DEST.EXAMPLE/auth/v1.0',
    'http://[::1]:8080/auth/v1.0',
    'http://dest.example',
  ])('accepts %s', (uri) => {
    expect(parse({ ...BASE, AuthenticationTokenURI: [uri] }).ok).toBe(true);
  });

  it.each([
    'ftp://dest.example/auth',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'dest.example/auth/v1.0',
    'http:/dest.example',
    'http://',
    'http://a b/auth',
    '',
    'ws://dest.example/auth',
  ])('refuses %j, naming it', (uri) => {
    expect(onlyError({ ...BASE, AuthenticationTokenURI: [uri] }, 'AuthenticationTokenURI')).toBe(
      `connection file: AuthenticationTokenURI "${uri}" is not an http(s) URL`,
    );
  });

  it('names the bad entry among good ones', () => {
    const errors = errorsOf({
      ...BASE,
      AuthenticationTokenURI: ['http://ok.example/auth/v1.0', 'gopher://bad.example/'],
    });
    expect(errors).toEqual(['connection file: AuthenticationTokenURI "gopher://bad.example/" is not an http(s) URL']);
  });
});

describe('HTTPSCertificate', () => {
  const https = { ...BASE, AuthenticationTokenURI: ['https://127.0.0.1:8443/auth/v1.0'] };

  it('accepts base64 of a PEM certificate (also line-wrapped) and decodes it for trust', () => {
    const encoded = pemToBase64(certificate);
    const wrapped = encoded.replace(/(.{76})/g, '$1\n');
    for (const entry of [encoded, wrapped]) {
      const result = parse({ ...https, HTTPSCertificate: [entry] });
      expect(result.ok).toBe(true);
      if (result.ok) expect(trustedCertificates(result.value)).toEqual([certificate]);
    }
  });

  it('no certificates: nothing extra to trust', () => {
    const result = parse({ ...https });
    expect(result.ok && trustedCertificates(result.value)).toEqual([]);
  });

  it.each([
    ['the PEM itself, not base64', () => certificate],
    ['base64 of text that is no PEM', () => Buffer.from('hello').toString('base64')],
    [
      'base64 of a PEM header around garbage',
      () => pemToBase64('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n'),
    ],
    ['base64 of a private key', () => pemToBase64('-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n')],
    ['not base64 at all', () => '!!!'],
    ['empty', () => ''],
  ])('refuses %s', (_, entry) => {
    expect(onlyError({ ...https, HTTPSCertificate: [entry()] }, 'HTTPSCertificate')).toBe(
      'connection file: HTTPSCertificate entries must be base64 of a PEM certificate',
    );
  });

  it('must be a list of strings', () => {
    expect(onlyError({ ...https, HTTPSCertificate: pemToBase64(certificate) }, 'HTTPSCertificate')).toBe(
      'connection file: HTTPSCertificate must be a list of base64 PEM certificates',
    );
    expect(onlyError({ ...https, HTTPSCertificate: [42] }, 'HTTPSCertificate')).toBe(
      'connection file: HTTPSCertificate entries must be strings',
    );
  });

  it('makes no sense without an https AuthenticationTokenURI', () => {
    expect(onlyError({ ...BASE, HTTPSCertificate: [pemToBase64(certificate)] }, 'HTTPSCertificate')).toBe(
      'connection file: HTTPSCertificate is given but no AuthenticationTokenURI uses https',
    );
    expect(
      parse({
        ...BASE,
        AuthenticationTokenURI: ['http://a.example/auth/v1.0', 'https://b.example/auth/v1.0'],
        HTTPSCertificate: [pemToBase64(certificate)],
      }).ok,
    ).toBe(true);
  });
});

describe('ContainerType', () => {
  it('is mkv (default) or mp4', () => {
    for (const type of ['mkv', 'mp4']) {
      const result = parse({ ...BASE, ContainerType: type });
      expect(result.ok && result.value.ContainerType).toBe(type);
    }
    for (const type of ['MKV', 'avi', 'mov', '', 1, null])
      expect(onlyError({ ...BASE, ContainerType: type }, 'ContainerType')).toBe(
        'connection file: ContainerType must be "mkv" or "mp4"',
      );
  });
});

describe('encryption', () => {
  it('WantEncryption needs PublicKey and PublicKeyId', () => {
    expect(parse({ ...BASE, WantEncryption: true, PublicKey: 'pk', PublicKeyId: 'id' }).ok).toBe(true);
    for (const extra of [
      {},
      { PublicKey: 'pk' },
      { PublicKeyId: 'id' },
      { PublicKey: '', PublicKeyId: 'id' },
      { PublicKey: 'pk', PublicKeyId: '' },
    ]) {
      expect(onlyError({ ...BASE, WantEncryption: true, ...extra }, 'WantEncryption')).toBe(
        'connection file: WantEncryption needs PublicKey and PublicKeyId',
      );
    }
  });

  it('without WantEncryption, empty keys are ignored silently and given ones with a warning', () => {
    for (const extra of [
      { PublicKey: '' },
      { PublicKeyId: '' },
      { PublicKey: '', PublicKeyId: '' },
      { PublicKey: '', PublicKeyId: '', WantEncryption: false },
    ]) {
      const result = parse({ ...BASE, ...extra });
      expect(result.ok && result.warnings).toEqual([]);
      expect(result.ok && ('PublicKey' in result.value || 'PublicKeyId' in result.value)).toBe(false);
    }
    const cases: [Fields, string][] = [
      [{ PublicKey: 'pk' }, 'PublicKey'],
      [{ PublicKeyId: 'id', PublicKey: '' }, 'PublicKeyId'],
      [{ PublicKey: 'pk', PublicKeyId: 'id', WantEncryption: false }, 'PublicKey and PublicKeyId'],
    ];
    for (const [extra, named] of cases) {
      const result = parse({ ...BASE, ...extra });
      expect(result.ok && result.warnings).toEqual([
        `connection file: ${named} ignored: they go only with WantEncryption: true`,
      ]);
      expect(result.ok && ('PublicKey' in result.value || 'PublicKeyId' in result.value)).toBe(false);
    }
  });

  it('the keys are strings', () => {
    expect(errorsOf({ ...BASE, WantEncryption: true, PublicKey: 5, PublicKeyId: 'id' })).toEqual([
      'connection file: PublicKey must be a string',
    ]);
    expect(errorsOf({ ...BASE, WantEncryption: true, PublicKey: 'pk', PublicKeyId: ['id'] })).toEqual([
      'connection file: PublicKeyId must be a string',
    ]);
  });
});

describe('the file as a whole', () => {
  it('unknown fields are ignored with a warning naming them (and the field one differs from only in case)', () => {
    const result = parse({ ...BASE, Foo: 1, BlobAPIPassword: 'x' });
    expect(result.ok && result.warnings).toEqual(['connection file: unknown field(s) ignored: Foo, BlobAPIPassword']);
    expect(result.ok && Object.keys(result.value)).not.toContain('Foo');
    expect(parse({ ...BASE, ContainerType: 'mp4', containertype: 'mkv' })).toMatchObject({
      ok: true,
      value: { ContainerType: 'mp4' },
      warnings: ['connection file: unknown field(s) ignored: containertype (did you mean ContainerType?)'],
    });
    // A field spelt in the wrong case does not count as the field: it is still missing.
    expect(errorsOf({ ...without('SiteName'), sitename: 'x' })).toEqual(['connection file: SiteName is required']);
  });

  it('more than 64 kB is refused before it is parsed, counting bytes not characters', () => {
    const json = JSON.stringify(BASE);
    const over = `${json}${' '.repeat(MAX_CONNECTION_FILE_BYTES - Buffer.byteLength(json) + 1)}`;
    expect(errorsOf(over)).toEqual([`connection file: ${64 * 1024 + 1} bytes; a connection file is at most 64 kB`]);
    // 40 000 characters of two bytes each: 80 000 bytes.
    const wide = `{"SiteName":"${'é'.repeat(40_000)}"}`;
    expect(wide.length).toBeLessThan(MAX_CONNECTION_FILE_BYTES);
    expect(errorsOf(wide)[0]).toMatch(/^connection file: \d+ bytes; a connection file is at most 64 kB$/);
    // Not even JSON: the size is what is reported.
    expect(errorsOf('x'.repeat(MAX_CONNECTION_FILE_BYTES + 1))[0]).toMatch(/at most 64 kB/);
  });

  it.each(['', '{', 'SiteName: x', "{'SiteName': 'x'}", '{"a":1,}', 'undefined', '\uFEFF'])(
    'text that is not JSON (%j) is refused as such',
    (text) => {
      const errors = errorsOf(text);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatch(/^connection file: not JSON: /);
    },
  );

  it.each(['[]', 'null', '5', '"text"', 'true', JSON.stringify([BASE])])(
    'JSON that is no object (%s) is refused as such',
    (text) => {
      expect(errorsOf(text)).toEqual(['connection file: a connection file is a JSON object']);
    },
  );

  it('checkConnectionFile takes an object already parsed', () => {
    expect(checkConnectionFile({ ...BASE }).ok).toBe(true);
    expect(checkConnectionFile(undefined, 'x')).toEqual({
      ok: false,
      error: {
        code: 'INVALID',
        message: 'x: a connection file is a JSON object',
        errors: ['x: a connection file is a JSON object'],
      },
    });
  });
});

/** Every field of the reference. */
const KNOWN = [
  ...Object.keys(BASE),
  'ContentDestinationAsNTPServer',
  'HTTPSCertificate',
  'ContainerType',
  'FullStoreAndReadSupport',
  'WantEncryption',
  'PublicKey',
  'PublicKeyId',
];

describe('never throws (properties)', () => {
  const check = (result: ReturnType<typeof parseConnectionFile>) => {
    expect(typeof result.ok).toBe('boolean');
    if (!result.ok) {
      expect(result.error.errors.length).toBeGreaterThan(0);
      for (const error of result.error.errors) expect(error).toMatch(/^connection file: ./);
    }
  };

  it('on any text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' })), (text) => {
        check(parseConnectionFile(text));
        check(parseConnectionFile(`\uFEFF${text}`));
      }),
      propertyRuns(300),
    );
  });

  it('on any JSON', () => {
    fc.assert(
      fc.property(fc.json(), (text) => check(parseConnectionFile(text))),
      propertyRuns(300),
    );
  });

  it('on a valid file with any field replaced by any JSON value or removed, or any field added', () => {
    const field = fc.constantFrom(
      ...Object.keys(BASE),
      'HTTPSCertificate',
      'ContainerType',
      'WantEncryption',
      'PublicKey',
      'PublicKeyId',
      'FullStoreAndReadSupport',
      'ContentDestinationAsNTPServer',
      '__proto__',
      'constructor',
      'toString',
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(field, fc.option(fc.jsonValue(), { nil: undefined })), { maxLength: 4 }),
        fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 3 }),
        (changes, added) => {
          const fields: Fields = { ...BASE, ...added };
          for (const [name, value] of changes) {
            if (value === undefined) delete fields[name];
            else Object.defineProperty(fields, name, { value, enumerable: true, configurable: true, writable: true });
          }
          const result = parseConnectionFile(JSON.stringify(fields));
          check(result);
          // Fields it does not know are named in a warning, never an error.
          const unknown = Object.keys(fields).filter((k) => !KNOWN.includes(k));
          if (result.ok)
            expect(result.warnings.some((w) => w.includes('unknown field(s) ignored')) || !unknown.length).toBe(true);
          else expect(result.error.message).not.toContain('unknown field');
          // Anything accepted is within the limits.
          if (result.ok) {
            expect(result.value.SiteName.length).toBeLessThanOrEqual(64);
            expect(result.value.AuthenticationTokenURI.length).toBeGreaterThanOrEqual(1);
            expect(['mkv', 'mp4']).toContain(result.value.ContainerType);
          }
        },
      ),
      propertyRuns(300),
    );
  });

  it('any file within the limits is accepted and read back as written', () => {
    const text = (max: number) => fc.string({ minLength: 1, maxLength: max });
    fc.assert(
      fc.property(
        fc.record({
          ConnectionFileVersion: fc.constant('1.0' as const),
          SiteName: text(64),
          ApplicationName: text(256),
          ApplicationVersion: text(128),
          ContentDestinationAsNTPServer: fc.boolean(),
          AuthenticationTokenURI: fc.array(fc.webUrl({ validSchemes: ['http', 'https'] }), {
            minLength: 1,
            maxLength: 10,
          }),
          BlobAPIUserName: text(64),
          BlobAPIKey: text(64),
          ContainerType: fc.constantFrom('mkv' as const, 'mp4' as const),
          FullStoreAndReadSupport: fc.boolean(),
          WantEncryption: fc.constant(false),
        }),
        (file) => {
          expect(parseConnectionFile(JSON.stringify(file))).toEqual({ ok: true, value: file, warnings: [] });
        },
      ),
      propertyRuns(200),
    );
  });
});
