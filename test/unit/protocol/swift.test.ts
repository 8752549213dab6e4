import fc from 'fast-check';
import {
  canonicalHeaderName,
  isMd5Hex,
  metadataHeaders,
  metadataProblem,
  parseListingQuery,
  parseSwiftPath,
  readMetadata,
  selectListing,
  SWIFT_LIMITS,
  unquoteEtag,
  type ListingEntry,
  type ListingQuery,
  type SwiftMetadata,
  type SwiftPath,
  type SwiftRefusal,
} from '../../../src/protocol/swift';
import { propertyRuns } from '../../helpers/fast-check-config';

function accepted(rawPath: string): SwiftPath {
  const result = parseSwiftPath(rawPath);
  if (!result.ok)
    throw new Error(
      `expected ${JSON.stringify(rawPath)} to be accepted: ${result.error.status} ${result.error.message}`,
    );
  return result.value;
}

function refused(rawPath: string): SwiftRefusal {
  const result = parseSwiftPath(rawPath);
  if (result.ok)
    throw new Error(`expected ${JSON.stringify(rawPath)} to be refused, got ${JSON.stringify(result.value)}`);
  return result.error;
}

function query(text: string, accept?: string): ListingQuery {
  const result = parseListingQuery(new URLSearchParams(text), accept);
  if (!result.ok)
    throw new Error(`expected ${JSON.stringify(text)} to be accepted: ${result.error.status} ${result.error.message}`);
  return result.value;
}

function queryRefusal(text: string, accept?: string): SwiftRefusal {
  const result = parseListingQuery(new URLSearchParams(text), accept);
  if (result.ok) throw new Error(`expected ${JSON.stringify(text)} to be refused, got ${JSON.stringify(result.value)}`);
  return result.error;
}

/** A listing query with the defaults of an empty query string, overridden by `overrides`. */
function listing(overrides: Partial<ListingQuery> = {}): ListingQuery {
  return { ...query(''), ...overrides };
}

/** Entries as plain names: items by name, subdirs as `subdir:<name>`. */
function names(entries: ListingEntry<{ name: string }>[]): string[] {
  return entries.map((entry) => ('item' in entry ? entry.item.name : `subdir:${entry.subdir}`));
}

function items(...list: string[]): { name: string }[] {
  return list.map((name) => ({ name }));
}

describe('parseSwiftPath: what the path names', () => {
  it('reads an account path, with or without a trailing slash', () => {
    expect(accepted('/v1/AUTH_test')).toEqual({ kind: 'account', account: 'AUTH_test' });
    expect(accepted('/v1/AUTH_test/')).toEqual({ kind: 'account', account: 'AUTH_test' });
  });

  it('reads a container path, with or without a trailing slash', () => {
    expect(accepted('/v1/AUTH_test/Users')).toEqual({ kind: 'container', account: 'AUTH_test', container: 'Users' });
    expect(accepted('/v1/AUTH_test/Users/')).toEqual({ kind: 'container', account: 'AUTH_test', container: 'Users' });
  });

  it('reads an object path', () => {
    expect(accepted('/v1/AUTH_test/System/Capabilities.json')).toEqual({
      kind: 'object',
      account: 'AUTH_test',
      container: 'System',
      object: 'Capabilities.json',
    });
  });

  it("keeps '/' inside object names, including a trailing one", () => {
    expect(accepted('/v1/a/c/dir/sub/clip.mkv')).toEqual({
      kind: 'object',
      account: 'a',
      container: 'c',
      object: 'dir/sub/clip.mkv',
    });
    expect(accepted('/v1/a/c/dir/')).toEqual({ kind: 'object', account: 'a', container: 'c', object: 'dir/' });
    expect(accepted('/v1/a/c/a//b')).toEqual({ kind: 'object', account: 'a', container: 'c', object: 'a//b' });
  });

  it('percent-decodes every part', () => {
    expect(accepted('/v1/AUTH%5Ftest/my%20container/caf%C3%A9%2Fclip%20one.mp4')).toEqual({
      kind: 'object',
      account: 'AUTH_test',
      container: 'my container',
      object: 'café/clip one.mp4',
    });
  });

  it('allows dots that are not whole segments', () => {
    expect(accepted('/v1/a/c/...').kind).toBe('object');
    expect(accepted('/v1/a/c/.hidden/x..y/a.').kind).toBe('object');
    expect(accepted('/v1/a/.c').kind).toBe('container');
  });

  it.each(['/', '', '/v1', '/v2/a/c', '/V1/a/c', 'v1/a/c', '/info', '/auth/v1.0', ' /v1/a'])(
    'refuses %j with 404',
    (path) => {
      expect(refused(path).status).toBe(404);
    },
  );

  it('refuses a missing account or container with 400', () => {
    expect(refused('/v1/').status).toBe(400);
    expect(refused('/v1//c').status).toBe(400);
    expect(refused('/v1/a//o').status).toBe(400);
  });
});

