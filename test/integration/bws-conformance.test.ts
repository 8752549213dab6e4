/** `--check`: the conformance run passes on the reference destination and names each breakage of a broken one. */
import {
  type DestinationHandle,
  type Exchange,
  type Finding,
  formatFindings,
  PlanSchema,
  runConformance,
} from '../../src';
import { CHECK_IDS, CHECK_UNKNOWN_SERIAL, CHECK_UNKNOWN_USER } from '../../src/bws/conformance';
import { PROBE_CAMERA, PROBE_USER } from '../../src/bws/conformance/probes';
import { type Breakage, type BrokenDestination, startBrokenDestination } from '../helpers/broken-destination';
import { destinationStarter, fetchBytes, login } from '../helpers/destinations';

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

/** The checks that failed or warned (not those with nothing to judge). */
const failedIds = (findings: Finding[]) =>
  findings
    .filter((f) => !f.passed && !f.notChecked)
    .map((f) => f.id)
    .sort();
const notCheckedIds = (findings: Finding[]) =>
  findings
    .filter((f) => f.notChecked)
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

describe('the probes leave nothing behind', () => {
  /** Every container of the account, with its objects. */
  async function contents(destination: DestinationHandle): Promise<Map<string, string[]>> {
    const session = await login(destination);
    const list = async (path: string): Promise<string[]> => {
      const answer = await fetchBytes(destination, session, 'GET', `${path}?format=json`);
      if (answer.status === 204) return [];
      expect(answer.status).toBe(200);
      return (JSON.parse(answer.body.toString('utf8')) as { name: string }[]).map((e) => e.name);
    };
    const result = new Map<string, string[]>();
    for (const container of await list('')) result.set(container, await list(`/${encodeURIComponent(container)}`));
    return result;
  }

  it('on the reference destination: the probe recordings, their rejected content, user and camera are deleted', async () => {
    const destination = await start();
    const result = await runConformance({ connection: destination.connectionFile(), plan: SMALL_PLAN });
    expect(failedIds(result.findings)).toEqual([]);
    const cleanup = result.findings.find((f) => f.id === 'probe.cleanup');
    // The no-duration probe's own container (PUT 201, clip 400), and three RejectedContent_ ones with a clip each.
    expect(cleanup?.detail).toBe('9 deleted (4 container(s), 3 object(s), 2 registration(s))');
    const stored = await contents(destination);
    const probeContainers = new Set(
      result.report.recordings.filter((r) => r.probe).flatMap((r) => [r.container, r.rejectedContent ?? '']),
    );
    expect([...stored.keys()].filter((c) => probeContainers.has(c))).toEqual([]);
    expect([...stored.keys()].filter((c) => c.startsWith('RejectedContent_'))).toEqual([]);
    expect(stored.get('Users')).toEqual(['officer_1', 'officer_2']);
    expect(stored.get('Devices')).toEqual(['AABBCCDD1234']);
    // Under the plan's first user and camera: only the plan's own recording.
    const firstUsers = [...stored.keys()].filter((c) => c.startsWith('officer_1_') || c.includes('_AABBCCDD1234_'));
    expect(firstUsers.sort()).toEqual(
      result.report.recordings
        .filter((r) => !r.probe)
        .map((r) => r.container)
        .sort(),
    );
    expect(result.report.recordings.filter((r) => r.probe).every((r) => r.userId !== 'officer_1')).toBe(true);
    expect(result.report.recordings.filter((r) => r.probe).every((r) => r.serial !== 'AABBCCDD1234')).toBe(true);
  });

  it('a plan without users or cameras: the metadata and rename checks use the probe user', async () => {
    const destination = await start();
    const result = await runConformance({ connection: destination.connectionFile(), plan: PlanSchema.parse({}) });
    expect(result.findings.find((f) => f.id === 'metadata.user')).toMatchObject({ passed: true });
    expect(result.findings.find((f) => f.id === 'object.post-replaces')?.detail).toContain(`/Users/${PROBE_USER.id}`);
    expect(result.findings.find((f) => f.id === 'probe.cleanup')).toMatchObject({ passed: true });
    // The Users and Devices containers stay: they are the destination's as much as the system's.
    expect((await contents(destination)).get('Users')).toEqual([]);
  });

  it('licences all taken by the plan: the probe user is refused, which the plan does not pay for and the cleanup tells', async () => {
    const destination = await start({ licences: { users: 2 } });
    const result = await runConformance({ connection: destination.connectionFile(), plan: SMALL_PLAN });
    expect(result.report.registrationFailures.map((f) => [f.id, f.request.status])).toEqual([[PROBE_USER.id, 402]]);
    expect(result.findings.find((f) => f.id === 'upload.completed')).toMatchObject({ passed: true });
    expect(result.findings.find((f) => f.id === 'probe.cleanup')?.detail).toMatch(
      new RegExp(`user ${PROBE_USER.id} \\(402\\) could not be registered`),
    );
    expect(result.passed).toBe(true);
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

describe('System objects missing (404), judged by FullStoreAndReadSupport', () => {
  it('with FullStoreAndReadSupport: true a 404 warns that the defaults apply, and the run passes', async () => {
    const proxy = await broken({ noSystemObjects: true });
    const connection = { ...proxy.connectionFile(), FullStoreAndReadSupport: true };
    const result = await runConformance({ connection, plan: SMALL_PLAN });
    expect(failedIds(result.findings)).toEqual(['system.capabilities', 'system.categories']);
    for (const id of ['system.capabilities', 'system.categories'])
      expect(result.findings.find((f) => f.id === id)).toMatchObject({
        advisory: true,
        detail: expect.stringMatching(
          /^answered 404: FullStoreAndReadSupport is true, so the defaults apply/,
        ) as string,
      });
    expect(result.passed).toBe(true);
    expect(formatFindings(result.findings)).toMatch(/^WARN {2}system\.capabilities /m);
  });

  it('without it a missing Capabilities.json still fails (nothing supported)', async () => {
    const proxy = await broken({ noSystemObjects: true });
    const result = await runConformance({ connection: proxy.connectionFile(), plan: SMALL_PLAN });
    const finding = result.findings.find((f) => f.id === 'system.capabilities');
    expect(finding).toMatchObject({ passed: false, detail: 'answered 404' });
    expect(finding?.advisory).toBeUndefined();
    expect(result.passed).toBe(false);
  });
});

/** Which findings fail the run, warn, or had nothing to judge. */
function outcomes(findings: Finding[]): { fail: string[]; warn: string[]; skip: string[] } {
  const ids = (keep: (f: Finding) => boolean) =>
    findings
      .filter(keep)
      .map((f) => f.id)
      .sort();
  return {
    fail: ids((f) => !f.passed && !f.notChecked && f.advisory !== true),
    warn: ids((f) => !f.passed && !f.notChecked && f.advisory === true),
    skip: ids((f) => f.notChecked === true),
  };
}

/** A destination that enforces none of the body worn rules, as a stock Swift (it has no System objects either). */
const PLAIN_STORE: Breakage = {
  noSystemObjects: true,
  acceptUnknownUser: true,
  acceptUnknownDevice: true,
  acceptNoDuration: true,
};

/**
 * The vendor example destination (Go, v1.6.13) as the reference describes it and its
 * server code reads: no 400 for an unknown user, camera or a clip without duration
 * (the README's "a 400 Bad Request error response should be sent"), no ETag on a clip
 * PUT, metadata back decoded, an auth answer with X-Auth-Token and X-Storage-Url only,
 * and DELETE (a method it does not serve) answered 400. Its installer's connection file
 * leaves FullStoreAndReadSupport false.
 */
const VENDOR_EXAMPLE: Breakage = {
  acceptUnknownUser: true,
  acceptUnknownDevice: true,
  acceptNoDuration: true,
  noPutEtag: true,
  decodeMetadata: true,
  dropAdvisoryAuthHeaders: true,
  refuseDelete: 400,
};

const PROBE_IDS = ['probe.no-duration', 'probe.unknown-device', 'probe.unknown-user'];

describe('probes a plain store accepts, judged by FullStoreAndReadSupport', () => {
  it('with FullStoreAndReadSupport: true (a standard Swift) an accepted probe warns, and the run passes', async () => {
    const proxy = await broken(PLAIN_STORE);
    const connection = { ...proxy.connectionFile(), FullStoreAndReadSupport: true };
    const result = await runConformance({ connection, plan: SMALL_PLAN });
    expect(outcomes(result.findings)).toEqual({
      fail: [],
      warn: [...PROBE_IDS, 'system.capabilities', 'system.categories'].sort(),
      skip: [],
    });
    for (const id of PROBE_IDS)
      expect(result.findings.find((f) => f.id === id)?.detail).toMatch(
        /was accepted: every request answered 2xx; FullStoreAndReadSupport is true, a standard Swift object store, which has no body worn rules/,
      );
    expect(result.passed).toBe(true);
    expect(formatFindings(result.findings)).toMatch(/^WARN {2}probe\.unknown-user /m);
    expect(result.leftBehind).toEqual([]);
  });

  it('without it the same acceptance fails: the destination claims more than a plain store', async () => {
    const proxy = await broken(PLAIN_STORE);
    const connection = { ...proxy.connectionFile(), FullStoreAndReadSupport: false };
    const result = await runConformance({ connection, plan: SMALL_PLAN });
    expect(outcomes(result.findings).fail).toEqual([...PROBE_IDS, 'system.capabilities']);
    expect(result.passed).toBe(false);
  });
});

describe('the vendor example', () => {
  it("fails exactly its three violations of the README's 'should' (400 for an unknown user, camera, a clip without duration), nothing else", async () => {
    const proxy = await broken(VENDOR_EXAMPLE);
    const result = await runConformance({ connection: proxy.connectionFile(), plan: SMALL_PLAN });
    expect(proxy.connectionFile().FullStoreAndReadSupport).toBe(false);
    expect(outcomes(result.findings)).toEqual({
      fail: PROBE_IDS,
      warn: ['auth.storage-token', 'auth.token-expires', 'object.put-etag-present', 'probe.cleanup'],
      skip: ['object.put-etag'],
    });
    expect(result.findings.find((f) => f.id === 'probe.cleanup')?.detail).toMatch(/\(DELETE answered 400\)/);
    expect(result.passed).toBe(false);
  });
});

describe('runConformance against a broken destination', () => {
  const cases: [string, Breakage, string[]][] = [
    [
      'no ETag on object PUT (a warning: the interface does not require it)',
      { noPutEtag: true },
      ['object.put-etag-present'],
    ],
    ['no ETag on System objects', { noSystemEtag: true }, ['system.capabilities']],
    ['200 instead of 201 for object PUT', { objectPutStatus: 200 }, ['object.put']],
    ['200 instead of 204 for container POST', { containerPostStatus: 200 }, ['container.post']],
    ['204 instead of 202 for object POST', { objectPostStatus: 204 }, ['object.post']],
    ['object POST not applied', { ignoreObjectPost: true }, ['object.post-replaces']],
    ['metadata returned URL-decoded (the same values)', { decodeMetadata: true }, []],
    [
      'metadata returned changed (the rename check reads the name back too)',
      { changeMetadata: true },
      ['metadata.clip', 'metadata.container', 'metadata.user', 'object.post-replaces'],
    ],
    ['DELETE refused: the probes stay (a warning)', { refuseDelete: true }, ['probe.cleanup']],
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
    const advisory = result.findings.filter((f) => !f.passed && !f.notChecked).every((f) => f.advisory);
    expect(result.passed).toBe(advisory);
    for (const f of result.findings.filter((x) => !x.passed)) expect(f.detail).toBeTruthy();
  });

  it('a missing ETag on PUT is a warning that names the request; with none to compare the MD5s are not checked, never passed', async () => {
    const proxy = await broken({ noPutEtag: true });
    const result = await runConformance({ connection: proxy.connectionFile(), plan: SMALL_PLAN });
    expect(result.passed).toBe(true);
    expect(result.findings.find((f) => f.id === 'object.put-etag-present')).toMatchObject({
      passed: false,
      advisory: true,
      detail: expect.stringMatching(/^\d+ of \d+ without an ETag$/) as string,
      request: { method: 'PUT', status: 201 },
    });
    expect(result.findings.find((f) => f.id === 'object.put-etag')).toMatchObject({
      passed: false,
      notChecked: true,
      detail: 'not checked: no PUT answered with an ETag to compare',
    });
    expect(notCheckedIds(result.findings)).toEqual(['object.put-etag']);
    const text = formatFindings(result.findings);
    expect(text).toMatch(/^WARN {2}object\.put-etag-present /m);
    expect(text).toMatch(/^SKIP {2}object\.put-etag {2}.*: not checked: no PUT answered with an ETag to compare$/m);
    expect(text).toMatch(/^PASS: \d+ passed, 0 failed, 1 not checked, 1 advisory warning \(\d+ checks\)$/m);
  });

  it('an accepted probe names its container, under the probe camera, and is deleted afterwards', async () => {
    const proxy = await broken({ acceptUnknownUser: true });
    const result = await runConformance({ connection: proxy.connectionFile(), plan: SMALL_PLAN });
    const finding = result.findings.find((f) => f.id === 'probe.unknown-user');
    expect(finding?.detail).toMatch(
      new RegExp(`^${CHECK_UNKNOWN_USER}_${PROBE_CAMERA.serial}_\\d{8}T\\d{6}Z was accepted`),
    );
    expect(result.report.recordings.find((r) => r.probe === 'unknown-user')?.status).toBe('transferred');
    expect(result.findings.find((f) => f.id === 'probe.cleanup')).toMatchObject({ passed: true });
    expect(result.leftBehind).toEqual([]);
    // The accepted probe is not one of the user's recordings transferred.
    expect(result.report.totals).toMatchObject({ recordings: 2, transferred: 2, notTransferred: 0, probes: 3 });
  });

  it('metadata returned decoded as raw UTF-8 bytes (Sam Jönsson) is the value sent', async () => {
    const proxy = await broken({ rawUtf8Metadata: true });
    const plan = PlanSchema.parse({
      users: [{ id: 'officer_1', name: 'Sam Jönsson' }],
      devices: [{ serial: 'AABBCCDD1234', name: 'Kamera Å' }],
      recordings: [{ user: 'officer_1', device: 'AABBCCDD1234', 'clip-size': '8KB', timezone: 'Europe/Stockholm' }],
    });
    const result = await runConformance({ connection: proxy.connectionFile(), plan });
    expect(failedIds(result.findings)).toEqual([]);
    expect(result.findings.find((f) => f.id === 'metadata.user')?.detail).toBe('3 headers'); // Name, Active, Userid
  });

  it('DELETE refused: the cleanup warning names what was left', async () => {
    const proxy = await broken({ refuseDelete: true });
    const result = await runConformance({ connection: proxy.connectionFile(), plan: SMALL_PLAN });
    const cleanup = result.findings.find((f) => f.id === 'probe.cleanup');
    expect(cleanup).toMatchObject({ passed: false, advisory: true });
    expect(cleanup?.detail).toMatch(
      /^9 of 9 left \(4 container\(s\), 3 object\(s\), 2 registration\(s\)\): \/RejectedContent_\S+ \(DELETE answered 403\); /,
    );
    expect(result.passed).toBe(true);
    // Every item left is named, at the very end of the output.
    expect(result.leftBehind).toHaveLength(9);
    expect(result.leftBehind).toEqual(
      expect.arrayContaining([`/Users/${PROBE_USER.id}`, `/Devices/${PROBE_CAMERA.serial}`]),
    );
    const lines = formatFindings(result.findings, result.leftBehind).split('\n');
    expect(lines.slice(-10)).toEqual([
      'The destination refused to delete 9 probe item(s); delete them by hand:',
      ...result.leftBehind.map((path) => `  left behind: ${path}`),
    ]);
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
  const skipped: Finding = {
    id: 'object.post',
    title: 'object POST answered 202',
    passed: false,
    notChecked: true,
    detail: 'not checked: no such request was answered',
  };

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

  it('lists a check with nothing to judge as SKIP, counts it apart and does not fail for it', () => {
    const lines = formatFindings([findings[0], skipped, findings[2]]).split('\n');
    expect(lines[1]).toMatch(/^SKIP {2}object\.post {2}.*: not checked: no such request was answered$/);
    expect(lines[3]).toBe('PASS: 1 passed, 0 failed, 1 not checked, 1 advisory warning (3 checks)');
  });

  it('summarises a clean run as PASS', () => {
    expect(formatFindings([findings[0]]).split('\n').at(-1)).toBe('PASS: 1 passed, 0 failed (1 checks)');
  });
});
