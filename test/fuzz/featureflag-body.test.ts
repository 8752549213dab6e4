/**
 * Fuzz surface 2, featureflag.cgi bodies: random JSON, requests close to valid, edited
 * valid ones, deep nesting, huge numbers and bodies around `maxBodyBytes`, sent with a
 * Content-Length or chunked, under several content types. Every answer is HTTP 200 with
 * a JSON envelope: `data`, or `error` with a client error code (2100-2199, or 2200 for a
 * flag that does not exist), 2107 for a body over the limit, the context echoed.
 */
import { Agent } from 'node:http';
import fc from 'fast-check';
import { basicAuthorization, type HttpResult, sendRequest } from '../helpers/http';
import { type BodyCase, bodyCase } from './json-body-arbitraries';
import { type FuzzDevice, startFuzzDevice } from './fuzz-device';
import { runFuzz } from './fuzz-run';
import { fuzzSettings } from './fuzz-settings';
import { Tally } from './fuzz-tally';
import { withinTime } from './within-time';
import { contextOf } from './json-context';

const settings = fuzzSettings(400);
const tally = new Tally('featureflag', settings.seed);

const PATH = '/svc-cgi/featureflag.cgi';
const MAX_BODY = 16 * 1024;
/** Feature flags' own client error: the flag does not exist. */
const FLAG_NOT_FOUND = 2200;

interface Case {
  body: BodyCase;
  contentType: string | undefined;
  /** Chunked transfer coding in chunks of this size; Content-Length when undefined. */
  chunkSize: number | undefined;
}

const arbitrary: fc.Arbitrary<Case> = fc.record({
  body: bodyCase(MAX_BODY),
  contentType: fc.constantFrom(
    'application/json',
    'application/json',
    'text/plain',
    'application/json; charset=utf-16',
    undefined,
  ),
  chunkSize: fc.oneof(
    { weight: 4, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 4096 }) },
  ),
});

let fuzz: FuzzDevice;
let agent: Agent;
beforeAll(async () => {
  fuzz = await startFuzzDevice({ maxBodyBytes: MAX_BODY });
  agent = new Agent({ keepAlive: true, maxSockets: 1 });
});
afterAll(async () => {
  tally.report();
  agent.destroy();
  await fuzz.device.close();
});

function post(c: Case): Promise<HttpResult> {
  const headers: Record<string, string> = { Authorization: basicAuthorization('root', 'pass') };
  if (c.contentType !== undefined) headers['Content-Type'] = c.contentType;
  const sent = sendRequest(fuzz.device.url, {
    method: 'POST',
    path: PATH,
    agent,
    headers,
    body: c.body.body,
    chunkSize: c.chunkSize,
  });
  return withinTime(sent, 'answer from featureflag.cgi');
}

/** Checks one answer; returns the tally label (`ok <method>` or `rpc <code>`). */
function judge(c: Case, answer: HttpResult): string {
  if (answer.status !== 200) throw new Error(`HTTP ${answer.status}: ${answer.body.slice(0, 300)}`);
  if (!/^application\/json\b/.test(String(answer.headers['content-type'])))
    throw new Error(`not JSON: ${String(answer.headers['content-type'])}`);
  const json = JSON.parse(answer.body) as Record<string, unknown>;
  if (typeof json.apiVersion !== 'string') throw new Error(`no apiVersion: ${answer.body.slice(0, 300)}`);
  if ('data' in json === 'error' in json)
    throw new Error(`not exactly one of data and error: ${answer.body.slice(0, 300)}`);
  const tooLarge = c.body.body.length > MAX_BODY;
  const context = contextOf(c.body.body);
  if (!tooLarge && context !== undefined && json.context !== context)
    throw new Error(`context ${JSON.stringify(context)} not echoed: ${answer.body.slice(0, 300)}`);
  if ('data' in json) {
    if (tooLarge) throw new Error(`a body of ${c.body.body.length} bytes was served`);
    return `ok ${String(json.method)}`;
  }
  const error = json.error as { code?: unknown; message?: unknown };
  const code = Number(error.code);
  if (!Number.isInteger(error.code) || !((code >= 2100 && code <= 2199) || code === FLAG_NOT_FOUND))
    throw new Error(`error code ${String(error.code)} is not a client error: ${answer.body.slice(0, 300)}`);
  if (typeof error.message !== 'string' || error.message === '') throw new Error('error without a message');
  if (tooLarge !== (code === 2107)) throw new Error(`${c.body.body.length} bytes (limit ${MAX_BODY}) answered ${code}`);
  return `rpc ${code}`;
}

/** listAll still lists every flag. */
async function alive(): Promise<void> {
  const body = Buffer.from(JSON.stringify({ apiVersion: '1.0', context: 'alive', method: 'listAll' }));
  const answer = await post({ body: { body, kind: 'valid' }, contentType: 'application/json', chunkSize: undefined });
  const json = JSON.parse(answer.body) as { data?: { flags?: unknown[] } };
  if (answer.status !== 200 || !Array.isArray(json.data?.flags))
    throw new Error(`listAll: ${answer.status} ${answer.body}`);
}

it(
  `answers ${settings.cases} random and mutated bodies with HTTP 200 and a JSON success or client error`,
  async () => {
    await runFuzz({
      settings,
      tally,
      errors: fuzz.errors,
      arbitrary,
      alive,
      check: async (c) => judge(c, await post(c)),
    });
    expect(tally.count('rpc 2107')).toBeGreaterThan(0);
    expect(tally.count('ok listAll')).toBeGreaterThan(0);
  },
  settings.timeoutMs,
);
