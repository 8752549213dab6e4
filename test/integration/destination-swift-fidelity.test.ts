/**
 * The reference content destination answers like stock OpenStack Swift 2.30.1, over
 * real sockets: byte ranges (206, multipart/byteranges, 416), conditional requests
 * (304, 412, 400), header limits (431), transfer codings (501), the Swift features it
 * does not implement (501, nothing stored), Content-Type guessing, the object headers
 * it keeps, `/info` and `/healthcheck`; every refusal with a log line. Where a stock
 * Swift's answer to the same request was measured (/tmp/probe.sh), a comment says so.
 */
import { createHash, randomBytes } from 'node:crypto';
import { type IncomingMessage, request as httpRequest } from 'node:http';
import { type DestinationHandle } from '../../src';
import { SWIFT_LIMITS } from '../../src/protocol/swift';
import { SWIFT_GUESSED_CONTENT_TYPES } from '../helpers/swift-measured';
import { MAX_HEADER_LINE_BYTES, MAX_HEADER_LINES } from '../../src/protocol/swift-request-limits';
import { unsupportedFeatureNames } from '../../src/protocol/swift-unsupported';
import { destinationStarter, fetchBytes, login, type SwiftSession } from '../helpers/destinations';
import { LogTap } from '../helpers/event-stream-log';
import { type RawResponse, rawExchange } from '../helpers/event-stream-raw';
import { type HttpResult, sendRequest } from '../helpers/http';

const start = destinationStarter();

const BODY = '0123456789abcdefghij';
const ETAG = '644be06dfc54061fd1e67f5ebbabcd58';
const OBJECT = '/p1/o.mkv';

function md5(body: string | Buffer): string {
  return createHash('md5').update(body).digest('hex');
}

interface Fixture {
  destination: DestinationHandle;
  session: SwiftSession;
  tap: LogTap;
}

/** A destination logging into a tap, with container `p1` and the 20-byte object `p1/o.mkv` (no Content-Type sent). */
async function withObject(): Promise<Fixture> {
  const tap = new LogTap();
  const destination = await start({ logger: tap.logger });
  const session = await login(destination);
  expect((await session.send('PUT', '/p1')).status).toBe(201);
  const put = await session.send('PUT', OBJECT, { body: BODY });
  expect(put.status).toBe(201);
  expect(put.headers.etag).toBe(ETAG);
  return { destination, session, tap };
}

/** GET of `p1/o.mkv` with these headers. */
function get(session: SwiftSession, headers: Record<string, string>, method = 'GET'): Promise<HttpResult> {
  return session.send(method, OBJECT, { headers });
}

/**
 * Sends a request by hand on a new connection (`Host` and `Connection: close` first,
 * then `lines`, then `body`) and reads the answer until the server closes.
 */
function raw(destination: DestinationHandle, head: string, lines: string[], body = ''): Promise<RawResponse> {
  const text = [head, 'Host: 127.0.0.1', 'Connection: close', ...lines].join('\r\n');
  return rawExchange(destination.port, `${text}\r\n\r\n${body}`);
}

/** `count` filler header lines. */
function fillers(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `X-Foo-${i}: v`);
}

