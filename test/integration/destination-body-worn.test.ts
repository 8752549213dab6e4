/**
 * The reference content destination's body worn rules over real sockets: the
 * published System objects, user and camera registration with licences, recording
 * containers and their clips (400 = "not transferred"), completion, rejected
 * content, read-only logins and a restart on the same data directory. Time comes
 * from a ManualClock, so the time bounds are deterministic.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CAPABILITY_NAMES,
  type CapabilityName,
  createLogger,
  DEFAULT_CATEGORIES,
  type DestinationHandle,
  ManualClock,
  recordingContainerName,
} from '../../src';
import { CAPABILITY_SECTIONS } from '../../src/protocol/body-worn';
import { destinationStarter, login, type SwiftSession } from '../helpers/destinations';

/** "Now" on the destination's clock: 2024-06-01T12:00:00Z. */
const NOW = Date.UTC(2024, 5, 1, 12, 0, 0);
/** A trigger-on time an hour before now. */
const TRIGGER = NOW - 3600_000;
const TRIGGER_S = TRIGGER / 1000;
const ACCOUNT = 'AUTH_bws';

const start = destinationStarter();

/** A destination on a ManualClock at {@link NOW}, and a logged-in session. */
async function startAt(
  options: Parameters<typeof start>[0] = {},
): Promise<{ destination: DestinationHandle; session: SwiftSession; clock: ManualClock }> {
  const clock = new ManualClock(NOW);
  const destination = await start({ clock, ...options });
  return { destination, session: await login(destination), clock };
}

const enc = encodeURIComponent;

function md5(text: string): string {
  return createHash('md5').update(text).digest('hex');
}

/** PUT `Users` (or `Devices`) and one object in it with registration metadata. */
async function register(
  session: SwiftSession,
  container: 'Users' | 'Devices',
  id: string,
  metadata: Record<string, string> = {},
): Promise<number> {
  const made = await session.send('PUT', `/${container}`);
  expect([201, 202]).toContain(made.status);
  const answer = await session.send('PUT', `/${container}/${enc(id)}`, {
    body: '',
    headers: {
      'X-Object-Meta-Name': `${id} display`,
      'X-Object-Meta-Active': 'True',
      ...(container === 'Devices' ? { 'X-Object-Meta-Model': 'W100' } : {}),
      ...metadata,
    },
  });
  return answer.status;
}

async function registerBoth(session: SwiftSession, userId: string, serial: string): Promise<void> {
  expect(await register(session, 'Users', userId)).toBe(201);
  expect(await register(session, 'Devices', serial)).toBe(201);
}

/** Clip metadata headers: StartTime / StopTime in epoch seconds. */
function clipTimes(startS: number, stopS: number): Record<string, string> {
  return {
    'X-Object-Meta-Starttime': String(startS),
    'X-Object-Meta-Stoptime': String(stopS),
    'X-Object-Meta-Containertype': 'mkv',
  };
}

function recordingOf(destination: DestinationHandle, container: string) {
  return destination.recordings(ACCOUNT).find((r) => r.container === container);
}

