/**
 * No lockout by strangers (issue 29, item 3): wrong passwords for `root` (the destination's
 * `bws`) from four other loopback addresses, ten a second each, throttle those addresses,
 * while the real user's right password from a clean address is never refused: on the device
 * with digest and Basic, on a CGI, for a `wssession.cgi` token and the stream it opens, and on
 * the stream's digest handshake; on the destination at `/auth/v1.0` and the recordings page.
 * Real sockets, each stranger bound to its own address (all of 127/8 is loopback on Linux);
 * the seconds pass on a manual clock.
 */
import { type DestinationHandle, type DeviceHandle, digestAuthorization, ManualClock } from '../../src';
import { destinationStarter } from '../helpers/destinations';
import { deviceStarter } from '../helpers/devices';
import { digestRequest } from '../helpers/digest-request';
import { openWithDigest, openWithToken } from '../helpers/event-stream-client';
import { basicAuthorization, challengesOf, sendRequest } from '../helpers/http';

const STRANGERS = ['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5'];
const CLEAN = '127.0.0.1';
/** Wrong passwords per simulated second from each stranger (the rate). */
const GUESSES_PER_SECOND = 10;
/** Simulated seconds: past the first throttle window of 10 s and into the next. */
const SECONDS = 12;
const FLAGS_BODY = JSON.stringify({ apiVersion: '1.0', method: 'listAll' });

const startDevice = deviceStarter({ auth: 'both', basicOverHttp: true });
const startDestination = destinationStarter({ basicOverHttp: true });

/** Statuses the strangers got, by status. */
type Tally = Map<number, number>;

/** Counts `status` into `tally`. */
function count(tally: Tally, status: number): void {
  tally.set(status, (tally.get(status) ?? 0) + 1);
}

/** Where strangers send their guesses: a CGI is POSTed a JSON body, a page is a GET. */
interface Target {
  baseUrl: string;
  path: string;
  method: 'GET' | 'POST';
}

/**
 * One stranger's guesses in one second: digest answers to a challenge fetched once (one request
 * per guess, as a fast guesser sends them) and Basic ones, alternately, all for `user` with
 * wrong passwords.
 */
async function guess(
  target: Target,
  stranger: string,
  challenges: string[],
  user: string,
  second: number,
  tally: Tally,
): Promise<void> {
  const { baseUrl, path, method } = target;
  for (let i = 0; i < GUESSES_PER_SECOND; i++) {
    const password = `guess-${second}-${i}`;
    const authorization =
      i % 2 === 0
        ? digestAuthorization(challenges, user, password, method, path, { nc: second * GUESSES_PER_SECOND + i + 1 })
        : basicAuthorization(user, password);
    const json: Record<string, string> = method === 'POST' ? { 'Content-Type': 'application/json' } : {};
    const answer = await sendRequest(baseUrl, {
      method,
      path,
      headers: { ...json, Authorization: authorization },
      body: method === 'POST' ? FLAGS_BODY : undefined,
      localAddress: stranger,
    });
    count(tally, answer.status);
  }
}

/** A 401's challenges for `target`, fetched from `stranger`'s address. */
async function challengesFrom(target: Target, stranger: string): Promise<string[]> {
  const answer = await sendRequest(target.baseUrl, {
    method: target.method,
    path: target.path,
    localAddress: stranger,
  });
  expect(answer.status).toBe(401);
  return challengesOf(answer);
}

/** What the real root gets from the clean address in one second, by what it tried. */
async function rootLogins(device: DeviceHandle): Promise<Record<string, number>> {
  const flags = new URL(device.urls.featureFlags).pathname;
  const post = { method: 'POST', path: flags, headers: { 'Content-Type': 'application/json' }, body: FLAGS_BODY };
  const digestCgi = await digestRequest(device.url, { ...post, localAddress: CLEAN });
  const basicCgi = await sendRequest(device.url, {
    ...post,
    headers: { ...post.headers, Authorization: basicAuthorization('root', 'pass') },
    localAddress: CLEAN,
  });
  const tokenPath = new URL(device.urls.sessionToken).pathname;
  const token = await digestRequest(device.url, { path: tokenPath, localAddress: CLEAN });
  let tokenStream = 0;
  if (token.status === 200) {
    const client = await openWithToken(device, token.body, '?sources=events', { localAddress: CLEAN });
    tokenStream = 101;
    await client.close();
  }
  const { client } = await openWithDigest(device, { ws: { localAddress: CLEAN } });
  await client.close();
  return {
    digestCgi: digestCgi.status,
    basicCgi: basicCgi.status,
    token: token.status,
    tokenStream,
    digestStream: 101,
  };
}