describe('parseSwiftPath: names that could leave their container', () => {
  it.each([
    '/v1/a/c/..',
    '/v1/a/c/.',
    '/v1/a/c/../x',
    '/v1/a/c/x/../../y',
    '/v1/a/c/x/./y',
    '/v1/a/c/x/..',
    '/v1/a/c/x/.',
    '/v1/a/c/%2e%2e',
    '/v1/a/c/%2E%2E',
    '/v1/a/c/%2e',
    '/v1/a/c/x/%2e%2e/y',
    '/v1/a/c/x/%2E%2e/y',
    '/v1/a/c/x%2F..%2Fy',
    '/v1/a/c/x%2f%2e%2e',
    '/v1/a/..',
    '/v1/a/.',
    '/v1/a/%2e%2e',
    '/v1/a/%2E%2E/o',
    '/v1/../c/o',
    '/v1/./c',
    '/v1/%2e%2e/c/o',
  ])('refuses the dot segment in %j with 400', (path) => {
    expect(refused(path).status).toBe(400);
  });

  it.each(['/v1/a/c/x%00y', '/v1/a/c/%00', '/v1/a/c%00/o', '/v1/a%00/c/o'])('refuses NUL in %j with 400', (path) => {
    expect(refused(path).status).toBe(400);
  });

  it.each(['/v1/a/c/x%5cy', '/v1/a/c/x%5Cy', '/v1/a/c/..%5c..%5cetc', '/v1/a/c/x\\y', '/v1/a/c%5c/o', '/v1/a%5cb/c'])(
    'refuses the backslash in %j with 400',
    (path) => {
      expect(refused(path).status).toBe(400);
    },
  );

  it.each(['/v1/a/c//etc/passwd', '/v1/a/c/%2Fetc/passwd', '/v1/a/c/%2fx', '/v1/a/c//'])(
    'refuses the absolute object name in %j with 400',
    (path) => {
      expect(refused(path).status).toBe(400);
    },
  );

  it.each(['/v1/..%2F..%2Fetc/c/o', '/v1/a%2F..%2Fb/c', '/v1/%2Fetc/c/o', '/v1/a%2Fb'])(
    'refuses the account holding an encoded slash in %j with 400',
    (path) => {
      expect(refused(path).status).toBe(400);
    },
  );

  it('refuses a container name holding an encoded slash', () => {
    expect(refused('/v1/a/c%2Fd/o').status).toBe(400);
    expect(refused('/v1/a/c%2fd').status).toBe(400);
  });

  it.each([
    '/v1/a/c/%ff',
    '/v1/a/c/%FF',
    '/v1/a/c/%C3',
    '/v1/a/c/%C3%28',
    '/v1/a/c/%ED%A0%80',
    '/v1/a/%ff/o',
    '/v1/%ff',
    '/v1/a/c/%',
    '/v1/a/c/%zz',
    '/v1/a/c/%4',
  ])('refuses invalid UTF-8 or a broken escape in %j with 400', (path) => {
    expect(refused(path).status).toBe(400);
  });

  it('refuses a decoded U+FFFD (what a lenient decoder makes of invalid UTF-8)', () => {
    expect(refused('/v1/a/c/%EF%BF%BD').status).toBe(400);
  });
});