describe('System objects', () => {
  /** MD5s of the usual serialisations of a JSON document (compact, pretty, pretty + newline). */
  function jsonDigests(document: unknown): string[] {
    return [JSON.stringify(document), JSON.stringify(document, null, 2), `${JSON.stringify(document, null, 2)}\n`].map(
      md5,
    );
  }

  function capabilities(off: CapabilityName[] = []): Record<string, Record<string, boolean>> {
    return Object.fromEntries(
      Object.entries(CAPABILITY_SECTIONS).map(([section, names]) => [
        section,
        Object.fromEntries(names.map((name) => [name, !off.includes(name)])),
      ]),
    );
  }

  it('HEAD of Capabilities.json: 200, JSON, and an ETag that is the MD5 of the document with every capability true', async () => {
    const { session } = await startAt();
    const head = await session.send('HEAD', '/System/Capabilities.json');
    expect(head.status).toBe(200);
    expect(head.headers['content-type']).toMatch(/application\/json/);
    expect(head.headers.etag).toMatch(/^[0-9a-f]{32}$/);
    expect(jsonDigests(capabilities())).toContain(head.headers.etag);
    expect(Object.keys(capabilities()).sort()).toEqual(['Read', 'Store', 'StoreAndRead']);
    // The account listing shows the same hash for it.
    const listing = JSON.parse((await session.send('GET', '/System?format=json')).body) as {
      name: string;
      hash: string;
    }[];
    expect(listing.find((o) => o.name === 'Capabilities.json')?.hash).toBe(head.headers.etag);
  });

  it('HEAD of Capabilities.json with capabilities {StoreBookmarks:false}: the document with just that one false', async () => {
    const { session } = await startAt({ capabilities: { StoreBookmarks: false } });
    const head = await session.send('HEAD', '/System/Capabilities.json');
    expect(head.status).toBe(200);
    expect(jsonDigests(capabilities(['StoreBookmarks']))).toContain(head.headers.etag);
    expect(jsonDigests(capabilities())).not.toContain(head.headers.etag);
  });

  it('HEAD of Categories.json: the default list, or the one given in the options', async () => {
    const first = await startAt();
    const defaults = await first.session.send('HEAD', '/System/Categories.json');
    expect(defaults.status).toBe(200);
    expect(defaults.headers['content-type']).toMatch(/application\/json/);
    expect(jsonDigests(DEFAULT_CATEGORIES)).toContain(defaults.headers.etag);
    const categories = [
      { Name: 'Public order', Id: '10' },
      { Name: 'Café incident', Id: 'x-2' },
    ];
    const second = await startAt({ categories });
    const given = await second.session.send('HEAD', '/System/Categories.json');
    expect(given.status).toBe(200);
    expect(jsonDigests(categories)).toContain(given.headers.etag);
  });

  it('GET Capabilities.json: 200, JSON with Read/Store/StoreAndRead all true, ETag = MD5 of the body', async () => {
    const { session } = await startAt();
    const answer = await session.send('GET', '/System/Capabilities.json');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/application\/json/);
    expect(answer.headers.etag).toBe(md5(answer.body));
    const document = JSON.parse(answer.body) as Record<string, Record<string, boolean>>;
    expect(Object.keys(document).sort()).toEqual(['Read', 'Store', 'StoreAndRead']);
    for (const [section, names] of Object.entries(CAPABILITY_SECTIONS)) {
      expect(Object.keys(document[section]).sort()).toEqual([...names].sort());
      for (const name of names) expect(document[section][name]).toBe(true);
    }
  });

  it('GET Capabilities.json with capabilities {StoreBookmarks:false}: just that one false', async () => {
    const { session } = await startAt({ capabilities: { StoreBookmarks: false } });
    const answer = await session.send('GET', '/System/Capabilities.json');
    expect(answer.status).toBe(200);
    expect(answer.headers.etag).toBe(md5(answer.body));
    const document = JSON.parse(answer.body) as Record<string, Record<string, boolean>>;
    const values = Object.fromEntries(Object.values(document).flatMap((section) => Object.entries(section)));
    expect(Object.keys(values).sort()).toEqual([...CAPABILITY_NAMES].sort());
    for (const name of CAPABILITY_NAMES) expect(values[name]).toBe(name !== 'StoreBookmarks');
    expect(document.Store.StoreBookmarks).toBe(false);
  });

  it('GET Categories.json: the default list, or the one given in the options', async () => {
    const first = await startAt();
    const defaults = await first.session.send('GET', '/System/Categories.json');
    expect(defaults.status).toBe(200);
    expect(defaults.headers.etag).toBe(md5(defaults.body));
    expect(JSON.parse(defaults.body)).toEqual(DEFAULT_CATEGORIES);
    const categories = [{ Name: 'Public order', Id: '10' }];
    const second = await startAt({ categories });
    const given = await second.session.send('GET', '/System/Categories.json');
    expect(given.status).toBe(200);
    expect(JSON.parse(given.body)).toEqual(categories);
  });

  it.each(['Capabilities.json', 'Categories.json'])(
    'refuses PUT and POST to System/%s with 403 and keeps the published document',
    async (name) => {
      const { session } = await startAt();
      const before = await session.send('HEAD', `/System/${name}`);
      const put = await session.send('PUT', `/System/${name}`, {
        body: '{"Read":{},"Store":{},"StoreAndRead":{}}',
        headers: { 'Content-Type': 'application/json' },
      });
      expect(put.status).toBe(403);
      expect(put.body).toMatch(/published by the content destination/);
      const post = await session.send('POST', `/System/${name}`, { headers: { 'X-Object-Meta-Forged': 'yes' } });
      expect(post.status).toBe(403);
      const after = await session.send('HEAD', `/System/${name}`);
      expect(after.status).toBe(200);
      expect(after.headers.etag).toBe(before.headers.etag);
      expect(after.headers['content-length']).toBe(before.headers['content-length']);
      expect(after.headers['x-object-meta-forged']).toBeUndefined();
    },
  );

  it('refuses DELETE of System/Capabilities.json with 403 and keeps serving it', async () => {
    const { session } = await startAt();
    const deleted = await session.send('DELETE', '/System/Capabilities.json');
    expect(deleted.status).toBe(403);
    expect((await session.send('HEAD', '/System/Capabilities.json')).status).toBe(200);
  });

  it('stores another System object (the system identity) with its metadata and serves it back', async () => {
    const { session } = await startAt();
    const systemId = '6f1c2b7e-3d4a-4b5c-9e8f-0a1b2c3d4e5f';
    const put = await session.send('PUT', `/System/${systemId}`, {
      body: '',
      headers: { 'X-Object-Meta-Connectionid': 'conn-42', 'X-Object-Meta-Systemname': 'North%20Station' },
    });
    expect(put.status).toBe(201);
    expect(put.headers.etag).toBe(md5(''));
    const head = await session.send('HEAD', `/System/${systemId}`);
    expect(head.status).toBe(200);
    expect(head.headers['x-object-meta-connectionid']).toBe('conn-42');
    expect(head.headers['x-object-meta-systemname']).toBe('North%20Station');
    expect(head.headers.etag).toBe(md5(''));
    expect(head.headers['content-length']).toBe('0');
    // POST replaces its metadata (it is not one of the published documents).
    expect(
      (
        await session.send('POST', `/System/${systemId}`, {
          headers: { 'X-Object-Meta-Connectionid': 'conn-43', 'X-Object-Meta-Systemname': 'South' },
        })
      ).status,
    ).toBe(202);
    expect((await session.send('HEAD', `/System/${systemId}`)).headers).toMatchObject({
      'x-object-meta-connectionid': 'conn-43',
      'x-object-meta-systemname': 'South',
    });
  });

  it('GET of the system identity object returns its body and metadata', async () => {
    const { session } = await startAt();
    const body = '{"SystemID":"abc"}';
    expect(
      (
        await session.send('PUT', '/System/abc', {
          body,
          headers: { 'X-Object-Meta-Connectionid': 'conn-42', 'X-Object-Meta-Systemname': 'North' },
        })
      ).status,
    ).toBe(201);
    const get = await session.send('GET', '/System/abc');
    expect(get.status).toBe(200);
    expect(get.body).toBe(body);
    expect(get.headers.etag).toBe(md5(body));
    expect(get.headers).toMatchObject({ 'x-object-meta-connectionid': 'conn-42', 'x-object-meta-systemname': 'North' });
  });
});

