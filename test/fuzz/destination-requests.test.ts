/**
 * Fuzz surface 5, the content destination: Swift requests with hostile paths (dot
 * segments, encoded slashes, NUL, invalid UTF-8, raw UTF-8, long names), random methods,
 * metadata and feature headers, small bodies, and logins. Every answer is 2xx, 3xx, 4xx
 * or 501 (a Swift feature not implemented); with no faults on, never another 5xx. The
 * data directory sits four levels below a fresh directory, which must hold nothing but
 * that chain afterwards: nothing was written outside the data directory.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { type DestinationHandle, startDestination } from '../../src';
import { login, type SwiftSession } from '../helpers/destinations';
import { ErrorLog } from './error-log';
import { runFuzz } from './fuzz-run';
import { fuzzSettings } from './fuzz-settings';
import { Tally } from './fuzz-tally';
import { outcomeLabel, rawExchange, requestHead } from './raw-exchange';
import { FUZZ_CONTAINER, type SwiftCase, swiftCase, TOKEN } from './swift-request-arbitraries';

const settings = fuzzSettings(400);
const tally = new Tally('destination', settings.seed);

const CHAIN = ['a', 'b', 'c'];

let root: string;
let destination: DestinationHandle;
let session: SwiftSession;
const errors = new ErrorLog();

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'bwc-fuzz-destination-'));
  const dataDir = join(root, ...CHAIN, 'data');
  mkdirSync(dataDir, { recursive: true });
  destination = await startDestination({
    port: 0,
    dataDir,
    logger: errors.logger,
    // Every login is a case: no throttling, so a correct key late in a run is still let in.
    loginThrottle: { failuresPerRemote: 0, failuresPerRemoteUser: 0 },
  });
  session = await login(destination);
  const created = await session.send('PUT', `/${FUZZ_CONTAINER}`);
  if (created.status !== 201) throw new Error(`PUT /${FUZZ_CONTAINER}: ${created.status}`);
});
afterAll(async () => {
  tally.report();
  await destination.close();
  rmSync(root, { recursive: true, force: true });
});

/** The bytes of a case's request, with the token filled in and the body framed. */
function requestOf(c: SwiftCase): Buffer {
  const headers = c.headers.map(([name, value]): [string, string] => [name, value === TOKEN ? session.token : value]);
  const coding = headers.find(([name]) => name.toLowerCase() === 'transfer-encoding')?.[1];
  const chunked = coding !== undefined && /chunked\s*$/i.test(coding);
  if (!chunked) headers.push(['Content-Length', String(c.body.length)]);
  const body = chunked
    ? Buffer.concat([
        Buffer.from(c.body.length ? `${c.body.length.toString(16)}\r\n` : ''),
        c.body,
        Buffer.from(c.body.length ? '\r\n0\r\n\r\n' : '0\r\n\r\n'),
      ])
    : c.body;
  return Buffer.concat([Buffer.from(requestHead(c.method, c.target, headers), 'utf8'), body]);
}

/** Fails unless the directory above the data directory holds only the chain down to it. */
function nothingOutsideDataDir(): void {
  let dir = root;
  for (const name of [...CHAIN, 'data']) {
    const entries = readdirSync(dir);
    if (entries.length !== 1 || entries[0] !== name)
      throw new Error(
        `written outside the data directory: ${relative(root, dir) || '.'} holds ${JSON.stringify(entries)}`,
      );
    dir = join(dir, name);
  }
}

/** The destination still stores and serves an object, and wrote nothing outside its data directory. */
async function alive(): Promise<void> {
  const container = await session.send('PUT', '/fuzz-alive');
  if (container.status !== 201 && container.status !== 202) throw new Error(`PUT container: ${container.status}`);
  const put = await session.send('PUT', '/fuzz-alive/probe.txt', { body: 'alive' });
  if (put.status !== 201) throw new Error(`PUT: ${put.status} ${put.body}`);
  const got = await session.send('GET', '/fuzz-alive/probe.txt');
  if (got.status !== 200 || got.body !== 'alive') throw new Error(`GET: ${got.status} ${got.body}`);
  nothingOutsideDataDir();
}

it(
  `answers ${settings.cases} hostile Swift requests with 2xx-4xx or 501, never writing outside the data directory`,
  async () => {
    await runFuzz({
      settings,
      tally,
      errors,
      arbitrary: swiftCase,
      alive,
      check: async (c) => {
        const outcome = await rawExchange(destination.port, requestOf(c));
        const label = `${c.kind} ${outcomeLabel(outcome)}`;
        if (outcome.kind !== 'answer') throw new Error(`no answer: ${label}`);
        const { status } = outcome.response;
        if (status >= 500 && status !== 501)
          throw new Error(`${outcome.response.statusLine}: ${outcome.response.body.toString('utf8').slice(0, 300)}`);
        return label;
      },
    });
    expect(tally.count('storage 201')).toBeGreaterThan(0);
    expect(tally.count('storage 400')).toBeGreaterThan(0);
  },
  settings.timeoutMs,
);