describe('parseSwiftPath: name lengths, counted in UTF-8 bytes', () => {
  it(`accepts a container name of ${SWIFT_LIMITS.maxContainerNameBytes} bytes and refuses one more`, () => {
    expect(accepted(`/v1/a/${'c'.repeat(256)}`)).toEqual({
      kind: 'container',
      account: 'a',
      container: 'c'.repeat(256),
    });
    expect(accepted(`/v1/a/${'c'.repeat(256)}/o`).kind).toBe('object');
    expect(refused(`/v1/a/${'c'.repeat(257)}`).status).toBe(400);
    expect(refused(`/v1/a/${'c'.repeat(257)}/o`).status).toBe(400);
  });

  it('counts multi-byte characters of a container name in bytes', () => {
    // 'é' is 2 bytes: 128 of them are 256 bytes, 129 are 258.
    expect(accepted(`/v1/a/${'%C3%A9'.repeat(128)}`).kind).toBe('container');
    expect(refused(`/v1/a/${'%C3%A9'.repeat(129)}`).status).toBe(400);
    expect(refused(`/v1/a/${'é'.repeat(129)}`).status).toBe(400);
  });

  it(`accepts an object name of ${SWIFT_LIMITS.maxObjectNameBytes} bytes and refuses one more`, () => {
    expect(accepted(`/v1/a/c/${'o'.repeat(1024)}`)).toEqual({
      kind: 'object',
      account: 'a',
      container: 'c',
      object: 'o'.repeat(1024),
    });
    expect(refused(`/v1/a/c/${'o'.repeat(1025)}`).status).toBe(400);
  });

  it('counts multi-byte characters of an object name in bytes, not characters', () => {
    // 'é' is 2 bytes: 512 are 1024 bytes, 513 are 1026; '€' is 3 bytes: 341 are 1023, 342 are 1026.
    expect(accepted(`/v1/a/c/${'%C3%A9'.repeat(512)}`).kind).toBe('object');
    expect(refused(`/v1/a/c/${'%C3%A9'.repeat(513)}`).status).toBe(400);
    expect(accepted(`/v1/a/c/${'€'.repeat(341)}`).kind).toBe('object');
    expect(refused(`/v1/a/c/${'€'.repeat(342)}`).status).toBe(400);
    expect(refused(`/v1/a/c/x${'é'.repeat(512)}`).status).toBe(400);
  });

  it('measures the decoded name, not the escaped one', () => {
    // 1024 bytes once decoded, 3072 characters as sent.
    expect(accepted(`/v1/a/c/${'%41'.repeat(1024)}`).kind).toBe('object');
  });
});

describe('parseSwiftPath: properties', () => {
  /** Pieces that exercise the decoder and the segment checks more often than random text would. */
  const piece = fc.oneof(
    fc.constantFrom(
      '/',
      '//',
      '.',
      '..',
      '%2e',
      '%2E',
      '%2e%2e',
      '%2E%2E',
      '%2f',
      '%2F',
      '%00',
      '%5c',
      '%5C',
      '\\',
      '%ff',
      '%C3%A9',
      '%E2%82%AC',
      '%',
      '%2',
      'a',
      'v1',
      '\0',
      '\ufffd',
    ),
    fc
      .tuple(fc.constantFrom(...'0123456789abcdefABCDEFgz%'), fc.constantFrom(...'0123456789abcdefABCDEFgz%'))
      .map(([h, l]) => `%${h}${l}`),
    fc.string({ maxLength: 6 }),
    fc.string({ unit: 'binary', maxLength: 4 }),
  );
  /** Mostly harmless pieces with the dangerous ones mixed in, so that many object paths pass. */
  const objectPiece = fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom('a', 'b', 'x.y', '...', '/', '%2f', '%20', '%C3%A9', '-', '_') },
    { weight: 3, arbitrary: fc.constantFrom('.', '..', '%2e', '%2E', '%2e%2e', '%2E%2E', '/', '//', '%2F') },
    { weight: 1, arbitrary: piece },
  );
  const accountPart = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom('AUTH_test', 'a') },
    { weight: 1, arbitrary: fc.constantFrom('.', '..', '%2e%2e', 'a%5c', '') },
  );
  const containerPart = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom('c', 'Users') },
    { weight: 1, arbitrary: fc.constantFrom('.', '%2E', 'c%5c', 'c%2fd', '') },
  );
  const structured = fc
    .tuple(accountPart, containerPart, fc.array(objectPiece, { minLength: 1, maxLength: 10 }))
    .map(([account, container, object]) => `/v1/${account}/${container}/${object.join('')}`);
  const pathLike = fc.oneof(
    fc.array(piece, { maxLength: 14 }).map((list) => `/v1/${list.join('')}`),
    structured,
    structured,
  );
  const anyPath = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), pathLike, pathLike, pathLike);

  it('never throws, and refuses only with 400 or 404 and a message', () => {
    fc.assert(
      fc.property(anyPath, (path) => {
        const result = parseSwiftPath(path);
        if (!result.ok) {
          expect([400, 404]).toContain(result.error.status);
          expect(result.error.message.length).toBeGreaterThan(0);
          if (!path.startsWith('/v1/')) expect(result.error.status).toBe(404);
        } else {
          expect(path.startsWith('/v1/')).toBe(true);
        }
      }),
      propertyRuns(3000),
    );
  });

  it('an accepted object name has no "." or ".." segment, no NUL, no backslash, no leading "/"', () => {
    fc.assert(
      fc.property(pathLike, (path) => {
        const result = parseSwiftPath(path);
        if (!result.ok || result.value.kind !== 'object') return;
        const { account, container, object } = result.value;
        expect(object.split('/').every((segment) => segment !== '.' && segment !== '..')).toBe(true);
        expect(object).not.toContain('\0');
        expect(object).not.toContain('\\');
        expect(object.startsWith('/')).toBe(false);
        expect(object.length).toBeGreaterThan(0);
        expect(Buffer.byteLength(object)).toBeLessThanOrEqual(SWIFT_LIMITS.maxObjectNameBytes);
        for (const name of [account, container]) {
          expect(['', '.', '..']).not.toContain(name);
          expect(name).not.toContain('\0');
          expect(name).not.toContain('\\');
        }
        expect(container).not.toContain('/');
      }),
      propertyRuns(5000),
    );
  });

  it('accepts every object path built from safe segments, and gives the segments back', () => {
    const segment = fc.stringMatching(/^[A-Za-z0-9_.~ -]{1,12}$/).filter((s) => s !== '.' && s !== '..');
    fc.assert(
      fc.property(
        segment,
        segment,
        fc.array(segment, { minLength: 1, maxLength: 5 }),
        (account, container, objectSegments) => {
          const object = objectSegments.join('/');
          const path = `/v1/${encodeURIComponent(account)}/${encodeURIComponent(container)}/${objectSegments.map(encodeURIComponent).join('/')}`;
          expect(accepted(path)).toEqual({ kind: 'object', account, container, object });
        },
      ),
      propertyRuns(1000),
    );
  });
});