describe('registration of users and cameras', () => {
  it('creates Users/{id} and Devices/{serial} with their metadata (201) and serves it back', async () => {
    const { session } = await startAt();
    expect((await session.send('PUT', '/Users')).status).toBe(201);
    expect((await session.send('PUT', '/Users')).status).toBe(202);
    const user = await session.send('PUT', '/Users/officer_17', {
      body: '',
      headers: { 'X-Object-Meta-Name': 'Jane%20Doe', 'X-Object-Meta-Active': 'True' },
    });
    expect(user.status).toBe(201);
    const userHead = await session.send('HEAD', '/Users/officer_17');
    expect(userHead.status).toBe(200);
    expect(userHead.headers['x-object-meta-name']).toBe('Jane%20Doe');
    expect(userHead.headers['x-object-meta-active']).toBe('True');

    expect((await session.send('PUT', '/Devices')).status).toBe(201);
    const device = await session.send('PUT', '/Devices/AABBCCDD1234', {
      body: '',
      headers: { 'X-Object-Meta-Name': 'Camera 1', 'X-Object-Meta-Active': 'True', 'X-Object-Meta-Model': 'W100' },
    });
    expect(device.status).toBe(201);
    const deviceGet = await session.send('HEAD', '/Devices/AABBCCDD1234');
    expect(deviceGet.status).toBe(200);
    expect(deviceGet.headers).toMatchObject({
      'x-object-meta-name': 'Camera 1',
      'x-object-meta-active': 'True',
      'x-object-meta-model': 'W100',
    });

    const listing = await session.send('GET', '/Users?format=json');
    expect(JSON.parse(listing.body)).toEqual([expect.objectContaining({ name: 'officer_17', bytes: 0 })]);
  });

  it('renames and deactivates with POST, which replaces all the metadata (202)', async () => {
    const { session } = await startAt();
    expect(await register(session, 'Users', 'u1', { 'X-Object-Meta-Userid': 'key-1' })).toBe(201);
    const renamed = await session.send('POST', '/Users/u1', {
      headers: { 'X-Object-Meta-Name': 'New%20Name', 'X-Object-Meta-Active': 'False' },
    });
    expect(renamed.status).toBe(202);
    const head = await session.send('HEAD', '/Users/u1');
    expect(head.headers['x-object-meta-name']).toBe('New%20Name');
    expect(head.headers['x-object-meta-active']).toBe('False');
    expect(head.headers['x-object-meta-userid']).toBeUndefined();

    expect(await register(session, 'Devices', 'SN1')).toBe(201);
    expect(
      (
        await session.send('POST', '/Devices/SN1', {
          headers: { 'X-Object-Meta-Name': 'Spare', 'X-Object-Meta-Active': 'False' },
        })
      ).status,
    ).toBe(202);
    const device = await session.send('HEAD', '/Devices/SN1');
    expect(device.headers['x-object-meta-name']).toBe('Spare');
    expect(device.headers['x-object-meta-active']).toBe('False');
    expect(device.headers['x-object-meta-model']).toBeUndefined();

    expect((await session.send('POST', '/Users/nobody', { headers: { 'X-Object-Meta-Name': 'x' } })).status).toBe(404);
  });
});

