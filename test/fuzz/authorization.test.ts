/**
 * Fuzz surface 1, Authorization headers: random and mutated Digest and Basic credentials
 * against `wssession.cgi` and the event stream's WebSocket upgrade, plus random session
 * tokens on the upgrade. Every case gets 401 with a challenge, 400, 429, 431 (a header
 * past the size limit), or success, and success only for headers that carry the proof
 * of the right password; valid credentials changed only harmlessly must succeed.
 */
import fc from 'fast-check';
import { digestAuthorization } from '../../src';
import { handshakeText, newKey } from '../helpers/event-stream-raw';
import { challengesOf, sendRequest } from '../helpers/http';
import { type AuthCase, basicCase, digestCase, otherCase } from './authorization-arbitraries';
import { type FuzzDevice, startFuzzDevice } from './fuzz-device';
import { runFuzz } from './fuzz-run';
import { fuzzSettings } from './fuzz-settings';
import { Tally } from './fuzz-tally';
import { outcomeLabel, type RawOutcome, rawExchange, requestHead } from './raw-exchange';
import { headerText, percentEncode } from './text-arbitraries';

const settings = fuzzSettings(400);
const tally = new Tally('authorization', settings.seed);

const TOKEN_PATH = '/svc-cgi/wssession.cgi';
const STREAM_TARGET = '/svc/ws-data-stream?sources=events';
/** Heads longer than this may be refused as too large (431). */
const LARGE_HEAD = 8 * 1024;

/** Where a case is sent. */
type Target = 'wssession' | 'upgrade';

/**
 * A request target: the one the digest `uri` names (`exact`), another one (`other`: a
 * digest answer for the `uri` must not open it, RFC 7616 section 3.4.6), or the same in
 * absolute form (`absolute`: either way).
 */
interface RequestTarget {
  path: string;
  match: 'exact' | 'other' | 'absolute';
}

/** One case: where, and the credentials (or a session token in the URL). */
type Case = { target: Target; to: RequestTarget; auth: AuthCase } | { target: 'token'; token: string };

const EXACT: Record<Target, RequestTarget> = {
  wssession: { path: TOKEN_PATH, match: 'exact' },
  upgrade: { path: STREAM_TARGET, match: 'exact' },
};

/** Targets near the exact ones: another query, case, slash, dot segment or encoding, the absolute form. */
const NEAR: Record<Target, RequestTarget[]> = {
  wssession: [
    ...['?x=1', '/', '%2F'].map((tail) => ({ path: TOKEN_PATH + tail, match: 'other' as const })),
    ...[
      '/SVC-CGI/wssession.cgi',
      '/svc-cgi//wssession.cgi',
      '/svc-cgi/./wssession.cgi',
      '/svc-cgi/wssession%2Ecgi',
      '*',
    ].map((path) => ({ path, match: 'other' as const })),
    { path: `http://127.0.0.1${TOKEN_PATH}`, match: 'absolute' },
  ],
  upgrade: [
    ...['&x=1', ',events', '#x', '&sources=events'].map((tail) => ({
      path: STREAM_TARGET + tail,
      match: 'other' as const,
    })),
    ...[
      '/svc/ws-data-stream/?sources=events',
      '/SVC/ws-data-stream?sources=events',
      '/svc/ws-data-stream?sources=%65vents',
      '/svc/./ws-data-stream?sources=events',
    ].map((path) => ({ path, match: 'other' as const })),
    { path: `http://127.0.0.1${STREAM_TARGET}`, match: 'absolute' },
  ],
};

let fuzz: FuzzDevice;
/** The valid digest answer for each target. */
const valid: Record<Target, string> = { wssession: '', upgrade: '' };

beforeAll(async () => {
  fuzz = await startFuzzDevice();
  const challenge = await sendRequest(fuzz.device.url, { path: TOKEN_PATH });
  valid.wssession = digestAuthorization(challengesOf(challenge), 'root', 'pass', 'GET', TOKEN_PATH, { cnonce: 'fz' });
  const refused = await rawExchange(fuzz.device.port, handshakeText(STREAM_TARGET));
  if (refused.kind !== 'answer') throw new Error(`no 401 for the upgrade: ${outcomeLabel(refused)}`);
  const challenges = refused.response.header('www-authenticate');
  valid.upgrade = digestAuthorization(challenges, 'root', 'pass', 'GET', STREAM_TARGET, { cnonce: 'fz' });
});
afterAll(async () => {
  tally.report();
  await fuzz.device.close();
});