describe('readMetadata', () => {
  it('reads X-{Kind}-Meta-* from lower-cased header names, trimming values', () => {
    const update = readMetadata(
      {
        'x-container-meta-triggerontimeiso': '2024-01-02T03:04:05Z',
        'x-container-meta-user': '  alice  ',
        'content-type': 'text/plain',
        'x-container-read': '.r:*',
      },
      'container',
    );
    expect([...update.set]).toEqual([
      ['triggerontimeiso', '2024-01-02T03:04:05Z'],
      ['user', 'alice'],
    ]);
    expect(update.remove).toEqual([]);
  });

  it('keeps values exactly as sent (clients URL-encode UTF-8 themselves)', () => {
    const update = readMetadata({ 'x-object-meta-name': 'caf%C3%A9 a+b' }, 'object');
    expect(update.set.get('name')).toBe('caf%C3%A9 a+b');
  });

  it('treats an empty or blank value as removal', () => {
    const update = readMetadata(
      { 'x-container-meta-gone': '', 'x-container-meta-blank': '   ', 'x-container-meta-kept': 'v' },
      'container',
    );
    expect([...update.set]).toEqual([['kept', 'v']]);
    expect(update.remove.sort()).toEqual(['blank', 'gone']);
  });

  it('reads X-Remove-{Kind}-Meta-* as removal, whatever its value', () => {
    const update = readMetadata(
      { 'x-remove-container-meta-old': 'x', 'x-remove-container-meta-older': '' },
      'container',
    );
    expect(update.set.size).toBe(0);
    expect(update.remove.sort()).toEqual(['old', 'older']);
  });

  it('joins array values with ", "', () => {
    const update = readMetadata({ 'x-object-meta-tags': ['a', 'b', 'c'] }, 'object');
    expect(update.set.get('tags')).toBe('a, b, c');
  });

  it('skips undefined values', () => {
    const update = readMetadata(
      { 'x-object-meta-missing': undefined, 'x-remove-object-meta-missing': undefined },
      'object',
    );
    expect(update.set.size).toBe(0);
    expect(update.remove).toEqual([]);
  });

  it('does not read another kind’s metadata', () => {
    const headers = {
      'x-account-meta-a': '1',
      'x-container-meta-c': '2',
      'x-object-meta-o': '3',
      'x-remove-account-meta-ra': 'x',
      'x-remove-container-meta-rc': 'x',
      'x-remove-object-meta-ro': 'x',
    };
    expect(readMetadata(headers, 'account')).toEqual({ set: new Map([['a', '1']]), remove: ['ra'] });
    expect(readMetadata(headers, 'container')).toEqual({ set: new Map([['c', '2']]), remove: ['rc'] });
    expect(readMetadata(headers, 'object')).toEqual({ set: new Map([['o', '3']]), remove: ['ro'] });
  });

  it('ignores look-alike headers without the full prefix', () => {
    const update = readMetadata(
      { 'x-container-meta': 'v', 'x-containermeta-a': 'v', 'container-meta-a': 'v', 'x-remove-container-meta': 'v' },
      'container',
    );
    expect(update.set.size).toBe(0);
    expect(update.remove).toEqual([]);
  });
});