describe('licences', () => {
  it('licences: 2 refuses a third active user with 402, allows overwriting and frees a licence on deactivation', async () => {
    const { session } = await startAt({ licences: 2 });
    expect(await register(session, 'Users', 'u1')).toBe(201);
    expect(await register(session, 'Users', 'u2')).toBe(201);

    const third = await session.send('PUT', '/Users/u3', {
      body: '',
      headers: { 'X-Object-Meta-Name': 'Three', 'X-Object-Meta-Active': 'True' },
    });
    expect(third.status).toBe(402);
    expect(third.body).toMatch(/No licence left for another user: 2 of 2 in use/);
    expect((await session.send('HEAD', '/Users/u3')).status).toBe(404);

    // An inactive newcomer takes no licence.
    expect(await register(session, 'Users', 'u4', { 'X-Object-Meta-Active': 'False' })).toBe(201);
    // Overwriting a registered active user is not a new licence.
    expect(await register(session, 'Users', 'u1', { 'X-Object-Meta-Name': 'One again' })).toBe(201);

    // Deactivating u2 frees a licence for u3.
    expect(
      (
        await session.send('POST', '/Users/u2', {
          headers: { 'X-Object-Meta-Name': 'Two', 'X-Object-Meta-Active': 'False' },
        })
      ).status,
    ).toBe(202);
    expect(await register(session, 'Users', 'u3')).toBe(201);

    // Reactivating u2 (or u4) would be a third active user.
    const reactivate = await session.send('POST', '/Users/u2', {
      headers: { 'X-Object-Meta-Name': 'Two', 'X-Object-Meta-Active': 'True' },
    });
    expect(reactivate.status).toBe(402);
    expect(reactivate.body).toMatch(/licence/);
    expect((await session.send('HEAD', '/Users/u2')).headers['x-object-meta-active']).toBe('False');
    // A rename that keeps it inactive is fine.
    expect(
      (
        await session.send('POST', '/Users/u4', {
          headers: { 'X-Object-Meta-Name': 'Four', 'X-Object-Meta-Active': 'False' },
        })
      ).status,
    ).toBe(202);
  });

  it('licences {users:1, devices:1} count users and cameras apart', async () => {
    const { session } = await startAt({ licences: { users: 1, devices: 1 } });
    expect(await register(session, 'Users', 'u1')).toBe(201);
    expect(await register(session, 'Devices', 'SN1')).toBe(201);
    const user = await session.send('PUT', '/Users/u2', { body: '', headers: { 'X-Object-Meta-Active': 'True' } });
    expect(user.status).toBe(402);
    expect(user.body).toMatch(/another user: 1 of 1/);
    const device = await session.send('PUT', '/Devices/SN2', {
      body: '',
      headers: { 'X-Object-Meta-Active': 'True', 'X-Object-Meta-Model': 'W100' },
    });
    expect(device.status).toBe(402);
    expect(device.body).toMatch(/another camera: 1 of 1/);
    // Overwriting the registered camera is fine.
    expect(await register(session, 'Devices', 'SN1', { 'X-Object-Meta-Model': 'W110' })).toBe(201);
  });

  it('licences {users: 1} leaves cameras unlimited', async () => {
    const { session } = await startAt({ licences: { users: 1 } });
    for (const serial of ['SN1', 'SN2', 'SN3']) expect(await register(session, 'Devices', serial)).toBe(201);
    expect(await register(session, 'Users', 'u1')).toBe(201);
    expect(await register(session, 'Users', 'u2')).toBe(402);
  });
});