/** The parts of a `multipart/byteranges` body: each part's headers and bytes. */
function byteRangeParts(body: Buffer, contentType: string): { headers: Record<string, string>; bytes: Buffer }[] {
  const boundary = /^multipart\/byteranges;\s*boundary=([0-9A-Za-z'()+_,./:=?-]+)$/.exec(contentType)?.[1];
  if (boundary === undefined) throw new Error(`not multipart/byteranges: ${contentType}`);
  const close = Buffer.from(`--${boundary}--`);
  expect(body.subarray(body.length - close.length)).toEqual(close);
  const parts: { headers: Record<string, string>; bytes: Buffer }[] = [];
  const delimiter = Buffer.from(`--${boundary}\r\n`);
  let at = body.indexOf(delimiter);
  expect(at).toBe(0);
  while (at >= 0) {
    const headEnd = body.indexOf('\r\n\r\n', at);
    const headers = Object.fromEntries(
      body
        .subarray(at + delimiter.length, headEnd)
        .toString('latin1')
        .split('\r\n')
        .map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
    );
    const next = body.indexOf(delimiter, headEnd);
    const end = (next >= 0 ? next : body.length - close.length) - 2;
    expect(body.subarray(end, end + 2).toString('latin1')).toBe('\r\n');
    parts.push({ headers, bytes: body.subarray(headEnd + 4, end) });
    at = next;
  }
  return parts;
}

/** The log entries with this message. */
function logged(tap: LogTap, msg: string): Record<string, unknown>[] {
  return tap.withMessage(msg);
}

describe('Range', () => {
  // [Range, status, body, Content-Range]: each measured on stock Swift 2.30.1 for the same object.
  it.each<[string, number, string, string | undefined]>([
    ['bytes=2-5', 206, '2345', 'bytes 2-5/20'],
    ['bytes=-3', 206, 'hij', 'bytes 17-19/20'],
    ['bytes=15-', 206, 'fghij', 'bytes 15-19/20'],
    ['bytes=25-30', 416, 'Requested Range Not Satisfiable: the object has 20 bytes\n', 'bytes */20'],
    ['bytes=5-2', 200, BODY, undefined],
    ['bytes=abc', 200, BODY, undefined],
    ['bytes=-0', 416, 'Requested Range Not Satisfiable: the object has 20 bytes\n', 'bytes */20'],
    ['items=0-1', 200, BODY, undefined],
    ['bytes=0-0', 206, '0', 'bytes 0-0/20'],
    ['bytes=0-1,25-30', 206, '01', 'bytes 0-1/20'],
    ['bytes=-25', 206, BODY, 'bytes 0-19/20'],
    ['bytes= 2 - 5', 206, '2345', 'bytes 2-5/20'],
    ['Bytes=2-5', 206, '2345', 'bytes 2-5/20'],
    ['bytes=0-5,3-8,4-9,2-7', 416, 'Requested Range Not Satisfiable: the object has 20 bytes\n', 'bytes */20'],
    ['bytes=19-19', 206, 'j', 'bytes 19-19/20'],
    ['bytes=20-', 416, 'Requested Range Not Satisfiable: the object has 20 bytes\n', 'bytes */20'],
  ])('GET with Range: %s is %i (stock Swift 2.30.1: the same)', async (range, status, body, contentRange) => {
    const { session, tap } = await withObject();
    const answer = await get(session, { Range: range });
    expect(answer.status).toBe(status);
    expect(answer.body).toBe(body);
    expect(answer.headers['content-range']).toBe(contentRange);
    expect(answer.headers['content-length']).toBe(String(Buffer.byteLength(body)));
    if (status !== 416) expect(answer.headers['content-type']).toBe('video/x-matroska');
    if (status !== 416) expect(answer.headers.etag).toBe(ETAG);
    expect(logged(tap, 'GET refused: range not satisfiable')).toHaveLength(status === 416 ? 1 : 0);
  });

  it('several ranges are one multipart/byteranges body, laid out as Swift lays it out (stock Swift 2.30.1: 206)', async () => {
    const { session } = await withObject();
    const answer = await get(session, { Range: 'bytes=0-1,5-6' });
    expect(answer.status).toBe(206);
    const type = String(answer.headers['content-type']);
    expect(type).toMatch(/^multipart\/byteranges;boundary=[0-9a-f]{32}$/);
    // Swift's body for this request with its 32-character boundary is 242 bytes too.
    expect(answer.headers['content-length']).toBe('242');
    expect(answer.headers['content-range']).toBeUndefined();
    const parts = byteRangeParts(Buffer.from(answer.body, 'latin1'), type);
    expect(parts.map((p) => [p.headers, p.bytes.toString('latin1')])).toEqual([
      [{ 'content-type': 'video/x-matroska', 'content-range': 'bytes 0-1/20' }, '01'],
      [{ 'content-type': 'video/x-matroska', 'content-range': 'bytes 5-6/20' }, '56'],
    ]);
  });

  it('ranges of a larger object come back part by part, byte for byte', async () => {
    const { destination, session } = await withObject();
    const data = randomBytes(300_000);
    expect((await session.send('PUT', '/p1/big.bin', { body: data })).status).toBe(201);
    const url = `${destination.url}${session.storagePath}/p1/big.bin`;
    const answer = await rangedGet(url, session.token, 'bytes=0-99,-50,1000-65999,299990-');
    expect(answer.status).toBe(206);
    const parts = byteRangeParts(answer.body, String(answer.headers['content-type']));
    const expected: [number, number][] = [
      [0, 100],
      [299_950, 300_000],
      [1000, 66_000],
      [299_990, 300_000],
    ];
    expect(parts).toHaveLength(expected.length);
    parts.forEach((part, i) => {
      const [from, to] = expected[i];
      expect(part.headers['content-range']).toBe(`bytes ${from}-${to - 1}/300000`);
      expect(part.headers['content-type']).toBe('application/octet-stream');
      expect(part.bytes.equals(data.subarray(from, to))).toBe(true);
    });
    expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
  });

  it('HEAD ignores Range: 200 with the whole length (stock Swift 2.30.1: 200)', async () => {
    const { session } = await withObject();
    const answer = await get(session, { Range: 'bytes=2-5' }, 'HEAD');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-length']).toBe('20');
    expect(answer.headers['content-range']).toBeUndefined();
    expect(answer.headers['accept-ranges']).toBe('bytes');
  });

  it('an empty object: a suffix is the whole (empty) object, a first byte is 416', async () => {
    const { session } = await withObject();
    expect((await session.send('PUT', '/p1/empty', { body: '' })).status).toBe(201);
    const suffix = await session.send('GET', '/p1/empty', { headers: { Range: 'bytes=-5' } });
    expect([suffix.status, suffix.body, suffix.headers['content-range']]).toEqual([200, '', undefined]);
    const first = await session.send('GET', '/p1/empty', { headers: { Range: 'bytes=0-' } });
    expect([first.status, first.headers['content-range']]).toEqual([416, 'bytes */0']);
  });

  it('a failing If-Match wins over Range (stock Swift 2.30.1: 412)', async () => {
    const { session } = await withObject();
    expect((await get(session, { Range: 'bytes=0-1', 'If-Match': 'bad' })).status).toBe(412);
  });

  it('an overwrite during a ranged GET: the reader still gets the version it started with', async () => {
    const { destination, session } = await withObject();
    const size = 4 * 1024 * 1024;
    const before = randomBytes(size);
    const after = randomBytes(size);
    expect((await session.send('PUT', '/p1/clip.mkv', { body: before })).status).toBe(201);
    const url = `${destination.url}${session.storagePath}/p1/clip.mkv`;
    // Both answers have started (headers received) but are not read: the overwrite lands mid-read.
    const multi = await startGet(url, session.token, 'bytes=0-99999,1000000-2999999,4000000-');
    const single = await startGet(url, session.token, 'bytes=100-4194000');
    expect((await session.send('PUT', '/p1/clip.mkv', { body: after })).status).toBe(201);
    const [multiBody, singleBody] = await Promise.all([readAll(multi), readAll(single)]);
    expect(multi.headers.etag).toBe(md5(before));
    const parts = byteRangeParts(multiBody, String(multi.headers['content-type']));
    expect(parts.map((p) => p.bytes.equals(before.subarray(...rangeOf(p.headers['content-range']))))).toEqual([
      true,
      true,
      true,
    ]);
    expect(single.headers.etag).toBe(md5(before));
    expect(singleBody.equals(before.subarray(100, 4_194_001))).toBe(true);
    const now = await fetchBytes(destination, session, 'GET', '/p1/clip.mkv');
    expect(now.body.equals(after)).toBe(true);
  });
});

describe('conditional requests', () => {
  it.each<[string, string, Record<string, string>, number]>([
    ['im-get', 'GET', { 'If-Match': ETAG }, 200],
    ['im-get-q', 'GET', { 'If-Match': `"${ETAG}"` }, 200],
    ['im-bad', 'GET', { 'If-Match': 'bad' }, 412],
    ['im-star', 'GET', { 'If-Match': '*' }, 200],
    ['inm-get', 'GET', { 'If-None-Match': ETAG }, 304],
    ['inm-star-get', 'GET', { 'If-None-Match': '*' }, 304],
    ['inm-other', 'GET', { 'If-None-Match': 'other' }, 200],
    ['ims-old', 'GET', { 'If-Modified-Since': 'Tue, 24 Nov 2020 01:16:08 GMT' }, 200],
    ['ius-old', 'GET', { 'If-Unmodified-Since': 'Tue, 24 Nov 2020 01:16:08 GMT' }, 412],
    ['ius-future', 'GET', { 'If-Unmodified-Since': 'Tue, 24 Nov 2099 01:16:08 GMT' }, 200],
    ['ims-garbage', 'GET', { 'If-Modified-Since': 'garbage' }, 200],
    ['ims-future', 'GET', { 'If-Modified-Since': 'Tue, 24 Nov 2099 01:16:08 GMT' }, 304],
    ['head-inm', 'HEAD', { 'If-None-Match': ETAG }, 304],
    ['head-im-bad', 'HEAD', { 'If-Match': 'bad' }, 412],
  ])('%s: %s %j is %i (stock Swift 2.30.1: the same)', async (_case, method, headers, status) => {
    const { session, tap } = await withObject();
    const answer = await get(session, headers, method);
    expect(answer.status).toBe(status);
    if (status === 200 && method === 'GET') expect(answer.body).toBe(BODY);
    if (status === 304) {
      expect(answer.body).toBe('');
      expect(answer.headers.etag).toBe(ETAG);
      expect(answer.headers['last-modified']).toBeDefined();
    }
    if (status === 412) expect(answer.headers.etag).toBe(ETAG);
    const entries = logged(tap, 'conditional request');
    expect(entries.map((e) => e.status)).toEqual(status === 200 ? [] : [status]);
  });

  it('a missing object: If-Match: * is 412, If-Match: a tag is 404 (stock Swift 2.30.1: the same)', async () => {
    const { session } = await withObject();
    expect((await session.send('GET', '/p1/missing', { headers: { 'If-Match': '*' } })).status).toBe(412);
    expect((await session.send('GET', '/p1/missing', { headers: { 'If-Match': 'bad' } })).status).toBe(404);
  });

  it('If-Modified-Since the Last-Modified it was given is 304, If-Unmodified-Since it is 200', async () => {
    const { session } = await withObject();
    const lastModified = String((await get(session, {}, 'HEAD')).headers['last-modified']);
    expect((await get(session, { 'If-Modified-Since': lastModified })).status).toBe(304);
    expect((await get(session, { 'If-Unmodified-Since': lastModified })).status).toBe(200);
  });

  it('PUT If-None-Match: * on an existing object is 412 and keeps it (stock Swift 2.30.1: 412)', async () => {
    const { session, tap } = await withObject();
    const answer = await session.send('PUT', OBJECT, { body: 'new content', headers: { 'If-None-Match': '*' } });
    expect(answer.status).toBe(412);
    expect(answer.body).toMatch(/If-None-Match/);
    expect((await get(session, {})).body).toBe(BODY);
    expect(logged(tap, 'conditional request')).toEqual([
      expect.objectContaining({ method: 'PUT', status: 412, header: 'If-None-Match' }),
    ]);
  });

  it('PUT If-None-Match: * of a new object is 201 (stock Swift 2.30.1: 201)', async () => {
    const { session } = await withObject();
    const answer = await session.send('PUT', '/p1/new.mkv', { body: BODY, headers: { 'If-None-Match': '*' } });
    expect(answer.status).toBe(201);
    expect((await session.send('GET', '/p1/new.mkv')).body).toBe(BODY);
  });

  it('PUT If-None-Match with a tag is 400 "If-None-Match only supports *" (stock Swift 2.30.1: the same)', async () => {
    const { session, tap } = await withObject();
    const answer = await session.send('PUT', OBJECT, { body: 'other', headers: { 'If-None-Match': ETAG } });
    expect([answer.status, answer.body]).toEqual([400, 'If-None-Match only supports *\n']);
    expect((await get(session, {})).body).toBe(BODY);
    expect(logged(tap, 'request refused: bad condition')).toHaveLength(1);
  });

  // Stricter than Swift, on purpose (Swift would overwrite): the client relying on If-Match is told.
  it('PUT, POST and DELETE with a failing If-Match are 412 and change nothing', async () => {
    const { session } = await withObject();
    const headers = { 'If-Match': 'bad' };
    expect((await session.send('PUT', OBJECT, { body: 'changed', headers })).status).toBe(412);
    expect((await session.send('POST', OBJECT, { headers: { ...headers, 'X-Object-Meta-A': '1' } })).status).toBe(412);
    expect((await session.send('DELETE', OBJECT, { headers })).status).toBe(412);
    const now = await get(session, {});
    expect([now.status, now.body, now.headers['x-object-meta-a']]).toEqual([200, BODY, undefined]);
    // The right tag lets each through.
    expect((await session.send('POST', OBJECT, { headers: { 'If-Match': ETAG, 'X-Object-Meta-A': '1' } })).status).toBe(
      202,
    );
    expect((await session.send('DELETE', OBJECT, { headers: { 'If-Match': `"${ETAG}"` } })).status).toBe(204);
  });

  it('PUT with If-Match of a missing object is 412 and stores nothing', async () => {
    const { session } = await withObject();
    const answer = await session.send('PUT', '/p1/missing', { body: BODY, headers: { 'If-Match': ETAG } });
    expect(answer.status).toBe(412);
    expect((await session.send('HEAD', '/p1/missing')).status).toBe(404);
  });
});

describe('header limits', () => {
  /** A GET of the object with `total` header lines in all (Host, Connection, X-Auth-Token and fillers). */
  async function getWithLines(fixture: Fixture, total: number): Promise<RawResponse> {
    const { destination, session } = fixture;
    const lines = [`X-Auth-Token: ${session.token}`, ...fillers(total - 3)];
    return raw(destination, `GET ${session.storagePath}${OBJECT} HTTP/1.1`, lines);
  }

  it('202 header lines are 431, 200 are served (stock Swift 2.30.1: 431 and 200)', async () => {
    const fixture = await withObject();
    const refused = await getWithLines(fixture, 202);
    expect(refused.status).toBe(431);
    expect(refused.body.toString()).toMatch(/^Request Header Fields Too Large: /);
    const served = await getWithLines(fixture, 200);
    expect([served.status, served.body.toString()]).toEqual([200, BODY]);
    expect(logged(fixture.tap, 'request refused: headers too large')).toHaveLength(1);
  });

  it(`MAX_HEADER_LINES (${MAX_HEADER_LINES}) lines are served, one more is 431`, async () => {
    const fixture = await withObject();
    expect((await getWithLines(fixture, MAX_HEADER_LINES)).status).toBe(200);
    expect((await getWithLines(fixture, MAX_HEADER_LINES + 1)).status).toBe(431);
  });

  // Stock Swift 2.30.1 serves a line of 8189 bytes (name, ": ", value) and refuses 8190 (400 there, 431 here).
  it(`one header line of ${MAX_HEADER_LINE_BYTES - 3} bytes without its CRLF is served, one byte more is 431`, async () => {
    const { destination, session, tap } = await withObject();
    const line = (bytes: number): string => `X-Long: ${'a'.repeat(bytes - 'X-Long: '.length)}`;
    const head = `GET ${session.storagePath}${OBJECT} HTTP/1.1`;
    const token = `X-Auth-Token: ${session.token}`;
    expect((await raw(destination, head, [token, line(MAX_HEADER_LINE_BYTES - 3)])).status).toBe(200);
    const refused = await raw(destination, head, [token, line(MAX_HEADER_LINE_BYTES - 2)]);
    expect(refused.status).toBe(431);
    expect(refused.body.toString()).toContain('X-Long');
    expect(logged(tap, 'request refused: headers too large')).toEqual([
      expect.objectContaining({ reason: expect.stringContaining('X-Long') as unknown }),
    ]);
  });

  it('a wrong ETag placed after 1,000 header lines is not lost: 431, nothing stored', async () => {
    const { destination, session } = await withObject();
    // Node keeps only the first lines; without the guard the PUT would be stored unchecked.
    const lines = [
      `X-Auth-Token: ${session.token}`,
      'Content-Length: 5',
      ...fillers(1000),
      'ETag: 00000000000000000000000000000000',
    ];
    const answer = await raw(destination, `PUT ${session.storagePath}/p1/etag.mkv HTTP/1.1`, lines, 'hello');
    expect(answer.status).toBe(431);
    expect((await session.send('HEAD', '/p1/etag.mkv')).status).toBe(404);
  });
});

describe('transfer codings', () => {
  it('Transfer-Encoding: gzip, chunked is 501 naming gzip, nothing stored (stock Swift 2.30.1: 501)', async () => {
    const { destination, session, tap } = await withObject();
    const lines = [`X-Auth-Token: ${session.token}`, 'Transfer-Encoding: gzip, chunked'];
    const answer = await raw(
      destination,
      `PUT ${session.storagePath}/p1/te.mkv HTTP/1.1`,
      lines,
      '5\r\nhello\r\n0\r\n\r\n',
    );
    expect(answer.status).toBe(501);
    expect(answer.body.toString()).toMatch(/gzip/);
    expect((await session.send('HEAD', '/p1/te.mkv')).status).toBe(404);
    expect(logged(tap, 'request refused: transfer coding')).toHaveLength(1);
  });

  it('Transfer-Encoding: chunked alone is taken', async () => {
    const { session } = await withObject();
    const answer = await session.send('PUT', '/p1/chunked.mkv', { body: BODY, chunkSize: 7 });
    expect([answer.status, answer.headers.etag]).toEqual([201, ETAG]);
  });
});

describe('unimplemented Swift features: 501 naming the feature, nothing stored or changed', () => {
  /** The container metadata and settings of `p1` as HEAD shows them. */
  async function containerState(session: SwiftSession): Promise<Record<string, unknown>> {
    const head = await session.send('HEAD', '/p1');
    expect(head.status).toBe(204);
    return Object.fromEntries(
      Object.entries(head.headers).filter(
        ([name]) =>
          name.startsWith('x-container-meta-') || /^x-(container-(read|write)|versions-location|history)/.test(name),
      ),
    );
  }

  it.each<[string, string, string, Record<string, string>, string, RegExp]>([
    ['X-Object-Manifest', 'PUT', '/p1/dlo.mkv', { 'X-Object-Manifest': 'p1/segments/' }, '', /dynamic large objects/],
    ['?multipart-manifest=put', 'PUT', '/p1/slo.mkv?multipart-manifest=put', {}, '[]', /static large objects/],
    ['X-Copy-From', 'PUT', '/p1/copy.mkv', { 'X-Copy-From': 'p1/o.mkv' }, '', /server-side copies/],
    ['COPY', 'COPY', OBJECT, { Destination: 'p1/copy.mkv' }, '', /server-side copies/],
    ['X-Symlink-Target', 'PUT', '/p1/copy.mkv', { 'X-Symlink-Target': 'p1/o.mkv' }, '', /symlinks/],
    ['X-Delete-After', 'PUT', '/p1/copy.mkv', { 'X-Delete-After': '60' }, BODY, /object expiry/],
  ])('%s on an object', async (_name, method, path, headers, body, feature) => {
    const { session, tap } = await withObject();
    const answer = await session.send(method, path, { headers, body });
    expect(answer.status).toBe(501);
    expect(answer.body).toMatch(feature);
    // The object asked for is absent, the one there is unchanged.
    const target = path.split('?')[0];
    if (target !== OBJECT) expect((await session.send('HEAD', target)).status).toBe(404);
    expect((await session.send('HEAD', '/p1/copy.mkv')).status).toBe(404);
    expect((await get(session, {})).body).toBe(BODY);
    expect(logged(tap, 'request refused: feature not implemented')).toEqual([
      expect.objectContaining({ method, feature: expect.stringMatching(feature) as unknown }),
    ]);
  });

  it('X-Delete-At on an object POST is 501 and its metadata stays', async () => {
    const { session } = await withObject();
    expect((await session.send('POST', OBJECT, { headers: { 'X-Object-Meta-A': '1' } })).status).toBe(202);
    const answer = await session.send('POST', OBJECT, { headers: { 'X-Delete-At': '1900000000' } });
    expect([answer.status, answer.body]).toEqual([501, expect.stringMatching(/object expiry/) as unknown]);
    expect((await get(session, {}, 'HEAD')).headers['x-object-meta-a']).toBe('1');
  });

  it.each<[string, string, Record<string, string>, RegExp]>([
    ['X-Container-Read', 'POST', { 'X-Container-Read': '.r:*' }, /access control lists/],
    ['X-Container-Meta-Quota-Bytes', 'POST', { 'X-Container-Meta-Quota-Bytes': '100' }, /quotas/],
    ['X-Versions-Location', 'POST', { 'X-Versions-Location': 'archive' }, /object versioning/],
    [
      'X-Versions-Location on PUT',
      'PUT',
      { 'X-Versions-Location': 'archive', 'X-Container-Meta-B': '2' },
      /versioning/,
    ],
  ])('%s on a container', async (_name, method, headers, feature) => {
    const { session, tap } = await withObject();
    expect((await session.send('POST', '/p1', { headers: { 'X-Container-Meta-A': '1' } })).status).toBe(204);
    const before = await containerState(session);
    const answer = await session.send(method, '/p1', { headers });
    expect(answer.status).toBe(501);
    expect(answer.body).toMatch(feature);
    expect(await containerState(session)).toEqual(before);
    expect(before).toEqual({ 'x-container-meta-a': '1' });
    expect(logged(tap, 'request refused: feature not implemented')).toHaveLength(1);
  });

  it('a new container asking for versioning is not created', async () => {
    const { session } = await withObject();
    expect((await session.send('PUT', '/p2', { headers: { 'X-Versions-Location': 'archive' } })).status).toBe(501);
    expect((await session.send('HEAD', '/p2')).status).toBe(404);
  });

  it('X-Storage-Policy: an unknown policy is 400 as in Swift, Policy-0 (any case) is taken', async () => {
    const { session } = await withObject();
    const gold = await session.send('PUT', '/p2', { headers: { 'X-Storage-Policy': 'gold' } });
    expect([gold.status, gold.body]).toEqual([400, 'Invalid X-Storage-Policy "gold"\n']);
    expect((await session.send('HEAD', '/p2')).status).toBe(404);
    expect((await session.send('PUT', '/p2', { headers: { 'X-Storage-Policy': 'policy-0' } })).status).toBe(201);
  });
});

describe('Content-Type', () => {
  // Each measured on stock Swift 2.30.1: PUT without Content-Type, then HEAD.
  it.each(SWIFT_GUESSED_CONTENT_TYPES)('a PUT of %s without Content-Type is stored as %s', async (name, type) => {
    const { session } = await withObject();
    expect((await session.send('PUT', `/p1/${name}`, { body: 'x' })).status).toBe(201);
    expect((await session.send('HEAD', `/p1/${name}`)).headers['content-type']).toBe(type);
    expect((await session.send('GET', `/p1/${name}`)).headers['content-type']).toBe(type);
  });

  it('an explicit Content-Type is kept; X-Detect-Content-Type: true guesses from the name instead', async () => {
    const { session } = await withObject();
    const custom = { 'Content-Type': 'application/x-custom' };
    expect((await session.send('PUT', '/p1/k.mkv', { body: 'x', headers: custom })).status).toBe(201);
    expect((await session.send('HEAD', '/p1/k.mkv')).headers['content-type']).toBe('application/x-custom');
    const detect = { ...custom, 'X-Detect-Content-Type': 'true' };
    expect((await session.send('PUT', '/p1/d.mp4', { body: 'x', headers: detect })).status).toBe(201);
    expect((await session.send('HEAD', '/p1/d.mp4')).headers['content-type']).toBe('video/mp4');
  });
});

describe('kept object headers', () => {
  it('Content-Encoding and Content-Disposition come back on GET and HEAD (stock Swift 2.30.1: the same)', async () => {
    const { session } = await withObject();
    const headers = { 'Content-Encoding': 'gzip', 'Content-Disposition': 'attachment' };
    expect((await session.send('PUT', '/p1/enc.bin', { body: 'x', headers })).status).toBe(201);
    for (const method of ['GET', 'HEAD']) {
      const answer = await session.send(method, '/p1/enc.bin');
      expect([answer.headers['content-encoding'], answer.headers['content-disposition']]).toEqual([
        'gzip',
        'attachment',
      ]);
    }
  });

  it('a POST replaces them: what it sends is kept, what it leaves out is gone', async () => {
    const { session } = await withObject();
    const headers = { 'Content-Encoding': 'gzip', 'Content-Disposition': 'attachment' };
    expect((await session.send('PUT', '/p1/enc.bin', { body: 'x', headers })).status).toBe(201);
    expect((await session.send('POST', '/p1/enc.bin', { headers: { 'Content-Disposition': 'inline' } })).status).toBe(
      202,
    );
    const head = await session.send('HEAD', '/p1/enc.bin');
    expect([head.headers['content-encoding'], head.headers['content-disposition']]).toEqual([undefined, 'inline']);
  });
});

describe('/info and /healthcheck', () => {
  it('/info is the capabilities document, without a token', async () => {
    const { destination } = await withObject();
    const answer = await sendRequest(destination.url, { path: '/info' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    const info = JSON.parse(answer.body) as {
      swift: Record<string, unknown>;
      bwc_emu: { not_implemented: string[] };
    };
    // The values stock Swift 2.30.1 reports, but for max_file_size (see SWIFT_LIMITS).
    expect(info.swift).toMatchObject({
      max_file_size: SWIFT_LIMITS.maxFileSize,
      max_meta_name_length: 128,
      max_meta_value_length: 256,
      max_meta_count: 90,
      max_meta_overall_size: 4096,
      max_header_size: 8192,
      max_object_name_length: 1024,
      container_listing_limit: 10000,
      account_listing_limit: 10000,
      max_container_name_length: 256,
      extra_header_count: 0,
      policies: [{ name: 'Policy-0', default: true }],
    });
    expect(info.bwc_emu.not_implemented).toEqual(unsupportedFeatureNames());
    expect(info.bwc_emu.not_implemented).toEqual(
      expect.arrayContaining(['static large objects', 'dynamic large objects', 'server-side copies', 'object expiry']),
    );
  });

  it('/healthcheck is OK without a token (stock Swift 2.30.1: 200 OK)', async () => {
    const { destination } = await withObject();
    const answer = await sendRequest(destination.url, { path: '/healthcheck' });
    expect([answer.status, answer.body, answer.headers['content-type']]).toEqual([200, 'OK', 'text/plain']);
    expect((await sendRequest(destination.url, { method: 'HEAD', path: '/healthcheck' })).status).toBe(200);
  });

  it.each(['/info', '/healthcheck'])('other methods on %s are 405 with Allow: GET, HEAD', async (path) => {
    const { destination } = await withObject();
    const answer = await sendRequest(destination.url, { method: 'POST', path, body: '{}' });
    expect([answer.status, answer.headers.allow]).toEqual([405, 'GET, HEAD']);
  });
});

/** `bytes a-b/n` -> [a, b + 1]. */
function rangeOf(contentRange: string | undefined): [number, number] {
  const match = /^bytes (\d+)-(\d+)\/\d+$/.exec(contentRange ?? '');
  if (!match) throw new Error(`not a Content-Range: ${contentRange}`);
  return [Number(match[1]), Number(match[2]) + 1];
}

/** Starts a GET with a Range and resolves once the answer's headers are in; the body is left unread. */
function startGet(url: string, token: string, range: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers: { 'X-Auth-Token': token, Range: range }, agent: false }, resolve);
    req.on('error', reject);
    req.end();
  });
}

/** Reads a whole answer body. */
async function readAll(res: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of res) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A ranged GET with the body as bytes. */
async function rangedGet(
  url: string,
  token: string,
  range: string,
): Promise<{ status: number; headers: IncomingMessage['headers']; body: Buffer }> {
  const res = await startGet(url, token, range);
  return { status: res.statusCode ?? 0, headers: res.headers, body: await readAll(res) };
}