describe('metadataProblem', () => {
  const meta = (entries: [string, string][]): SwiftMetadata => new Map(entries);

  it('accepts empty and ordinary metadata', () => {
    expect(metadataProblem(meta([]), 'container')).toBeUndefined();
    expect(metadataProblem(meta([['triggerontimeiso', '2024-01-02T03:04:05Z']]), 'container')).toBeUndefined();
  });

  it('refuses an empty name', () => {
    expect(metadataProblem(meta([['', 'v']]), 'object')).toEqual(expect.any(String));
  });

  it(`accepts a name of ${SWIFT_LIMITS.maxMetaNameBytes} bytes and refuses 129`, () => {
    expect(metadataProblem(meta([['n'.repeat(128), 'v']]), 'container')).toBeUndefined();
    const problem = metadataProblem(meta([['n'.repeat(129), 'v']]), 'container');
    expect(problem).toContain('X-Container-Meta-');
    expect(problem).toContain('128');
  });

  it('counts name bytes, not characters', () => {
    expect(metadataProblem(meta([['é'.repeat(64), 'v']]), 'object')).toBeUndefined();
    expect(metadataProblem(meta([['é'.repeat(65), 'v']]), 'object')).toEqual(expect.any(String));
  });

  it(`accepts a value of ${SWIFT_LIMITS.maxMetaValueBytes} bytes and refuses 257`, () => {
    expect(metadataProblem(meta([['k', 'v'.repeat(256)]]), 'object')).toBeUndefined();
    const problem = metadataProblem(meta([['k', 'v'.repeat(257)]]), 'object');
    expect(problem).toContain('X-Object-Meta-K');
    expect(problem).toContain('256');
    expect(metadataProblem(meta([['k', '€'.repeat(86)]]), 'object')).toEqual(expect.any(String));
  });

  it(`accepts ${SWIFT_LIMITS.maxMetaCount} items and refuses 91`, () => {
    const entries = (n: number): [string, string][] => Array.from({ length: n }, (_, i) => [`k${i}`, 'v']);
    expect(metadataProblem(meta(entries(90)), 'container')).toBeUndefined();
    expect(metadataProblem(meta(entries(91)), 'container')).toContain('90');
  });

  it(`accepts ${SWIFT_LIMITS.maxMetaOverallBytes} bytes of names and values overall and refuses one more`, () => {
    // 16 items of a 3-byte name and a 253-byte value: 16 * 256 = 4096 bytes.
    const entries: [string, string][] = Array.from({ length: 16 }, (_, i) => [
      `k${String(i).padStart(2, '0')}`,
      'v'.repeat(253),
    ]);
    expect(metadataProblem(meta(entries), 'container')).toBeUndefined();
    const over: [string, string][] = [...entries.slice(0, 15), ['k15', 'v'.repeat(254)]];
    expect(metadataProblem(meta(over), 'container')).toContain('4096');
    expect(metadataProblem(meta([...entries, ['x', '']]), 'container')).toContain('4096');
  });
});

describe('canonicalHeaderName and metadataHeaders', () => {
  it.each([
    ['x-container-meta-triggerontimeiso', 'X-Container-Meta-Triggerontimeiso'],
    ['X-OBJECT-META-FOO-BAR', 'X-Object-Meta-Foo-Bar'],
    ['x-object-meta-foo-bar', 'X-Object-Meta-Foo-Bar'],
    ['content-type', 'Content-Type'],
    ['etag', 'Etag'],
    ['x-account-meta-1abc', 'X-Account-Meta-1abc'],
    ['x-object-meta-a--b', 'X-Object-Meta-A--B'],
  ])('%s -> %s', (name, expected) => {
    expect(canonicalHeaderName(name)).toBe(expected);
  });

  it('writes stored metadata as canonical response headers of its kind', () => {
    const stored: SwiftMetadata = new Map([
      ['triggerontimeiso', '2024-01-02T03:04:05Z'],
      ['foo-bar', 'x y'],
    ]);
    expect(metadataHeaders(stored, 'container')).toEqual({
      'X-Container-Meta-Triggerontimeiso': '2024-01-02T03:04:05Z',
      'X-Container-Meta-Foo-Bar': 'x y',
    });
    expect(metadataHeaders(stored, 'object')).toEqual({
      'X-Object-Meta-Triggerontimeiso': '2024-01-02T03:04:05Z',
      'X-Object-Meta-Foo-Bar': 'x y',
    });
    expect(metadataHeaders(new Map(), 'account')).toEqual({});
  });

  it('round-trips through readMetadata (lower-cased as Node does)', () => {
    const stored: SwiftMetadata = new Map([
      ['userid', 'alice'],
      ['foo-bar', 'baz'],
    ]);
    const lowered = Object.fromEntries(
      Object.entries(metadataHeaders(stored, 'object')).map(([k, v]) => [k.toLowerCase(), v]),
    );
    expect(readMetadata(lowered, 'object')).toEqual({ set: stored, remove: [] });
  });
});

