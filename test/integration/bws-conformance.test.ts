/** `--check`: the conformance run passes on the reference destination and names each breakage of a broken one. */
import { type Exchange, type Finding, formatFindings, PlanSchema, runConformance } from '../../src';
import { CHECK_IDS, CHECK_UNKNOWN_SERIAL, CHECK_UNKNOWN_USER } from '../../src/bws/conformance';
import { type Breakage, type BrokenDestination, startBrokenDestination } from '../helpers/broken-destination';
import { destinationStarter } from '../helpers/destinations';

const start = destinationStarter();
const proxies: BrokenDestination[] = [];
afterEach(async () => {
  await Promise.all(proxies.splice(0).map((p) => p.close()));
});

/** Small, but with everything: two users, a camera, bookmarks and a GNSS trail. */
const SMALL_PLAN = PlanSchema.parse({
  system: { id: 'check-system', name: 'Check system' },
  users: [
    { id: 'officer_1', name: 'Alex Smith' },
    { id: 'officer_2', name: 'Sam Jones' },
  ],
  devices: [{ serial: 'AABBCCDD1234', name: 'Camera 1' }],
  recordings: [
    {
      user: 'officer_1',
      device: 'AABBCCDD1234',
      clips: 2,
      'clip-duration': '10s',
      'clip-size': '64KB',
      bookmarks: [{ at: '2s', tags: { plate: 'ABC123' } }],
      gps: true,
    },
    { user: 'officer_2', device: 'AABBCCDD1234', clips: 1, 'clip-duration': '5s', 'clip-size': '32KB' },
  ],
});

const failedIds = (findings: Finding[]) =>
  findings
    .filter((f) => !f.passed)
    .map((f) => f.id)
    .sort();

async function broken(breakage: Breakage): Promise<BrokenDestination> {
  const proxy = await startBrokenDestination(await start(), breakage);
  proxies.push(proxy);
  return proxy;
}

describe('runConformance against the reference destination', () => {
  it('passes every check with the default plan, provoking the three 400s with marked probes', async () => {
    const destination = await start();
    const heard: Exchange[] = [];
    const result = await runConformance({ connection: destination.connectionFile(), onExchange: (e) => heard.push(e) });
    expect(failedIds(result.findings)).toEqual([]);
    expect(result.passed).toBe(true);
    expect(result.findings.map((f) => f.id)).toEqual(CHECK_IDS);
    expect(heard.length).toBeGreaterThan(result.report.requests);
    const probes = result.report.recordings.filter((r) => r.probe);
    expect(probes.map((r) => [r.probe, r.status, r.request?.status])).toEqual([
      ['unknown-user', 'not transferred', 400],
      ['unknown-device', 'not transferred', 400],
      ['no-duration', 'not transferred', 400],
    ]);
    expect(probes[0].userId).toBe(CHECK_UNKNOWN_USER);
    expect(probes[1].serial).toBe(CHECK_UNKNOWN_SERIAL);
    expect(probes[2].request).toMatchObject({
      method: 'PUT',
      path: expect.stringMatching(/bwc-emu-check-no-duration\.mkv$/) as string,
    });
    // The reference offers StoreRejectedContent: probes go there, as a body worn system does, and the findings say so.
    expect(probes.every((r) => r.rejectedContent?.startsWith('RejectedContent_'))).toBe(true);
    expect(result.findings.find((f) => f.id === 'probe.no-duration')?.detail).toMatch(
      /re-uploaded as rejected content/,
    );
    expect(result.report.recordings.filter((r) => !r.probe).every((r) => r.status === 'transferred')).toBe(true);
  });

  it('restores the renamed user and runs again on the same destination (Users and Devices then exist: 202)', async () => {
    const destination = await start();
    const first = await runConformance({ connection: destination.connectionFile(), plan: SMALL_PLAN });
    expect(failedIds(first.findings)).toEqual([]);
    const again = await runConformance({
      connection: destination.connectionFile(),
      plan: SMALL_PLAN,
      now: () => Date.now() - 3_600_000,
    });
    expect(failedIds(again.findings)).toEqual([]);
    expect(again.findings.find((f) => f.id === 'container.put')?.detail).toMatch(/202 x/);
    expect(again.findings.find((f) => f.id === 'metadata.user')?.passed).toBe(true);
  });

  it('without StoreRejectedContent the probes are only refused', async () => {
    const destination = await start({ capabilities: { StoreRejectedContent: false, ReadCategories: false } });
    const result = await runConformance({ connection: destination.connectionFile(), plan: SMALL_PLAN });
    expect(failedIds(result.findings)).toEqual([]);
    expect(result.findings.map((f) => f.id)).not.toContain('system.categories');
    expect(result.report.recordings.filter((r) => r.probe).every((r) => r.rejectedContent === undefined)).toBe(true);
  });
});

describe('runConformance over HTTPS with FullStoreAndReadSupport', () => {
  it('fetches Capabilities.json itself (the run did not) and sends the token-less request trusting the connection file certificate', async () => {
    const destination = await start({ tls: true });
    const result = await runConformance({
      connection: { ...destination.connectionFile(), FullStoreAndReadSupport: true },
      plan: SMALL_PLAN,
    });
    expect(result.report.capabilitiesSource).toBe('FullStoreAndReadSupport');
    expect(failedIds(result.findings)).toEqual([]);
    expect(result.findings.find((f) => f.id === 'auth.missing-token')?.detail).toBe('answered 401');
  });
});

