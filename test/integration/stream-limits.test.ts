/**
 * The event stream's limits (issue 16, finding 1): sessions per device and per account,
 * terms per filter, and each account's evaluation budget; each exceeded limit gets an
 * answer a client can act on, never a slower device.
 */
import type { DeviceOptions } from '../../src';
import { deviceStarter } from '../helpers/devices';
import {
  openStream,
  openWithToken,
  refusedHandshake,
  type StreamClient,
  streamTarget,
  wsUrl,
} from '../helpers/event-stream-client';

const ACCOUNTS: DeviceOptions['accounts'] = [
  { name: 'root', password: 'pass', role: 'admin' },
  { name: 'viewer', password: 'view', role: 'viewer' },
];
const start = deviceStarter({ accounts: ACCOUNTS });
const clients: StreamClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

async function open(device: Awaited<ReturnType<typeof start>>, user: string): Promise<StreamClient> {
  const client = await openWithToken(device, device.issueToken(user));
  clients.push(client);
  return client;
}

/** A content filter of `n` comparisons joined by `or`. */
function contentFilter(n: number): string {
  return Array.from({ length: n }, (_, i) => `boolean(//SimpleItem[@Name="k${i}" and @Value="v${i}"])`).join(' or ');
}

describe('event stream limits', () => {
  it('refuses the 4 500-term content filter of the finding with 2104 naming the limit', async () => {
    const device = await start();
    const viewer = await open(device, 'viewer');
    // As the finding wrote it: one item test of 4 500 comparisons, under the 64 KiB message limit.
    const values = Array.from({ length: 4_500 }, () => "@Value='a'").join(' or ');
    const answer = await viewer.configure([{ contentFilter: `boolean(//SimpleItem[${values}])` }]);
    expect(answer.error).toEqual({
      code: 2104,
      message:
        'Invalid parameter: eventFilterList[0] has 4500 terms (topic alternatives and content comparisons); at most 256 per filter are accepted',
    });
    expect(device.sessions()[0].filters).toEqual([]);
  });

  it('refuses 10 000 topic alternatives the same way', async () => {
    const device = await start();
    const viewer = await open(device, 'viewer');
    const topics = Array.from({ length: 10_000 }, (_, i) => `T${i}`).join('|');
    const answer = await viewer.configure([{ topicFilter: topics }]);
    expect(answer.error?.code).toBe(2104);
    expect(answer.error?.message).toMatch(/has 10000 terms .* at most 256 per filter/);
  });

  it("holds an account's sessions to its evaluation budget together, and frees terms when a session goes", async () => {
    const device = await start({ limits: { maxAccountTerms: 10 } });
    const first = await open(device, 'viewer');
    const second = await open(device, 'viewer');
    expect((await first.configure([{ contentFilter: contentFilter(3) }])).error).toBeUndefined(); // 6 terms
    expect((await second.configure([{ topicFilter: 'tns1:A|tns1:B|tns1:C|tns1:D|tns1:E' }])).error).toEqual({
      code: 2104,
      message:
        'Invalid parameter: eventFilterList: the filters hold 5 terms, and the sessions of user "viewer" may hold at most 10 together (6 held by its other sessions)',
    });
    // Another account has a budget of its own.
    const admin = await open(device, 'root');
    expect((await admin.configure([{ contentFilter: contentFilter(5) }])).error).toBeUndefined();
    // A reconfigure replaces the session's own terms instead of adding to them.
    expect((await first.configure([{ topicFilter: 'tns1:A' }])).error).toBeUndefined();
    expect((await second.configure([{ topicFilter: 'tns1:A|tns1:B|tns1:C|tns1:D|tns1:E' }])).error).toBeUndefined();
    await first.close();
    await waitFor(() => device.sessions().length === 2);
    const third = await open(device, 'viewer');
    expect((await third.configure([{ topicFilter: 'tns1:A|tns1:B|tns1:C|tns1:D|tns1:E' }])).error).toBeUndefined();
  });

  it("bounds what a hostile account's sessions cost per event, however it spreads its filters", async () => {
    // Evaluating filters per published event costs in proportion to their terms; an account that
    // opens every session it may and asks for as much as it can still holds at most its budget.
    const device = await start({ limits: { maxSessionsPerAccount: 12, maxAccountTerms: 100 } });
    let held = 0;
    for (let s = 0; s < 12; s++) {
      const hostile = await open(device, 'viewer');
      for (const terms of [256, 64, 16, 4, 1]) {
        const values = Array.from({ length: terms }, (_, i) => `@Value='${s}-${i}'`).join(' or ');
        const answer = await hostile.configure([{ contentFilter: `boolean(//SimpleItem[${values}])` }]);
        if (answer.error === undefined) {
          held += terms;
          break;
        }
        expect(answer.error.code).toBe(2104);
      }
    }
    expect(held).toBeLessThanOrEqual(100);
    expect(held).toBeGreaterThanOrEqual(96);
    // The other account is untouched: its own budget, its own sessions.
    const normal = await open(device, 'root');
    expect((await normal.configure([{ topicFilter: 'tns1:VideoSource/MotionAlarm' }])).error).toBeUndefined();
  });

  it('refuses a handshake past the sessions of an account with 429, and past the device with 503', async () => {
    const device = await start({ limits: { maxSessionsPerAccount: 2, maxSessions: 3 } });
    await open(device, 'viewer');
    await open(device, 'viewer');
    const url = (user: string): string =>
      wsUrl(device, streamTarget(device, `?sources=events&wssession=${device.issueToken(user)}`));
    const account = await refusedHandshake(url('viewer'));
    expect({ status: account.status, body: account.body }).toEqual({
      status: 429,
      body: 'Too many event stream sessions for user "viewer": at most 2 at once\n',
    });
    await open(device, 'root');
    const full = await refusedHandshake(url('root'));
    expect({ status: full.status, body: full.body }).toEqual({
      status: 503,
      body: 'No free event stream session: this device serves at most 3 at once\n',
    });
    // Refusals other than of the credentials close the connection.
    expect([account.headers.connection, full.headers.connection]).toEqual(['close', 'close']);
    // A closed session frees its place.
    await clients[0].close();
    await waitFor(() => device.sessions().length === 2);
    await open(device, 'root');
  });

  it('refuses a content filter nested deeper than maxFilterNesting', async () => {
    const device = await start({ limits: { maxFilterNesting: 3 } });
    const client = await open(device, 'viewer');
    const deep = `((((boolean(//SimpleItem[@Name="a"])))))`;
    const answer = await client.configure([{ contentFilter: deep }]);
    expect(answer.error?.code).toBe(2104);
    expect(answer.error?.message).toMatch(/nested too deeply at column 4 \(more than 3 levels\)/);
  });

  it('refuses unknown limits and values out of range at start', async () => {
    await expect(start({ limits: { maxSesions: 3 } as DeviceOptions['limits'] })).rejects.toThrow(
      /unknown limit\(s\) maxSesions; known: maxSessions, /,
    );
    await expect(start({ limits: { maxFilterNesting: 65 } })).rejects.toThrow(
      'limits.maxFilterNesting must be a whole number from 1 to 64, not 65',
    );
  });
});