describe('recording containers', () => {
  it('accepts a recording of a registered user (with underscores) and camera: 201 with Status Transferring', async () => {
    const { destination, session } = await startAt();
    await registerBoth(session, 'first_last', 'BWC0001');
    const container = recordingContainerName('first_last', 'BWC0001', TRIGGER);
    expect(container).toBe('first_last_BWC0001_20240601T110000Z');
    const put = await session.send('PUT', `/${enc(container)}`, {
      headers: {
        'X-Container-Meta-Status': 'Transferring',
        'X-Container-Meta-Userid': 'first_last',
        'X-Container-Meta-Bwcserialnumber': 'BWC0001',
        'X-Container-Meta-Triggerontime': String(TRIGGER_S),
        'X-Container-Meta-Starttime': String(TRIGGER_S),
        'X-Container-Meta-Timezone': 'Europe%2FStockholm',
      },
    });
    expect(put.status).toBe(201);
    const head = await session.send('HEAD', `/${enc(container)}`);
    expect(head.status).toBe(204);
    expect(head.headers['x-container-meta-status']).toBe('Transferring');
    expect(head.headers['x-container-meta-userid']).toBe('first_last');
    expect(recordingOf(destination, container)).toMatchObject({
      account: ACCOUNT,
      userId: 'first_last',
      serial: 'BWC0001',
      triggerOnTime: new Date(TRIGGER).toISOString(),
      status: 'transferring',
      clips: 0,
      bytes: 0,
      durationSeconds: 0,
    });
    // The same PUT again: 202, still transferring.
    expect(
      (await session.send('PUT', `/${enc(container)}`, { headers: { 'X-Container-Meta-Status': 'Transferring' } }))
        .status,
    ).toBe(202);
    expect(recordingOf(destination, container)?.status).toBe('transferring');
  });

  it('accepts times up to maxAheadMs ahead of the clock and refuses beyond', async () => {
    const { destination, session, clock } = await startAt({ maxAheadMs: 3600_000 });
    await registerBoth(session, 'alice', 'SN1');
    const ahead = recordingContainerName('alice', 'SN1', NOW + 3600_000);
    expect(
      (await session.send('PUT', `/${enc(ahead)}`, { headers: { 'X-Container-Meta-Status': 'Transferring' } })).status,
    ).toBe(201);
    const beyond = recordingContainerName('alice', 'SN1', NOW + 3600_000 + 1000);
    expect(
      (await session.send('PUT', `/${enc(beyond)}`, { headers: { 'X-Container-Meta-Status': 'Transferring' } })).status,
    ).toBe(400);
    expect(recordingOf(destination, beyond)?.status).toBe('not transferred');
    // The clock moves on: the same name is now inside the bounds.
    clock.advance(1000);
    expect(
      (await session.send('PUT', `/${enc(beyond)}`, { headers: { 'X-Container-Meta-Status': 'Transferring' } })).status,
    ).toBe(201);
    expect(recordingOf(destination, beyond)).toMatchObject({ status: 'transferring' });
    expect(recordingOf(destination, beyond)?.reason).toBeUndefined();
  });

  const refusals: [string, (s: SwiftSession) => Promise<void>, string, Record<string, string>, RegExp][] = [
    [
      'the user is not registered',
      async (s) => void (await register(s, 'Devices', 'SN1')),
      recordingContainerName('ghost', 'SN1', TRIGGER),
      {},
      /user "ghost" is not registered/,
    ],
    [
      'the camera is not registered',
      async (s) => void (await register(s, 'Users', 'alice')),
      recordingContainerName('alice', 'SN404', TRIGGER),
      {},
      /camera "SN404" is not registered/,
    ],
    [
      'the time in the name is not a real time',
      (s) => registerBoth(s, 'alice', 'SN1'),
      'alice_SN1_20231301T000000Z',
      {},
      /"20231301T000000Z" in the container name is not a valid UTC time/,
    ],
    [
      'the time is in the far future',
      (s) => registerBoth(s, 'alice', 'SN1'),
      recordingContainerName('alice', 'SN1', NOW + 30 * 24 * 3600_000),
      {},
      /out of bounds \(in the future\)/,
    ],
    [
      'the time is before 2000',
      (s) => registerBoth(s, 'alice', 'SN1'),
      'alice_SN1_19991231T235959Z',
      {},
      /out of bounds \(before 2000-01-01/,
    ],
    [
      'StopTime is before StartTime',
      (s) => registerBoth(s, 'alice', 'SN1'),
      recordingContainerName('alice', 'SN1', TRIGGER),
      { 'X-Container-Meta-Starttime': String(TRIGGER_S + 60), 'X-Container-Meta-Stoptime': String(TRIGGER_S) },
      /StopTime \d+ is before StartTime \d+/,
    ],
  ];

  it.each(refusals)(
    'refuses with 400 when %s, and lists the recording as not transferred',
    async (_what, prepare, container, metadata, reason) => {
      const { destination, session } = await startAt();
      await prepare(session);
      const put = await session.send('PUT', `/${enc(container)}`, {
        headers: { 'X-Container-Meta-Status': 'Transferring', ...metadata },
      });
      expect(put.status).toBe(400);
      expect(put.body).toMatch(reason);
      expect((await session.send('HEAD', `/${enc(container)}`)).status).toBe(404);
      const recording = recordingOf(destination, container);
      expect(recording).toBeDefined();
      expect(recording?.status).toBe('not transferred');
      expect(recording?.reason).toMatch(reason);
    },
  );

  it('refuses a POST that would put StopTime before StartTime on an accepted recording', async () => {
    const { destination, session } = await startAt();
    await registerBoth(session, 'alice', 'SN1');
    const container = recordingContainerName('alice', 'SN1', TRIGGER);
    expect(
      (
        await session.send('PUT', `/${enc(container)}`, {
          headers: { 'X-Container-Meta-Status': 'Transferring', 'X-Container-Meta-Starttime': String(TRIGGER_S) },
        })
      ).status,
    ).toBe(201);
    const post = await session.send('POST', `/${enc(container)}`, {
      headers: { 'X-Container-Meta-Stoptime': String(TRIGGER_S - 1) },
    });
    expect(post.status).toBe(400);
    expect(post.body).toMatch(/StopTime .* is before StartTime/);
    expect(recordingOf(destination, container)).toMatchObject({
      status: 'not transferred',
      reason: expect.stringMatching(/before StartTime/) as string,
    });
    expect((await session.send('HEAD', `/${enc(container)}`)).headers['x-container-meta-stoptime']).toBeUndefined();
  });

  it('a recording refused for an unregistered user is accepted once the user is registered', async () => {
    const { destination, session } = await startAt();
    await register(session, 'Devices', 'SN1');
    const container = recordingContainerName('late', 'SN1', TRIGGER);
    expect(
      (await session.send('PUT', `/${enc(container)}`, { headers: { 'X-Container-Meta-Status': 'Transferring' } }))
        .status,
    ).toBe(400);
    expect(recordingOf(destination, container)?.status).toBe('not transferred');
    expect(await register(session, 'Users', 'late')).toBe(201);
    expect(
      (await session.send('PUT', `/${enc(container)}`, { headers: { 'X-Container-Meta-Status': 'Transferring' } }))
        .status,
    ).toBe(201);
    expect(recordingOf(destination, container)).toMatchObject({ status: 'transferring', userId: 'late' });
    expect(recordingOf(destination, container)?.reason).toBeUndefined();
  });
});

describe('clips', () => {
  async function openRecording(options: Parameters<typeof start>[0] = {}) {
    const started = await startAt(options);
    await registerBoth(started.session, 'first_last', 'BWC0001');
    const container = recordingContainerName('first_last', 'BWC0001', TRIGGER);
    expect(
      (
        await started.session.send('PUT', `/${enc(container)}`, {
          headers: { 'X-Container-Meta-Status': 'Transferring' },
        })
      ).status,
    ).toBe(201);
    return { ...started, container, path: `/${enc(container)}` };
  }

  it('stores a clip with StartTime and StopTime (201, ETag = MD5) and counts it', async () => {
    const { destination, session, container, path } = await openRecording();
    const body = 'm'.repeat(1500);
    const put = await session.send('PUT', `${path}/${TRIGGER_S}_rec-1.mkv`, {
      body,
      headers: { 'Content-Type': 'video/x-matroska', ...clipTimes(TRIGGER_S, TRIGGER_S + 30) },
    });
    expect(put.status).toBe(201);
    expect(put.headers.etag).toBe(md5(body));
    const head = await session.send('HEAD', `${path}/${TRIGGER_S}_rec-1.mkv`);
    expect(head.status).toBe(200);
    expect(head.headers).toMatchObject({
      etag: md5(body),
      'content-length': '1500',
      'content-type': 'video/x-matroska',
      'x-object-meta-starttime': String(TRIGGER_S),
      'x-object-meta-stoptime': String(TRIGGER_S + 30),
    });
    expect(recordingOf(destination, container)).toMatchObject({
      status: 'transferring',
      clips: 1,
      bytes: 1500,
      durationSeconds: 30,
    });
  });

  it('GET of a stored clip returns its body', async () => {
    const { session, path } = await openRecording();
    const body = 'm'.repeat(1500);
    expect(
      (
        await session.send('PUT', `${path}/${TRIGGER_S}_rec-1.mkv`, {
          body,
          headers: clipTimes(TRIGGER_S, TRIGGER_S + 30),
        })
      ).status,
    ).toBe(201);
    const get = await session.send('GET', `${path}/${TRIGGER_S}_rec-1.mkv`);
    expect(get.status).toBe(200);
    expect(get.body).toBe(body);
    expect(get.headers.etag).toBe(md5(body));
  });

  it.each([
    ['without StartTime and StopTime', {}, /no duration: StartTime and StopTime metadata/],
    [
      'with only StartTime',
      { 'X-Object-Meta-Starttime': String(TRIGGER_S) },
      /no duration: StartTime and StopTime metadata/,
    ],
    [
      'with StopTime equal to StartTime',
      clipTimes(TRIGGER_S, TRIGGER_S),
      /no duration: StopTime \d+ is not after StartTime/,
    ],
    [
      'with StopTime before StartTime',
      clipTimes(TRIGGER_S + 10, TRIGGER_S),
      /no duration: StopTime \d+ is not after StartTime/,
    ],
    [
      'with times that are not epoch seconds',
      { 'X-Object-Meta-Starttime': '2024-06-01T11:00:00Z', 'X-Object-Meta-Stoptime': '2024-06-01T11:01:00Z' },
      /no duration/,
    ],
  ])(
    'refuses a clip %s with 400 "no duration" and marks the recording not transferred',
    async (_what, headers, reason) => {
      const { destination, session, container, path } = await openRecording();
      const put = await session.send('PUT', `${path}/${TRIGGER_S}_rec-1.mp4`, { body: 'clip bytes', headers });
      expect(put.status).toBe(400);
      expect(put.body).toMatch(reason);
      expect((await session.send('HEAD', `${path}/${TRIGGER_S}_rec-1.mp4`)).status).toBe(404);
      expect(recordingOf(destination, container)).toMatchObject({
        status: 'not transferred',
        reason: expect.stringMatching(reason) as string,
      });
    },
  );

  it('refuses a clip whose times are out of bounds', async () => {
    const { destination, session, container, path } = await openRecording();
    const future = NOW / 1000 + 7 * 24 * 3600;
    const put = await session.send('PUT', `${path}/${future}_rec-9.mkv`, {
      body: 'x',
      headers: clipTimes(future, future + 10),
    });
    expect(put.status).toBe(400);
    expect(put.body).toMatch(/clip StartTime .* out of bounds/);
    expect(recordingOf(destination, container)?.status).toBe('not transferred');
  });

  it('accepts bookmark_ and _gpstrail.json objects without clip times, and does not count them as clips', async () => {
    const { destination, session, container, path } = await openRecording();
    const bookmark = await session.send('PUT', `${path}/bookmark_${TRIGGER_S + 5}_b1`, {
      body: '',
      headers: {
        'X-Object-Meta-Categoryid': '2',
        'X-Object-Meta-Categoryname': 'Arrest',
        'X-Object-Meta-Tags': 'k%3Av',
      },
    });
    expect(bookmark.status).toBe(201);
    const trail = '{"type":"FeatureCollection","features":[]}';
    const gps = await session.send('PUT', `${path}/${TRIGGER_S}_rec-1_gpstrail.json`, {
      body: trail,
      headers: { 'Content-Type': 'application/json' },
    });
    expect(gps.status).toBe(201);
    expect(gps.headers.etag).toBe(md5(trail));
    expect(recordingOf(destination, container)).toMatchObject({ status: 'transferring', clips: 0, bytes: 0 });
  });

  it('completes a recording: POST Status Complete is 204, totals are summed, "recording complete" is logged', async () => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'info', write: (line) => lines.push(line) });
    const { destination, session, container, path } = await openRecording({ logger });
    const clips: [string, string, number, number][] = [
      [`${TRIGGER_S}_rec-1.mkv`, 'a'.repeat(1000), TRIGGER_S, TRIGGER_S + 30],
      [`${TRIGGER_S + 30}_rec-1.mkv`, 'b'.repeat(2500), TRIGGER_S + 30, TRIGGER_S + 42.5],
    ];
    for (const [name, body, from, to] of clips)
      expect((await session.send('PUT', `${path}/${name}`, { body, headers: clipTimes(from, to) })).status).toBe(201);
    expect((await session.send('PUT', `${path}/bookmark_${TRIGGER_S + 1}_b1`, { body: 'bm' })).status).toBe(201);
    expect(recordingOf(destination, container)?.status).toBe('transferring');

    const complete = await session.send('POST', path, {
      headers: { 'X-Container-Meta-Status': 'Complete', 'X-Container-Meta-Stoptime': String(TRIGGER_S + 42.5) },
    });
    expect(complete.status).toBe(204);
    expect((await session.send('HEAD', path)).headers['x-container-meta-status']).toBe('Complete');
    expect(recordingOf(destination, container)).toMatchObject({
      account: ACCOUNT,
      userId: 'first_last',
      serial: 'BWC0001',
      status: 'complete',
      clips: 2,
      bytes: 3500,
      durationSeconds: 42.5,
    });

    const entries = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((entry) => entry.msg === 'recording complete');
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      account: ACCOUNT,
      recording: container,
      user: 'first_last',
      device: 'BWC0001',
      clips: 2,
      bytes: 3500,
      durationSeconds: 42.5,
    });

    // Complete again: no second log line.
    expect((await session.send('POST', path, { headers: { 'X-Container-Meta-Status': 'Complete' } })).status).toBe(204);
    expect(lines.filter((line) => line.includes('"recording complete"'))).toHaveLength(1);
  });

  it('POST to a recording container that does not exist is 404', async () => {
    const { session } = await openRecording();
    const missing = recordingContainerName('first_last', 'BWC0001', TRIGGER - 60_000);
    expect(
      (await session.send('POST', `/${enc(missing)}`, { headers: { 'X-Container-Meta-Status': 'Complete' } })).status,
    ).toBe(404);
  });
});