describe('runConformance against a broken destination', () => {
  const cases: [string, Breakage, string[]][] = [
    ['no ETag on object PUT', { noPutEtag: true }, ['object.put-etag']],
    ['no ETag on System objects', { noSystemEtag: true }, ['system.capabilities']],
    ['200 instead of 201 for object PUT', { objectPutStatus: 200 }, ['object.put']],
    ['200 instead of 204 for container POST', { containerPostStatus: 200 }, ['container.post']],
    ['204 instead of 202 for object POST', { objectPostStatus: 204 }, ['object.post']],
    ['object POST not applied', { ignoreObjectPost: true }, ['object.post-replaces']],
    [
      'metadata returned URL-decoded',
      { decodeMetadata: true },
      ['metadata.clip', 'metadata.container', 'metadata.user'],
    ],
    ['recordings of unknown users accepted', { acceptUnknownUser: true }, ['probe.unknown-user']],
    ['recordings of unknown cameras accepted', { acceptUnknownDevice: true }, ['probe.unknown-device']],
    ['clips without duration accepted', { acceptNoDuration: true }, ['probe.no-duration']],
    ['requests without token served', { acceptMissingToken: true }, ['auth.missing-token']],
    ['advisory auth headers missing', { dropAdvisoryAuthHeaders: true }, ['auth.storage-token', 'auth.token-expires']],
  ];

  it.each(cases)('%s', async (_name, breakage, expected) => {
    const proxy = await broken(breakage);
    const result = await runConformance({ connection: proxy.connectionFile(), plan: SMALL_PLAN });
    expect(failedIds(result.findings)).toEqual(expected);
    const advisory = result.findings.filter((f) => !f.passed).every((f) => f.advisory);
    expect(result.passed).toBe(advisory);
    for (const f of result.findings.filter((x) => !x.passed)) expect(f.detail).toBeTruthy();
  });

  it('a missing ETag on PUT names the request', async () => {
    const proxy = await broken({ noPutEtag: true });
    const result = await runConformance({ connection: proxy.connectionFile(), plan: SMALL_PLAN });
    expect(result.findings.find((f) => f.id === 'object.put-etag')).toMatchObject({
      passed: false,
      detail: expect.stringMatching(/no ETag/) as string,
      request: { method: 'PUT', status: 201 },
    });
  });

  it('an accepted probe names its container', async () => {
    const proxy = await broken({ acceptUnknownUser: true });
    const result = await runConformance({ connection: proxy.connectionFile(), plan: SMALL_PLAN });
    const finding = result.findings.find((f) => f.id === 'probe.unknown-user');
    expect(finding?.detail).toMatch(new RegExp(`^${CHECK_UNKNOWN_USER}_AABBCCDD1234_\\d{8}T\\d{6}Z was accepted`));
    expect(result.report.recordings.find((r) => r.probe === 'unknown-user')?.status).toBe('transferred');
  });

  it('no X-Storage-Url: the run stops, and the findings say why instead of throwing', async () => {
    const proxy = await broken({ dropStorageUrl: true });
    const result = await runConformance({ connection: proxy.connectionFile(), plan: SMALL_PLAN });
    expect(result.passed).toBe(false);
    expect(failedIds(result.findings)).toEqual(['auth.storage-url', 'upload.completed']);
    expect(result.findings.find((f) => f.id === 'auth.storage-url')?.detail).toBe('no X-Storage-Url header');
    expect(result.report.recordings).toEqual([]);
  });

  it('200 instead of 201/202 for container PUT', async () => {
    const proxy = await broken({ containerPutStatus: 200 });
    const result = await runConformance({ connection: proxy.connectionFile(), plan: SMALL_PLAN });
    // The body worn system insists on 201/202 for Users and Devices, so registrations fail too.
    expect(failedIds(result.findings)).toContain('container.put');
    expect(result.passed).toBe(false);
  });
});

describe('formatFindings', () => {
  const findings: Finding[] = [
    { id: 'auth.status', title: 'auth answered 2xx', passed: true, detail: 'answered 200' },
    {
      id: 'object.put-etag',
      title: 'object PUT answered with an ETag',
      passed: false,
      detail: '1 of 3:\nno ETag',
      request: { method: 'PUT', path: '/c/o.mkv', status: 201 },
    },
    { id: 'auth.token-expires', title: 'X-Auth-Token-Expires', passed: false, advisory: true, detail: 'no header' },
  ];

  it('prints one line per finding with PASS/FAIL/WARN and a summary line', () => {
    const lines = formatFindings(findings).split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toBe('PASS  auth.status         auth answered 2xx: answered 200');
    expect(lines[1]).toBe(
      'FAIL  object.put-etag     object PUT answered with an ETag: 1 of 3: no ETag [PUT /c/o.mkv -> 201]',
    );
    expect(lines[2]).toMatch(/^WARN {2}auth\.token-expires {2}X-Auth-Token-Expires: no header$/);
    expect(lines[3]).toBe('FAIL: 1 passed, 1 failed, 1 advisory warning (3 checks)');
  });

  it('summarises a clean run as PASS', () => {
    expect(formatFindings([findings[0]]).split('\n').at(-1)).toBe('PASS: 1 passed, 0 failed (1 checks)');
  });
});
