/**
 * Property tests against one running device: whatever a client sends in the
 * Authorization header or the body, the device answers with a defined status
 * (never a 5xx, never a dropped connection) and, for featureflag.cgi, JSON.
 */
import { Agent } from 'node:http';
import fc from 'fast-check';
import { DEFAULT_FLAGS, type DeviceHandle, digestAuthorization, ManualClock, startDevice } from '../../src';
import { parseCredentials } from '../../src/auth/auth-params';
import { fetchChallenges } from '../helpers/digest-request';
import { propertyRuns } from '../helpers/fast-check-config';
import { basicAuthorization, type HttpResult, sendRequest } from '../helpers/http';
import type { ListAllResponse } from '../helpers/rpc-client';

const PATH = '/svc-cgi/featureflag.cgi';
const LIST_ALL = JSON.stringify({ apiVersion: '1.0', context: 'fuzz', method: 'listAll' });
const FLAG_NAMES = DEFAULT_FLAGS.map((f) => f.name);

let device: DeviceHandle;
let agent: Agent;
/** Fields of a valid digest answer for POST featureflag.cgi, in the order the client writes them. */
let validFields: Field[];

interface Field {
  name: string;
  value: string;
  quoted: boolean;
}

beforeAll(async () => {
  // A manual clock that never moves: the one nonce stays fresh for the whole run.
  // Basic asked for on plain HTTP: the property runs send it to skip the digest round trip.
  device = await startDevice({ port: 0, clock: new ManualClock(), basicOverHttp: true });
  agent = new Agent({ keepAlive: true, maxSockets: 4 });
  const challenges = await fetchChallenges(device.url, PATH, 'POST');
  const header = digestAuthorization(challenges, 'root', 'pass', 'POST', PATH, { cnonce: 'fuzz-cnonce' });
  const parsed = parseCredentials(header);
  if (!parsed.ok) throw new Error(parsed.error.message);
  validFields = [...parsed.value.params].map(([name, value]) => ({
    name,
    value,
    quoted: !['algorithm', 'qop', 'nc'].includes(name),
  }));
});
afterAll(async () => {
  agent.destroy();
  await device.close();
});

function serialize(fields: readonly Field[], scheme = 'Digest'): string {
  return `${scheme} ${fields.map((f) => (f.quoted ? `${f.name}="${f.value.replace(/(["\\])/g, '\\$1')}"` : `${f.name}=${f.value}`)).join(', ')}`;
}

function post(body: string | Buffer, headers: Record<string, string>): Promise<HttpResult> {
  return sendRequest(device.url, { method: 'POST', path: PATH, agent, headers, body });
}

/** Characters Node lets a client put in a header value (the rest it refuses to send). */
const headerChar = fc
  .oneof(
    { weight: 8, arbitrary: fc.integer({ min: 0x20, max: 0x7e }) },
    { weight: 1, arbitrary: fc.constant(0x09) },
    { weight: 1, arbitrary: fc.integer({ min: 0x80, max: 0xff }) },
  )
  .map((code) => String.fromCharCode(code));
const headerText = (maxLength: number): fc.Arbitrary<string> => fc.string({ unit: headerChar, maxLength });
/** Pieces that matter to the parser, to reach past the first check more often. */
const syntaxPiece = fc.constantFrom('"', '\\', ',', '=', ' ', '\t', '""', '\\"', ', ', '="', 'Digest ', 'Basic ');

type FieldMutation = (fields: Field[]) => Field[];
type TextMutation = (header: string) => string;