describe('event stream limits without authentication', () => {
  /** A session of `device` (auth none) from `address`. */
  async function anonymous(device: Awaited<ReturnType<typeof start>>, address: string): Promise<StreamClient> {
    const client = await openStream(wsUrl(device, streamTarget(device)), { localAddress: address });
    clients.push(client);
    return client;
  }
  /** A share of 40 terms per session; 60 past the free 16 per session for the device. */
  const LIMITS = { maxAccountTerms: 40, maxDeviceTerms: 60 };

  it('gives each session a share of its own: one client holding it leaves another of its address free to subscribe', async () => {
    const device = await start({ auth: 'none', limits: LIMITS });
    const greedy = await anonymous(device, '127.0.0.1');
    expect((await greedy.configure([{ contentFilter: contentFilter(20) }])).error).toBeUndefined(); // 40 terms
    expect((await greedy.configure([{ contentFilter: contentFilter(21) }])).error).toEqual({
      code: 2104,
      message:
        'Invalid parameter: eventFilterList: the filters hold 42 terms, and a session may hold at most 40 without authentication',
    });
    const normal = await anonymous(device, '127.0.0.1');
    expect((await normal.configure([{ contentFilter: contentFilter(20) }])).error).toBeUndefined();
  });

  it("bounds every address together by the device's budget, and leaves a newcomer its first filters", async () => {
    const device = await start({ auth: 'none', limits: LIMITS });
    let granted = 0;
    for (let i = 10; i < 20; i++) {
      const stranger = await anonymous(device, `127.0.0.${i}`);
      const answer = await stranger.configure([{ contentFilter: contentFilter(20) }]);
      if (answer.error === undefined) granted++;
      else
        expect(answer.error.message).toBe(
          'Invalid parameter: eventFilterList: the filters hold 40 terms, and beyond 16 each the sessions of this device may hold at most 60 together (48 held by the other sessions)',
        );
    }
    // 24 of each 40 count: two fit.
    expect(granted).toBe(2);
    const normal = await anonymous(device, '127.0.0.2');
    const filters = [{ topicFilter: 'tns1:VideoSource/MotionAlarm|tns1:Device' }, { contentFilter: contentFilter(3) }];
    expect((await normal.configure(filters)).error).toBeUndefined();
    // A session that goes frees its terms for the next.
    await clients[0].close();
    await waitFor(() => device.sessions().length === 10);
    const next = await anonymous(device, '127.0.0.30');
    expect((await next.configure([{ contentFilter: contentFilter(20) }])).error).toBeUndefined();
  });
});

/** Polls `ready` on the event loop (no sleep of a fixed length) for at most 2 s. */
async function waitFor(ready: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !ready(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(ready()).toBe(true);
}
