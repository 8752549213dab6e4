/**
 * Requests for the content destination surface: Swift paths under `/v1/{account}` with
 * names percent-encoded in every way (dot segments, encoded slashes and NUL, overlong
 * and invalid UTF-8, raw UTF-8 bytes, names past the length limits), random methods,
 * metadata and feature headers, small bodies, and logins at `/auth/v1.0`.
 */
import fc from 'fast-check';
import { headerText, percentEncode } from './text-arbitraries';

/** One request: the head's parts and a body. */
export interface SwiftCase {
  method: string;
  /** The request target as sent (may hold raw UTF-8). */
  target: string;
  /** Header name and value pairs; `token` stands for a valid X-Auth-Token. */
  headers: [string, string][];
  body: Buffer;
  kind: string;
}

/** Stands for the session's token in {@link SwiftCase.headers}. */
export const TOKEN = '\u0000token';

/** Encoded pieces that try to leave a container or confuse a decoder. */
const hostileSegment = fc.constantFrom(
  '.',
  '..',
  '%2e',
  '%2E%2e',
  '.%2e',
  '%2f',
  '..%2f..',
  '%5c..%5c',
  '\\..\\',
  '%00',
  'a%00b',
  '%ff',
  '%c0%ae%c0%ae',
  '%e0%80%ae',
  '%ed%a0%80',
  '%',
  '%zz',
  '%2',
  '~',
  '',
);

/** A name segment: plain, unicode (encoded or raw), hostile, long. */
const segment: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/) },
  { weight: 2, arbitrary: fc.string({ maxLength: 12 }).map(percentEncode) },
  { weight: 1, arbitrary: fc.constantFrom('été', '中文', '😀', 'a b', 'x?y', 'x#y') },
  { weight: 3, arbitrary: hostileSegment },
  { weight: 1, arbitrary: fc.integer({ min: 250, max: 1100 }).map((n) => 'n'.repeat(n)) },
  { weight: 1, arbitrary: fc.integer({ min: 90, max: 400 }).map((n) => '%C3%A9'.repeat(n)) },
);

const account = fc.oneof(
  { weight: 12, arbitrary: fc.constant('AUTH_bws') },
  { weight: 1, arbitrary: fc.constantFrom('AUTH_x', 'auth_bws', '', 'AUTH_bws%00', '..', '%2e%2e', 'AUTH_b%77s') },
  { weight: 1, arbitrary: segment },
);
/** The container the test creates first: most requests go there, so they meet existing objects. */
export const FUZZ_CONTAINER = 'fuzz';

const container = fc.oneof(
  { weight: 4, arbitrary: fc.constant(FUZZ_CONTAINER) },
  { weight: 2, arbitrary: fc.constantFrom('Users', 'Devices', 'System', 'rec-1') },
  { weight: 3, arbitrary: segment },
);
const objectName = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('o1', 'o2', 'dir/o3', 'Capabilities.json') },
  { weight: 4, arbitrary: fc.array(segment, { minLength: 1, maxLength: 4 }).map((parts) => parts.join('/')) },
);

const path: fc.Arbitrary<string> = fc.oneof(
  { weight: 1, arbitrary: account.map((a) => `/v1/${a}`) },
  { weight: 3, arbitrary: fc.tuple(account, container).map(([a, c]) => `/v1/${a}/${c}`) },
  { weight: 6, arbitrary: fc.tuple(account, container, objectName).map(([a, c, o]) => `/v1/${a}/${c}/${o}`) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '/v1',
      '/v1/',
      '/v1//',
      '/v2/AUTH_bws',
      '/',
      '/info',
      '/healthcheck',
      '//v1/AUTH_bws/c',
      '/v1/AUTH_bws/c/../../../x',
    ),
  },
);
const query = fc.oneof(
  { weight: 8, arbitrary: fc.constant('') },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '?format=json',
      '?format=xml',
      '?multipart-manifest=put',
      '?limit=-1',
      '?limit=99999999999',
      '?prefix=%00',
      '?marker=%ff&end_marker=a',
      '?symlink=get',
      '?temp_url_sig=x',
    ),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }).map((t) => `?${percentEncode(t)}=${percentEncode(t)}`) },
);

const method = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom('GET', 'HEAD', 'PUT', 'PUT', 'POST', 'DELETE') },
  { weight: 1, arbitrary: fc.constantFrom('COPY', 'OPTIONS', 'PATCH', 'TRACE', 'MOVE', 'get', 'FOO', 'PROPFIND') },
);