const fieldMutation: fc.Arbitrary<FieldMutation> = fc.oneof(
  fc.nat().map(
    (i): FieldMutation =>
      (fs) =>
        fs.filter((_, j) => j !== i % fs.length),
  ), // drop a field
  fc.nat().map(
    (i): FieldMutation =>
      (fs) =>
        fs.length ? [...fs, { ...fs[i % fs.length] }] : fs,
  ), // duplicate a field
  fc.tuple(fc.nat(), headerText(40)).map(
    ([i, value]): FieldMutation =>
      (fs) =>
        fs.length ? [...fs, { ...fs[i % fs.length], value }] : fs,
  ), // duplicate with another value
  fc.tuple(fc.nat(), headerText(60)).map(
    ([i, value]): FieldMutation =>
      (fs) =>
        fs.map((f, j) => (j === i % fs.length ? { ...f, value } : f)),
  ), // replace a value
  fc.tuple(fc.nat(), fc.integer({ min: 500, max: 4000 }), fc.constantFrom('a', '0', '"', '\\', ' ', ',')).map(
    ([i, length, ch]): FieldMutation =>
      (fs) =>
        fs.map((f, j) => (j === i % fs.length ? { ...f, value: ch.repeat(length) } : f)), // a very long value
  ),
  fc.nat().map(
    (i): FieldMutation =>
      (fs) =>
        fs.map((f, j) => (j === i % fs.length ? { ...f, quoted: !f.quoted } : f)),
  ), // quote or unquote
  fc.tuple(fc.nat(), headerText(12)).map(
    ([i, name]): FieldMutation =>
      (fs) =>
        fs.map((f, j) => (j === i % fs.length ? { ...f, name } : f)),
  ), // rename
  fc.nat().map(
    (i): FieldMutation =>
      (fs) =>
        fs.map((f, j) => (j === i % fs.length ? { ...f, name: f.name.toUpperCase() } : f)),
  ), // name case
  fc.tuple(fc.nat(), fc.nat()).map(([i, k]): FieldMutation => (fs) => {
    const copy = [...fs];
    if (copy.length < 2) return copy;
    const [a, b] = [i % copy.length, k % copy.length];
    [copy[a], copy[b]] = [copy[b], copy[a]];
    return copy;
  }), // reorder
);

const textMutation: fc.Arbitrary<TextMutation> = fc.oneof(
  fc.nat().map(
    (i): TextMutation =>
      (h) =>
        h.slice(0, i % (h.length + 1)),
  ), // truncate
  fc.nat().map(
    (i): TextMutation =>
      (h) =>
        h.length ? h.slice(0, i % h.length) + h.slice((i % h.length) + 1) : h,
  ), // delete a character
  fc.tuple(fc.nat(), fc.oneof(syntaxPiece, headerText(10))).map(
    ([i, text]): TextMutation =>
      (h) =>
        h.slice(0, i % (h.length + 1)) + text + h.slice(i % (h.length + 1)),
  ), // insert
  fc.nat().map((i): TextMutation => (h) => {
    const quotes = [...h].flatMap((c, j) => (c === '"' ? [j] : []));
    if (quotes.length === 0) return h;
    const at = quotes[i % quotes.length];
    return h.slice(0, at) + h.slice(at + 1); // break quoting: drop one quote
  }),
  fc.oneof(fc.constantFrom('Digest', 'digest', 'DIGEST', 'Basic', 'Bearer', '', 'Digest,'), headerText(8)).map(
    (scheme): TextMutation =>
      (h) =>
        scheme + h.slice('Digest'.length),
  ), // scheme
);

/** A header: random text, or a valid digest answer with a few mutations. */
const authorizationHeader: fc.Arbitrary<string> = fc.oneof(
  { weight: 1, arbitrary: headerText(300) },
  {
    weight: 1,
    arbitrary: fc
      .array(
        fc.oneof(
          syntaxPiece,
          headerText(6),
          fc.constantFrom('username=root', 'realm=', 'nonce=', 'qop=auth', 'nc=00000001'),
        ),
        { maxLength: 20 },
      )
      .map((parts) => parts.join('')),
  },
  {
    weight: 6,
    arbitrary: fc
      .tuple(fc.array(fieldMutation, { minLength: 0, maxLength: 3 }), fc.array(textMutation, { maxLength: 2 }))
      .map(([fieldMutations, textMutations]) => {
        const fields = fieldMutations.reduce(
          (fs, m) => m(fs),
          validFields.map((f) => ({ ...f })),
        );
        return textMutations.reduce((h, m) => m(h), serialize(fields));
      }),
  },
);

describe('Authorization headers (property)', () => {
  it('the unmutated header is accepted (the generator starts from a valid answer)', async () => {
    const answer = await post(LIST_ALL, { 'Content-Type': 'application/json', Authorization: serialize(validFields) });
    expect(answer.status).toBe(200);
  });

  it('random and mutated Authorization headers give 401 or 200, never a 5xx', async () => {
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(authorizationHeader, async (authorization) => {
        const answer = await post(LIST_ALL, { 'Content-Type': 'application/json', Authorization: authorization });
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        expect([200, 401]).toContain(answer.status);
        if (answer.status === 401) {
          expect(answer.headersDistinct['www-authenticate']?.[0]).toMatch(/^Digest realm="SVC_ACCC8E000001"/);
          expect(answer.headers['content-type']).toBe('text/html');
        } else {
          expect((JSON.parse(answer.body) as ListAllResponse).data.flags).toHaveLength(FLAG_NAMES.length);
        }
      }),
      propertyRuns(200),
    );
    // Both outcomes were reached: the mutations are neither all harmless nor all fatal.
    expect(statuses.get(200)).toBeGreaterThan(0);
    expect(statuses.get(401)).toBeGreaterThan(0);
  });

  it('a header over the server limit is a 4xx, not a 5xx or a dropped connection', async () => {
    const answer = await post(LIST_ALL, {
      Authorization: serialize(validFields.map((f) => (f.name === 'cnonce' ? { ...f, value: 'x'.repeat(20_000) } : f))),
    });
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
  });

  it('the device still serves after the run', async () => {
    expect((await post(LIST_ALL, { Authorization: serialize(validFields) })).status).toBe(200);
  });
});