describe('parseListingQuery', () => {
  it('defaults to text, the full limit, no markers, no delimiter, forward', () => {
    expect(query('')).toEqual({
      format: 'text',
      limit: SWIFT_LIMITS.containerListingLimit,
      marker: '',
      endMarker: '',
      prefix: '',
      delimiter: '',
      reverse: false,
    });
  });

  it.each([
    ['format=json', 'json'],
    ['format=JSON', 'json'],
    ['format=plain', 'text'],
    ['format=text', 'text'],
  ] as const)('%s gives %s', (text, format) => {
    expect(query(text).format).toBe(format);
  });

  it('uses Accept: application/json when no format is given', () => {
    expect(query('', 'application/json').format).toBe('json');
    expect(query('', 'text/plain, Application/JSON;q=0.9').format).toBe('json');
    expect(query('', 'text/plain').format).toBe('text');
    expect(query('', '*/*').format).toBe('text');
  });

  it('lets format= override Accept', () => {
    expect(query('format=plain', 'application/json').format).toBe('text');
    expect(query('format=json', 'text/plain').format).toBe('json');
  });

  it('refuses XML with 406', () => {
    expect(queryRefusal('format=xml').status).toBe(406);
    expect(queryRefusal('format=XML').status).toBe(406);
  });

  it.each(['format=yaml', 'format=csv', 'format='])('refuses the unknown format in %j with 400', (text) => {
    expect(queryRefusal(text).status).toBe(400);
  });

  it.each(['limit=0', 'limit=1', 'limit=500', 'limit=10000'])('accepts %s', (text) => {
    expect(query(text).limit).toBe(Number(text.slice('limit='.length)));
  });

  it.each(['limit=abc', 'limit=-1', 'limit=1.5', 'limit=NaN', 'limit=Infinity'])(
    'refuses the bad limit in %j with 412',
    (text) => {
      expect(queryRefusal(text).status).toBe(412);
    },
  );

  it('refuses a limit above the listing limit with 412', () => {
    expect(queryRefusal('limit=10001').status).toBe(412);
    expect(queryRefusal('limit=99999999').status).toBe(412);
  });

  it('reads prefix, marker, end_marker and a one-character delimiter', () => {
    expect(query('prefix=a%2Fb&marker=m&end_marker=z&delimiter=%2F')).toMatchObject({
      prefix: 'a/b',
      marker: 'm',
      endMarker: 'z',
      delimiter: '/',
    });
  });

  it('refuses a delimiter of more than one character with 412', () => {
    expect(queryRefusal('delimiter=ab').status).toBe(412);
  });

  it.each(['1', 'true', 'True', 'yes', 'on', 't', 'y', 'Y'])('reverse=%s is true', (value) => {
    expect(query(`reverse=${value}`).reverse).toBe(true);
  });

  it.each(['', '0', 'false', 'no', 'off', 'reverse', '2'])('reverse=%j is false', (value) => {
    expect(query(`reverse=${value}`).reverse).toBe(false);
  });
});