describe('rejected content', () => {
  it.each([
    'RejectedContent_20240601T110000Z_0b6f3f5e-2c1d-4c8e-9f00-1234567890ab',
    'RejectedContent_UnknownTime_9d8c7b6a-5f4e-4d3c-8b2a-0f1e2d3c4b5a',
  ])('accepts %s and its objects even with an unknown user and no clip times', async (container) => {
    const { destination, session } = await startAt();
    const put = await session.send('PUT', `/${enc(container)}`, {
      headers: {
        'X-Container-Meta-Userid': 'ghost',
        'X-Container-Meta-Bwcserialnumber': 'SN404',
        'X-Container-Meta-Status': 'Transferring',
      },
    });
    expect(put.status).toBe(201);
    const clip = await session.send('PUT', `/${enc(container)}/1717239600_rec-1.mkv`, { body: 'rejected clip' });
    expect(clip.status).toBe(201);
    const times = await session.send('PUT', `/${enc(container)}/1717239600_rec-2.mkv`, {
      body: 'x',
      headers: clipTimes(TRIGGER_S + 10, TRIGGER_S),
    });
    expect(times.status).toBe(201);
    expect(
      (
        await session.send('POST', `/${enc(container)}`, {
          headers: {
            'X-Container-Meta-Status': 'Complete',
            'X-Container-Meta-Stoptime': '1',
            'X-Container-Meta-Starttime': '99999999999',
          },
        })
      ).status,
    ).toBe(204);
    expect(destination.recordings().filter((r) => r.status === 'not transferred')).toEqual([]);
  });
});