function credentials(target: Target): fc.Arbitrary<Case> {
  return fc
    .oneof(
      { weight: 4, arbitrary: digestCase(valid[target]) },
      { weight: 2, arbitrary: basicCase() },
      { weight: 2, arbitrary: otherCase(valid[target]) },
    )
    .chain((auth) =>
      fc
        .oneof(
          { weight: 6, arbitrary: fc.constant(EXACT[target]) },
          { weight: 1, arbitrary: fc.constantFrom(...NEAR[target]) },
        )
        .map((to): Case => ({ target, to, auth })),
    );
}

function arbitrary(): fc.Arbitrary<Case> {
  return fc.oneof(
    { weight: 5, arbitrary: credentials('wssession') },
    { weight: 5, arbitrary: credentials('upgrade') },
    { weight: 1, arbitrary: headerText(80).map((token): Case => ({ target: 'token', token })) },
  );
}

/** The request bytes of a case. */
function requestOf(c: Case): string {
  if (c.target === 'token') return upgradeHead(`${STREAM_TARGET}&wssession=${percentEncode(c.token)}`, []);
  const auth = c.auth.headers.map((h): [string, string] => ['Authorization', h]);
  return c.target === 'wssession' ? requestHead('GET', c.to.path, auth) : upgradeHead(c.to.path, auth);
}

function upgradeHead(target: string, auth: [string, string][]): string {
  return requestHead('GET', target, [
    ['Connection', 'Upgrade'],
    ['Upgrade', 'websocket'],
    ['Sec-WebSocket-Version', '13'],
    ['Sec-WebSocket-Key', newKey()],
    ...auth,
  ]);
}

/** Checks one answer; returns the tally label. */
function judge(c: Case, request: string, outcome: RawOutcome): string {
  const exact = c.target === 'token' || c.to.match === 'exact';
  const label = `${c.target}${exact ? '' : ' (near target)'} ${outcomeLabel(outcome)}`;
  if (outcome.kind !== 'answer') throw new Error(`no answer: ${label}`);
  const { status } = outcome.response;
  const success = c.target === 'wssession' ? 200 : 101;
  if (c.target !== 'token' && exact && c.auth.mustAccept && status !== success)
    throw new Error(`valid credentials (${c.auth.kind}) refused with ${status}`);
  if (status === success) {
    if (c.target === 'token') throw new Error('a random session token was accepted');
    if (c.to.match === 'other' && !c.auth.kind.startsWith('basic'))
      throw new Error(`a digest answer for uri ${EXACT[c.target].path} opened ${c.to.path} (${c.auth.kind})`);
    // Quoted-pair escapes (`\8` is `8`) do not change a value.
    if (!c.auth.headers.some((h) => h.replace(/\\(.)/g, '$1').includes(c.auth.proof)))
      throw new Error(`accepted without the proof of the password (${c.auth.kind})`);
    if (c.target === 'wssession' && outcome.response.body.length === 0) throw new Error('200 without a token');
    return label;
  }
  if (status === 401) {
    const challenge = outcome.response.header('www-authenticate')[0] ?? '';
    if (!challenge.startsWith('Digest realm="SVC_ACCC8E000001"'))
      throw new Error(`401 without a digest challenge: ${JSON.stringify(challenge)}`);
    return label;
  }
  if (status === 431 && Buffer.byteLength(request) > LARGE_HEAD) return label;
  if (status === 400 || status === 429) return label;
  if (status === 404 && !exact) return label;
  throw new Error(`unexpected answer ${outcome.response.statusLine}`);
}

/** The device still issues a token and upgrades with valid digest credentials. */
async function alive(): Promise<void> {
  const token = await rawExchange(
    fuzz.device.port,
    requestHead('GET', TOKEN_PATH, [['Authorization', valid.wssession]]),
  );
  if (token.kind !== 'answer' || token.response.status !== 200)
    throw new Error(`wssession.cgi: ${outcomeLabel(token)}`);
  const upgrade = await rawExchange(fuzz.device.port, upgradeHead(STREAM_TARGET, [['Authorization', valid.upgrade]]));
  if (upgrade.kind !== 'answer' || upgrade.response.status !== 101)
    throw new Error(`upgrade: ${outcomeLabel(upgrade)}`);
}

it(
  `answers ${settings.cases} random and mutated Authorization headers with 401, 400, 429, 431 or (with proof) success`,
  async () => {
    await runFuzz({
      settings,
      tally,
      errors: fuzz.errors,
      arbitrary: arbitrary(),
      alive,
      check: async (c) => {
        const request = requestOf(c);
        return judge(c, request, await rawExchange(fuzz.device.port, request));
      },
    });
    // The generator reaches both sides: some cases are accepted, most refused.
    expect(tally.count('wssession 200') + tally.count('upgrade 101')).toBeGreaterThan(0);
    expect(tally.count('wssession 401') + tally.count('upgrade 401')).toBeGreaterThan(0);
  },
  settings.timeoutMs,
);