describe('selectListing', () => {
  const stored = items('a', 'b/1', 'b/2', 'b/3/x', 'c', 'c/1', 'd.mkv', 'd.mp4', 'e/');

  it('with the defaults lists every item in order', () => {
    expect(names(selectListing(stored, listing()))).toEqual(stored.map((i) => i.name));
  });

  it('keeps the item objects themselves', () => {
    const entries = selectListing(stored, listing({ limit: 1 }));
    expect(entries).toEqual([{ item: stored[0] }]);
    expect('item' in entries[0] && entries[0].item).toBe(stored[0]);
  });

  it('filters by prefix', () => {
    expect(names(selectListing(stored, listing({ prefix: 'b/' })))).toEqual(['b/1', 'b/2', 'b/3/x']);
    expect(names(selectListing(stored, listing({ prefix: 'd.' })))).toEqual(['d.mkv', 'd.mp4']);
    expect(names(selectListing(stored, listing({ prefix: 'zz' })))).toEqual([]);
  });

  it('starts strictly after the marker', () => {
    expect(names(selectListing(stored, listing({ marker: 'b/2' })))).toEqual([
      'b/3/x',
      'c',
      'c/1',
      'd.mkv',
      'd.mp4',
      'e/',
    ]);
    expect(names(selectListing(stored, listing({ marker: 'b' })))).toEqual([
      'b/1',
      'b/2',
      'b/3/x',
      'c',
      'c/1',
      'd.mkv',
      'd.mp4',
      'e/',
    ]);
  });

  it('stops strictly before the end marker', () => {
    expect(names(selectListing(stored, listing({ endMarker: 'c' })))).toEqual(['a', 'b/1', 'b/2', 'b/3/x']);
    expect(names(selectListing(stored, listing({ marker: 'a', endMarker: 'b/3/x' })))).toEqual(['b/1', 'b/2']);
  });

  it('folds names containing the delimiter after the prefix into one subdir each', () => {
    expect(names(selectListing(stored, listing({ delimiter: '/' })))).toEqual([
      'a',
      'subdir:b/',
      'c',
      'subdir:c/',
      'd.mkv',
      'd.mp4',
      'subdir:e/',
    ]);
    expect(names(selectListing(stored, listing({ delimiter: '/', prefix: 'b/' })))).toEqual([
      'b/1',
      'b/2',
      'subdir:b/3/',
    ]);
    expect(names(selectListing(stored, listing({ delimiter: '.' })))).toEqual([
      'a',
      'b/1',
      'b/2',
      'b/3/x',
      'c',
      'c/1',
      'subdir:d.',
      'e/',
    ]);
  });

  it('counts a subdir as one entry towards the limit', () => {
    expect(names(selectListing(stored, listing({ delimiter: '/', limit: 2 })))).toEqual(['a', 'subdir:b/']);
    expect(names(selectListing(stored, listing({ delimiter: '/', limit: 3 })))).toEqual(['a', 'subdir:b/', 'c']);
  });

  it('returns at most limit entries, none for limit 0', () => {
    expect(names(selectListing(stored, listing({ limit: 3 })))).toEqual(['a', 'b/1', 'b/2']);
    expect(selectListing(stored, listing({ limit: 0 }))).toEqual([]);
  });

  it('pages through with marker = last name', () => {
    const pages: string[] = [];
    let marker = '';
    for (;;) {
      const page = names(selectListing(stored, listing({ limit: 2, marker })));
      if (page.length === 0) break;
      pages.push(...page);
      marker = page[page.length - 1];
    }
    expect(pages).toEqual(stored.map((i) => i.name));
  });

  it('reverses the order, with marker and end_marker swapping sides', () => {
    expect(names(selectListing(stored, listing({ reverse: true, limit: 3 })))).toEqual(['e/', 'd.mp4', 'd.mkv']);
    expect(names(selectListing(stored, listing({ reverse: true, marker: 'c/1' })))).toEqual([
      'c',
      'b/3/x',
      'b/2',
      'b/1',
      'a',
    ]);
    expect(names(selectListing(stored, listing({ reverse: true, endMarker: 'c' })))).toEqual([
      'e/',
      'd.mp4',
      'd.mkv',
      'c/1',
    ]);
    expect(names(selectListing(stored, listing({ reverse: true, delimiter: '/', prefix: 'b/' })))).toEqual([
      'subdir:b/3/',
      'b/2',
      'b/1',
    ]);
    expect(names(selectListing(stored, listing({ reverse: true, delimiter: '/' })))).toEqual([
      'subdir:e/',
      'd.mp4',
      'd.mkv',
      'subdir:c/',
      'c',
      'subdir:b/',
      'a',
    ]);
  });

  it('does not reorder the caller’s array', () => {
    const copy = [...stored];
    selectListing(stored, listing({ reverse: true }));
    expect(stored).toEqual(copy);
  });

  it('does not list again the subdir a client pages past with marker = subdir', () => {
    expect(names(selectListing(stored, listing({ delimiter: '/', marker: 'b/', limit: 1 })))).toEqual(['c']);
  });
  it('compares markers in UTF-8 byte order, as the items are sorted', () => {
    const byBytes = items('\uFF01', '\u{1F600}');
    expect(names(selectListing(byBytes, listing({ marker: '\uFF01' })))).toEqual(['\u{1F600}']);
    expect(names(selectListing(byBytes, listing({ endMarker: '\u{1F600}' })))).toEqual(['\uFF01']);
  });
});