describe('read-only logins', () => {
  it('answers 403 to every write of a read-only user and lets it read', async () => {
    const { destination, session } = await startAt({
      users: [
        { user: 'bws', key: 'secret' },
        { user: 'bws:auditor', key: 'audit', readOnly: true },
      ],
    });
    await registerBoth(session, 'alice', 'SN1');
    const container = recordingContainerName('alice', 'SN1', TRIGGER);
    expect(
      (await session.send('PUT', `/${enc(container)}`, { headers: { 'X-Container-Meta-Status': 'Transferring' } }))
        .status,
    ).toBe(201);

    const auditor = await login(destination, 'bws:auditor', 'audit');
    expect(auditor.storagePath).toBe(`/v1/${ACCOUNT}`);
    const writes: [string, string, string | undefined][] = [
      ['PUT', '/Users', undefined],
      ['PUT', '/Users/bob', ''],
      ['POST', '/Users/alice', undefined],
      ['DELETE', '/Users/alice', undefined],
      ['PUT', `/${enc(recordingContainerName('alice', 'SN1', TRIGGER - 60_000))}`, undefined],
      ['POST', `/${enc(container)}`, undefined],
      ['PUT', `/${enc(container)}/${TRIGGER_S}_rec-1.mkv`, 'clip body that is drained'],
      ['DELETE', `/${enc(container)}`, undefined],
      ['PUT', '/System/Capabilities.json', '{}'],
    ];
    for (const [method, path, body] of writes) {
      const answer = await auditor.send(method, path, {
        body,
        headers: {
          'X-Object-Meta-Name': 'x',
          'X-Container-Meta-Status': 'Complete',
          ...clipTimes(TRIGGER_S, TRIGGER_S + 5),
        },
      });
      expect({ method, path, status: answer.status }).toEqual({ method, path, status: 403 });
      expect(answer.body).toMatch(/read-only/);
    }
    expect((await auditor.send('HEAD', '/System/Capabilities.json')).status).toBe(200);
    expect((await auditor.send('HEAD', '/Users/alice')).status).toBe(200);
    expect((await auditor.send('GET', `/${enc(container)}`)).status).toBe(204);
    expect(recordingOf(destination, container)?.status).toBe('transferring');
    expect((await session.send('HEAD', '/Users/bob')).status).toBe(404);
  });
});