describe('request bodies to featureflag.cgi (property)', () => {
  const flagName = fc.oneof(
    fc.constantFrom(...FLAG_NAMES),
    fc.string({ maxLength: 12 }),
    fc.constantFrom('__proto__', 'constructor', ''),
  );
  const params = fc.oneof(
    fc.record({ names: fc.oneof(fc.array(flagName, { maxLength: 4 }), fc.jsonValue()) }, { requiredKeys: [] }),
    fc.record(
      {
        flagValues: fc.oneof(
          fc.dictionary(flagName, fc.oneof(fc.boolean(), fc.jsonValue()), { maxKeys: 4 }),
          fc.jsonValue(),
        ),
      },
      { requiredKeys: [] },
    ),
    fc.jsonValue(),
  );
  const nearlyValid = fc.record(
    {
      apiVersion: fc.oneof(
        fc.constantFrom('1.0', '1', '1.1', '2.0', '0.1', '1.0.0', ''),
        fc.string({ maxLength: 6 }),
        fc.jsonValue(),
      ),
      context: fc.oneof(fc.string({ maxLength: 20 }), fc.jsonValue()),
      method: fc.oneof(
        fc.constantFrom('listAll', 'get', 'set', 'getSupportedVersions', 'nope', 'toString', '__proto__'),
        fc.string({ maxLength: 10 }),
        fc.jsonValue(),
      ),
      params,
    },
    { requiredKeys: [] },
  );
  const validBody = fc.constantFrom(
    LIST_ALL,
    JSON.stringify({ apiVersion: '1.0', context: 'g', method: 'get', params: { names: FLAG_NAMES } }),
    JSON.stringify({ apiVersion: '1.0', context: 's', method: 'set', params: { flagValues: { graphics_udvd: true } } }),
  );
  const mutatedValid = fc
    .tuple(validBody, fc.array(textMutation, { minLength: 1, maxLength: 3 }))
    .map(([body, mutations]) => mutations.reduce((b, m) => m(b), body));

  const body: fc.Arbitrary<string | Buffer> = fc.oneof(
    fc.string(),
    fc.string({ unit: 'binary' }),
    fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
    fc.jsonValue().map((v) => JSON.stringify(v)),
    nearlyValid.map((v) => JSON.stringify(v)),
    mutatedValid,
  );

  it('always answer HTTP 200 application/json with either data or error.code', async () => {
    await fc.assert(
      fc.asyncProperty(
        body,
        fc.constantFrom('application/json', 'text/plain', 'application/octet-stream'),
        async (sent, contentType) => {
          const answer = await post(sent, {
            'Content-Type': contentType,
            Authorization: basicAuthorization('root', 'pass'),
          });
          expect(answer.status).toBe(200);
          expect(answer.headers['content-type']).toMatch(/^application\/json\b/);
          const json = JSON.parse(answer.body) as Record<string, unknown>;
          expect(typeof json.apiVersion).toBe('string');
          const hasData = 'data' in json;
          const hasError = 'error' in json;
          expect(hasData !== hasError).toBe(true);
          if (hasError) {
            const error = json.error as { code: unknown; message: unknown };
            expect(Number.isInteger(error.code)).toBe(true);
            expect((error.code as number) >= 1100 && (error.code as number) <= 2999).toBe(true);
            expect(typeof error.message).toBe('string');
          }
          let request: unknown;
          try {
            request = JSON.parse(Buffer.isBuffer(sent) ? sent.toString('utf8') : sent);
          } catch {
            request = undefined;
          }
          if (
            request !== null &&
            typeof request === 'object' &&
            !Array.isArray(request) &&
            typeof (request as { context?: unknown }).context === 'string'
          ) {
            expect(json.context).toBe((request as { context: string }).context);
          }
        },
      ),
      propertyRuns(200),
    );
  });

  it('the device still serves after the run', async () => {
    const answer = await post(LIST_ALL, { Authorization: basicAuthorization('root', 'pass') });
    expect((JSON.parse(answer.body) as ListAllResponse).data.flags).toHaveLength(FLAG_NAMES.length);
  });
});