describe('no lockout by strangers: the device', () => {
  it("answers root's right password from a clean address every second of a wrong-password flood for root from 4 other addresses", async () => {
    const clock = new ManualClock();
    const device = await startDevice({ clock });
    const flags: Target = { baseUrl: device.url, path: new URL(device.urls.featureFlags).pathname, method: 'POST' };
    const challenges = await Promise.all(STRANGERS.map((s) => challengesFrom(flags, s)));
    const strangers: Tally = new Map();
    const root: Record<string, number>[] = [];
    for (let second = 0; second < SECONDS; second++) {
      await Promise.all(STRANGERS.map((s, i) => guess(flags, s, challenges[i], 'root', second, strangers)));
      root.push(await rootLogins(device));
      clock.advance(1_000);
    }
    const ok = { digestCgi: 200, basicCgi: 200, token: 200, tokenStream: 101, digestStream: 101 };
    expect(root).toEqual(Array.from({ length: SECONDS }, () => ok));
    // The strangers were throttled: 10 wrong ones each per window, then 429 until it ended.
    expect(Object.fromEntries(strangers)).toEqual({
      401: STRANGERS.length * 10 * 2,
      429: STRANGERS.length * (SECONDS * GUESSES_PER_SECOND - 10 * 2),
    });
  });
});

describe('no lockout by strangers: the destination', () => {
  it("answers bws's right key at /auth/v1.0 and on the page from a clean address every second of a wrong-key flood for bws from 4 other addresses", async () => {
    const clock = new ManualClock();
    const destination = await startDestination({ clock });
    const page: Target = { baseUrl: destination.url, path: '/', method: 'GET' };
    const challenges = await Promise.all(STRANGERS.map((s) => challengesFrom(page, s)));
    const strangers: Tally = new Map();
    const bws: Record<string, number>[] = [];
    for (let second = 0; second < SECONDS; second++) {
      await Promise.all(
        STRANGERS.map(async (s, i) => {
          await swiftGuesses(destination, s, second, strangers);
          await guess(page, s, challenges[i], 'bws', second, strangers);
        }),
      );
      bws.push(await bwsLogins(destination));
      clock.advance(1_000);
    }
    expect(bws).toEqual(Array.from({ length: SECONDS }, () => ({ swift: 200, digestPage: 200, basicPage: 200 })));
    // Each stranger: 10 wrong keys per window at /auth/v1.0 and 10 on the page, then 429.
    expect(Object.fromEntries(strangers)).toEqual({
      401: STRANGERS.length * 2 * 10 * 2,
      429: STRANGERS.length * 2 * (SECONDS * GUESSES_PER_SECOND - 10 * 2),
    });
  });
});

/** One stranger's wrong keys for bws at `/auth/v1.0` in one second. */
async function swiftGuesses(
  destination: DestinationHandle,
  stranger: string,
  second: number,
  tally: Tally,
): Promise<void> {
  for (let i = 0; i < GUESSES_PER_SECOND; i++) {
    const answer = await sendRequest(destination.url, {
      path: '/auth/v1.0',
      headers: { 'X-Auth-User': 'bws', 'X-Auth-Key': `guess-${second}-${i}` },
      localAddress: stranger,
    });
    count(tally, answer.status);
  }
}

/** What bws gets from the clean address in one second: a Swift login, the page with digest and with Basic. */
async function bwsLogins(destination: DestinationHandle): Promise<Record<string, number>> {
  const swift = await sendRequest(destination.url, {
    path: '/auth/v1.0',
    headers: { 'X-Auth-User': 'bws', 'X-Auth-Key': 'secret' },
    localAddress: CLEAN,
  });
  const digestPage = await digestRequest(destination.url, {
    path: '/',
    username: 'bws',
    password: 'secret',
    localAddress: CLEAN,
  });
  const basicPage = await sendRequest(destination.url, {
    path: '/',
    headers: { Authorization: basicAuthorization('bws', 'secret') },
    localAddress: CLEAN,
  });
  return { swift: swift.status, digestPage: digestPage.status, basicPage: basicPage.status };
}