describe('selectListing: properties', () => {
  const nameArb = fc.stringMatching(/^[ab/.]{1,6}$/);
  const sortedUnique = fc
    .uniqueArray(nameArb, { maxLength: 30 })
    .map((list) => [...list].sort().map((name) => ({ name })));
  const shortText = fc.stringMatching(/^[ab/.]{0,3}$/);

  it('lists names ascending, with the prefix, after the marker, before the end marker, at most limit of them', () => {
    fc.assert(
      fc.property(
        sortedUnique,
        shortText,
        shortText,
        shortText,
        fc.integer({ min: 0, max: 40 }),
        (list, prefix, marker, endMarker, limit) => {
          const out = names(selectListing(list, listing({ prefix, marker, endMarker, limit })));
          expect(out.length).toBeLessThanOrEqual(limit);
          for (let i = 1; i < out.length; i++) expect(out[i - 1] < out[i]).toBe(true);
          for (const name of out) {
            expect(name.startsWith(prefix)).toBe(true);
            if (marker) expect(name > marker).toBe(true);
            if (endMarker) expect(name < endMarker).toBe(true);
          }
          // And nothing is skipped: it is the first `limit` names that qualify.
          const expected = list
            .map((i) => i.name)
            .filter((n) => n.startsWith(prefix) && (!marker || n > marker) && (!endMarker || n < endMarker))
            .slice(0, limit);
          expect(out).toEqual(expected);
        },
      ),
      propertyRuns(2000),
    );
  });

  it('reverse lists the same names as forward would with the markers swapped, descending', () => {
    fc.assert(
      fc.property(sortedUnique, shortText, shortText, shortText, (list, prefix, marker, endMarker) => {
        const backwards = names(selectListing(list, listing({ prefix, marker, endMarker, reverse: true })));
        const forwards = names(selectListing(list, listing({ prefix, marker: endMarker, endMarker: marker })));
        expect(backwards).toEqual([...forwards].reverse());
      }),
      propertyRuns(1000),
    );
  });

  it('with a delimiter, lists each subdir once, ascending, each ending in the delimiter and holding the prefix', () => {
    fc.assert(
      fc.property(sortedUnique, shortText, fc.constantFrom('/', '.'), (list, prefix, delimiter) => {
        const entries = selectListing(list, listing({ prefix, delimiter }));
        const out = entries.map((entry) => ('item' in entry ? entry.item.name : entry.subdir));
        for (let i = 1; i < out.length; i++) expect(out[i - 1] < out[i]).toBe(true);
        for (const entry of entries) {
          if ('subdir' in entry) {
            expect(entry.subdir.startsWith(prefix)).toBe(true);
            expect(entry.subdir.endsWith(delimiter)).toBe(true);
            expect(entry.subdir.slice(prefix.length, -1)).not.toContain(delimiter);
          } else {
            expect(entry.item.name.startsWith(prefix)).toBe(true);
            expect(entry.item.name.slice(prefix.length)).not.toContain(delimiter);
          }
        }
        // Every name with the prefix is either listed or folded into a listed subdir.
        const subdirs = entries.flatMap((entry) => ('subdir' in entry ? [entry.subdir] : []));
        for (const { name } of list) {
          if (!name.startsWith(prefix)) continue;
          expect(out.includes(name) || subdirs.some((s) => name.startsWith(s))).toBe(true);
        }
      }),
      propertyRuns(2000),
    );
  });

  it('round-trips: with no parameters every item comes back exactly once, in order', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ maxLength: 20 }), { maxLength: 50 }), (list) => {
        const sorted = [...list].sort().map((name) => ({ name }));
        const entries = selectListing(sorted, listing());
        expect(entries).toEqual(sorted.map((item) => ({ item })));
        entries.forEach((entry, i) => expect('item' in entry && entry.item).toBe(sorted[i]));
      }),
      propertyRuns(1000),
    );
  });
});

describe('isMd5Hex and unquoteEtag', () => {
  it.each([
    ['d41d8cd98f00b204e9800998ecf8427e', true],
    ['D41D8CD98F00B204E9800998ECF8427E', true],
    ['d41d8cd98f00b204e9800998ecf8427', false],
    ['d41d8cd98f00b204e9800998ecf8427e0', false],
    ['d41d8cd98f00b204e9800998ecf8427g', false],
    ['"d41d8cd98f00b204e9800998ecf8427e"', false],
    [' d41d8cd98f00b204e9800998ecf8427e', false],
    ['', false],
  ])('isMd5Hex(%j) is %s', (value, expected) => {
    expect(isMd5Hex(value)).toBe(expected);
  });

  it.each([
    ['"d41d8cd98f00b204e9800998ecf8427e"', 'd41d8cd98f00b204e9800998ecf8427e'],
    ['d41d8cd98f00b204e9800998ecf8427e', 'd41d8cd98f00b204e9800998ecf8427e'],
    ['  "abc"  ', 'abc'],
    ['  abc ', 'abc'],
    ['""', ''],
    ['"', '"'],
    ['"abc', '"abc'],
    ['abc"', 'abc"'],
    ['', ''],
  ])('unquoteEtag(%j) is %j', (value, expected) => {
    expect(unquoteEtag(value)).toBe(expected);
  });

  it('an unquoted MD5 is an MD5 whether or not it was quoted', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9a-fA-F]{32}$/), fc.boolean(), (hex, quoted) => {
        expect(isMd5Hex(unquoteEtag(quoted ? `"${hex}"` : hex))).toBe(true);
      }),
      propertyRuns(200),
    );
  });
});