const metaName = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9-]{1,20}$/),
  fc.integer({ min: 120, max: 140 }).map((n) => 'm'.repeat(n)),
);
const headerValue = fc.oneof(
  fc.stringMatching(/^[ -~]{0,40}$/),
  headerText(40),
  fc.integer({ min: 250, max: 4200 }).map((n) => 'v'.repeat(n)),
);
const header: fc.Arbitrary<[string, string]> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .tuple(
        fc.constantFrom(
          'X-Object-Meta-',
          'X-Container-Meta-',
          'X-Account-Meta-',
          'X-Remove-Object-Meta-',
          'X-Remove-Container-Meta-',
        ),
        metaName,
        headerValue,
      )
      .map(([p, n, v]): [string, string] => [p + n, v]),
  },
  {
    weight: 3,
    arbitrary: fc.tuple(
      fc.constantFrom(
        'Content-Type',
        'X-Delete-At',
        'X-Delete-After',
        'X-Copy-From',
        'X-Object-Manifest',
        'X-Static-Large-Object',
        'X-Symlink-Target',
        'X-Container-Read',
        'X-Versions-Location',
        'Range',
        'If-Match',
        'If-None-Match',
        'If-Modified-Since',
        'ETag',
        'Content-Encoding',
        'Content-Disposition',
        'X-Detect-Content-Type',
        'X-Newest',
        'Destination',
        'Expect',
        'X-Timestamp',
        'X-Storage-Policy',
        'Transfer-Encoding',
      ),
      fc.oneof(
        headerValue,
        fc.constantFrom(
          'bytes=0-0',
          'bytes=-1',
          'bytes=5-2',
          'bytes=0-0,1-1',
          '*',
          '100-continue',
          'true',
          'gzip',
          '0',
          '-1',
          'chunked',
          'identity',
          'Thu, 01 Jan 1970 00:00:00 GMT',
        ),
      ),
    ),
  },
  { weight: 1, arbitrary: fc.tuple(fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,15}$/), headerValue) },
);

/** A storage request with the session's token (or none, or a wrong one now and then). */
const storageRequest: fc.Arbitrary<SwiftCase> = fc
  .record({
    method,
    path,
    query,
    token: fc.oneof(
      { weight: 12, arbitrary: fc.constant(TOKEN) },
      { weight: 1, arbitrary: fc.constantFrom('', 'AUTH_tk0', 'x'.repeat(300)) },
    ),
    headers: fc.array(header, { maxLength: 5 }),
    body: fc.oneof(
      { weight: 3, arbitrary: fc.constant(new Uint8Array()) },
      { weight: 2, arbitrary: fc.uint8Array({ maxLength: 300 }) },
    ),
  })
  .map((r) => ({
    method: r.method,
    target: r.path + r.query,
    headers: [...(r.token === '' ? [] : [['X-Auth-Token', r.token] as [string, string]]), ...r.headers],
    body: Buffer.from(r.body),
    kind: 'storage',
  }));

/** A login with random, missing or right credentials. */
const authRequest: fc.Arbitrary<SwiftCase> = fc
  .record({
    target: fc.constantFrom('/auth/v1.0', '/auth/v1.0/', '/auth/v1.0?x=1', '/auth/v1.1', '/auth/'),
    user: fc.oneof(fc.constant('bws'), headerText(20), fc.constant(undefined)),
    key: fc.oneof(fc.constant('secret'), headerText(20), fc.constant(undefined)),
    keyHeader: fc.constantFrom('X-Auth-Key', 'Auth-Key', 'X-Storage-Pass'),
    method: fc.constantFrom('GET', 'GET', 'HEAD', 'POST'),
  })
  .map((r) => ({
    method: r.method,
    target: r.target,
    headers: [
      ...(r.user === undefined ? [] : [['X-Auth-User', r.user] as [string, string]]),
      ...(r.key === undefined ? [] : [[r.keyHeader, r.key] as [string, string]]),
    ],
    body: Buffer.alloc(0),
    kind: 'auth',
  }));

/** Every kind of request. */
export const swiftCase: fc.Arbitrary<SwiftCase> = fc.oneof(
  { weight: 9, arbitrary: storageRequest },
  { weight: 1, arbitrary: authRequest },
);