describe('restart on the same data directory', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'bwc-dest-restart-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('lists the same recordings, with status, clips, bytes and duration', async () => {
    const clock = new ManualClock(NOW);
    const first = await start({ dataDir, clock });
    const session = await login(first);
    await registerBoth(session, 'first_last', 'BWC0001');
    await registerBoth(session, 'bob', 'BWC0002');
    const done = recordingContainerName('first_last', 'BWC0001', TRIGGER);
    const busy = recordingContainerName('bob', 'BWC0002', TRIGGER + 60_000);
    for (const container of [done, busy])
      expect(
        (await session.send('PUT', `/${enc(container)}`, { headers: { 'X-Container-Meta-Status': 'Transferring' } }))
          .status,
      ).toBe(201);
    expect(
      (
        await session.send('PUT', `/${enc(done)}/${TRIGGER_S}_r.mkv`, {
          body: 'x'.repeat(700),
          headers: clipTimes(TRIGGER_S, TRIGGER_S + 20),
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await session.send('PUT', `/${enc(done)}/${TRIGGER_S + 20}_r.mkv`, {
          body: 'y'.repeat(300),
          headers: clipTimes(TRIGGER_S + 20, TRIGGER_S + 25),
        })
      ).status,
    ).toBe(201);
    expect(
      (await session.send('POST', `/${enc(done)}`, { headers: { 'X-Container-Meta-Status': 'Complete' } })).status,
    ).toBe(204);
    expect(
      (
        await session.send('PUT', `/${enc(busy)}/${TRIGGER_S + 60}_r.mp4`, {
          body: 'z'.repeat(50),
          headers: clipTimes(TRIGGER_S + 60, TRIGGER_S + 61),
        })
      ).status,
    ).toBe(201);

    const strip = (list: ReturnType<DestinationHandle['recordings']>) =>
      list.map(({ updated: _updated, ...rest }) => rest);
    const before = strip(first.recordings());
    expect(before).toEqual([
      expect.objectContaining({ container: done, status: 'complete', clips: 2, bytes: 1000, durationSeconds: 25 }),
      expect.objectContaining({ container: busy, status: 'transferring', clips: 1, bytes: 50, durationSeconds: 1 }),
    ]);
    await first.close();

    const second = await start({ dataDir, clock });
    expect(strip(second.recordings())).toEqual(before);
    expect(strip(second.recordings(ACCOUNT))).toEqual(before);
    const again = await login(second);
    expect((await again.send('HEAD', `/${enc(done)}`)).headers['x-container-meta-status']).toBe('Complete');
    expect((await again.send('HEAD', `/${enc(done)}/${TRIGGER_S}_r.mkv`)).headers.etag).toBe(md5('x'.repeat(700)));
    // The registrations survived too: the busy recording can go on.
    expect(
      (
        await again.send('PUT', `/${enc(busy)}/${TRIGGER_S + 61}_r.mp4`, {
          body: 'w',
          headers: clipTimes(TRIGGER_S + 61, TRIGGER_S + 62),
        })
      ).status,
    ).toBe(201);
    expect(second.recordings().find((r) => r.container === busy)).toMatchObject({
      clips: 2,
      bytes: 51,
      durationSeconds: 2,
    });
  });
});
