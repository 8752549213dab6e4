/**
 * The destination's `GET /` recordings page over real sockets: a 401 with Digest
 * and Basic challenges, the page with Basic or Digest (the login's key as the
 * password), one account's recordings only, and names HTML-escaped.
 */
import { destinationStarter, login, type SwiftSession } from '../helpers/destinations';
import { digestRequest } from '../helpers/digest-request';
import { basicAuthorization, challengesOf, sendRequest } from '../helpers/http';
import { type DestinationHandle, ManualClock, recordingContainerName } from '../../src';

const NOW = Date.UTC(2024, 5, 1, 12, 0, 0);
const TRIGGER = NOW - 3600_000;

const start = destinationStarter();
const enc = encodeURIComponent;

async function startAt(options: Parameters<typeof start>[0] = {}): Promise<DestinationHandle> {
  return start({ clock: new ManualClock(NOW), ...options });
}

async function register(session: SwiftSession, userId: string, serial: string): Promise<void> {
  for (const container of ['Users', 'Devices'])
    expect([201, 202]).toContain((await session.send('PUT', `/${container}`)).status);
  expect(
    (
      await session.send('PUT', `/Users/${enc(userId)}`, {
        body: '',
        headers: { 'X-Object-Meta-Name': 'someone', 'X-Object-Meta-Active': 'True' },
      })
    ).status,
  ).toBe(201);
  expect(
    (
      await session.send('PUT', `/Devices/${enc(serial)}`, {
        body: '',
        headers: { 'X-Object-Meta-Name': 'cam', 'X-Object-Meta-Active': 'True', 'X-Object-Meta-Model': 'W100' },
      })
    ).status,
  ).toBe(201);
}

/** A recording with `clips` one-second clips of 100 bytes, completed when asked. */
async function record(
  session: SwiftSession,
  userId: string,
  serial: string,
  trigger: number,
  clips: number,
  complete: boolean,
): Promise<string> {
  const container = recordingContainerName(userId, serial, trigger);
  expect(
    (await session.send('PUT', `/${enc(container)}`, { headers: { 'X-Container-Meta-Status': 'Transferring' } }))
      .status,
  ).toBe(201);
  const startS = trigger / 1000;
  for (let i = 0; i < clips; i++) {
    const put = await session.send('PUT', `/${enc(container)}/${startS + i}_r.mkv`, {
      body: 'c'.repeat(100),
      headers: { 'X-Object-Meta-Starttime': String(startS + i), 'X-Object-Meta-Stoptime': String(startS + i + 1) },
    });
    expect(put.status).toBe(201);
  }
  if (complete)
    expect(
      (await session.send('POST', `/${enc(container)}`, { headers: { 'X-Container-Meta-Status': 'Complete' } })).status,
    ).toBe(204);
  return container;
}

/** The `<tr>` of a container on the page. */
function rowOf(html: string, escapedContainer: string): string | undefined {
  return html.split('\n').find((line) => line.startsWith('<tr') && line.includes(`<td>${escapedContainer}</td>`));
}

describe('GET / (recordings page)', () => {
  it('asks for credentials: 401 with Digest and Basic challenges', async () => {
    const destination = await startAt();
    const answer = await sendRequest(destination.url, { path: '/' });
    expect(answer.status).toBe(401);
    const challenges = challengesOf(answer);
    expect(
      challenges.some((c) => /^Digest /.test(c) && /realm="bwc-emu content destination"/.test(c) && /nonce="/.test(c)),
    ).toBe(true);
    expect(challenges.some((c) => /^Digest .*algorithm=SHA-256/.test(c))).toBe(true);
    expect(challenges).toContain('Basic realm="bwc-emu content destination"');
    expect(answer.body).not.toMatch(/Recordings of account/);
  });

  it('refuses a wrong key, an unknown login, and a Swift token in place of credentials', async () => {
    const destination = await startAt();
    for (const authorization of [basicAuthorization('bws', 'wrong'), basicAuthorization('nobody', 'secret')]) {
      const answer = await sendRequest(destination.url, { path: '/', headers: { Authorization: authorization } });
      expect(answer.status).toBe(401);
      expect(challengesOf(answer).length).toBeGreaterThanOrEqual(2);
    }
    const session = await login(destination);
    expect((await sendRequest(destination.url, { path: '/', headers: { 'X-Auth-Token': session.token } })).status).toBe(
      401,
    );
  });

  it('with Basic bws:secret: 200 HTML listing the account recordings with their status', async () => {
    const destination = await startAt();
    const session = await login(destination);
    await register(session, 'first_last', 'BWC0001');
    const done = await record(session, 'first_last', 'BWC0001', TRIGGER, 2, true);
    const busy = await record(session, 'first_last', 'BWC0001', TRIGGER + 60_000, 1, false);
    const refused = recordingContainerName('ghost', 'BWC0001', TRIGGER);
    expect((await session.send('PUT', `/${enc(refused)}`)).status).toBe(400);

    const page = await sendRequest(destination.url, {
      path: '/',
      headers: { Authorization: basicAuthorization('bws', 'secret') },
    });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).toMatch(/^<!doctype html>/);
    expect(page.body).toContain('Recordings of account AUTH_bws');
    expect(page.body).toContain('3 recording(s)');

    const doneRow = rowOf(page.body, done);
    expect(doneRow).toBeDefined();
    expect(doneRow).toContain('<td>complete</td>');
    expect(doneRow).toContain('<td>first_last</td><td>BWC0001</td>');
    expect(doneRow).toContain(`<td>${new Date(TRIGGER).toISOString()}</td>`);
    expect(doneRow).toContain('<td>2</td><td>200</td><td>2</td>');
    expect(rowOf(page.body, busy)).toContain('<td>transferring</td>');
    const refusedRow = rowOf(page.body, refused);
    expect(refusedRow).toMatch(/<td>not transferred<br><small>user &#34;ghost&#34; is not registered/);
    expect(refusedRow).toMatch(/^<tr class="not-transferred">/);
  });

  it('with Digest (MD5 and SHA-256): 200 with the same page', async () => {
    const destination = await startAt();
    const session = await login(destination);
    await register(session, 'alice', 'SN1');
    const container = await record(session, 'alice', 'SN1', TRIGGER, 1, true);
    for (const algorithm of ['MD5', 'SHA-256'] as const) {
      const page = await digestRequest(destination.url, { path: '/', username: 'bws', password: 'secret', algorithm });
      expect(page.challenge.status).toBe(401);
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toMatch(/text\/html/);
      expect(rowOf(page.body, container)).toContain('<td>complete</td>');
    }
    const wrong = await digestRequest(destination.url, { path: '/', username: 'bws', password: 'nope' });
    expect(wrong.status).toBe(401);
  });

  it('with no recordings yet: says so', async () => {
    const destination = await startAt();
    const page = await sendRequest(destination.url, {
      path: '/',
      headers: { Authorization: basicAuthorization('bws', 'secret') },
    });
    expect(page.status).toBe(200);
    expect(page.body).toContain('No recordings yet.');
    expect(page.body).toContain('0 recording(s)');
  });

  it("each login sees only its own account's recordings", async () => {
    const destination = await startAt({
      users: [
        { user: 'bws', key: 'secret' },
        { user: 'other', key: 'pw' },
      ],
    });
    const mine = await login(destination);
    const theirs = await login(destination, 'other', 'pw');
    expect(theirs.storagePath).toBe('/v1/AUTH_other');
    await register(mine, 'alice', 'SN1');
    await register(theirs, 'zed', 'SN9');
    const alice = await record(mine, 'alice', 'SN1', TRIGGER, 1, true);
    const zed = await record(theirs, 'zed', 'SN9', TRIGGER, 1, false);

    const bwsPage = await sendRequest(destination.url, {
      path: '/',
      headers: { Authorization: basicAuthorization('bws', 'secret') },
    });
    expect(bwsPage.status).toBe(200);
    expect(bwsPage.body).toContain('Recordings of account AUTH_bws');
    expect(bwsPage.body).toContain(alice);
    expect(bwsPage.body).not.toContain(zed);
    expect(bwsPage.body).toContain('1 recording(s)');

    const otherPage = await digestRequest(destination.url, { path: '/', username: 'other', password: 'pw' });
    expect(otherPage.status).toBe(200);
    expect(otherPage.body).toContain('Recordings of account AUTH_other');
    expect(otherPage.body).toContain(zed);
    expect(otherPage.body).not.toContain(alice);
    expect(rowOf(otherPage.body, zed)).toContain('<td>transferring</td>');

    // The key of one login does not open the page as the other.
    expect(
      (
        await sendRequest(destination.url, {
          path: '/',
          headers: { Authorization: basicAuthorization('other', 'secret') },
        })
      ).status,
    ).toBe(401);
  });

  it('HTML-escapes names: a user ID with & and <b> in it (a container name cannot hold "/", so no closing tag)', async () => {
    const destination = await startAt();
    const session = await login(destination);
    const userId = 'R&D_<b>team';
    await register(session, userId, 'SN1');
    const container = await record(session, userId, 'SN1', TRIGGER, 1, false);
    expect(container).toBe(`${userId}_SN1_20240601T110000Z`);
    const refused = recordingContainerName('"ghost"&<i>', 'SN1', TRIGGER);
    expect((await session.send('PUT', `/${enc(refused)}`)).status).toBe(400);

    const page = await sendRequest(destination.url, {
      path: '/',
      headers: { Authorization: basicAuthorization('bws', 'secret') },
    });
    expect(page.status).toBe(200);
    const escapedUser = 'R&#38;D_&#60;b&#62;team';
    const row = rowOf(page.body, `${escapedUser}_SN1_20240601T110000Z`);
    expect(row).toBeDefined();
    expect(row).toContain(`<td>${escapedUser}</td>`);
    expect(page.body).not.toContain('<b>');
    expect(page.body).not.toContain('R&D');
    expect(page.body).not.toContain('<i>');
    expect(page.body).toContain('&#34;ghost&#34;&#38;&#60;i&#62;_SN1_20240601T110000Z');
    // Every & left in the page starts an entity.
    expect(page.body.match(/&(?!#\d+;)/g)).toBeNull();
  });

  it('a tempauth-style login (account:user) opens its page with Digest', async () => {
    const destination = await startAt({ users: [{ user: 'team:alice', key: 'wonder' }] });
    const session = await login(destination, 'team:alice', 'wonder');
    expect(session.storagePath).toBe('/v1/AUTH_team');
    await register(session, 'alice', 'SN1');
    const container = await record(session, 'alice', 'SN1', TRIGGER, 1, true);
    const page = await digestRequest(destination.url, { path: '/', username: 'team:alice', password: 'wonder' });
    expect(page.status).toBe(200);
    expect(page.body).toContain('Recordings of account AUTH_team');
    expect(rowOf(page.body, container)).toContain('<td>complete</td>');
  });

  it('HEAD / with credentials: 200 with the length of the page and no body', async () => {
    const destination = await startAt();
    const authorization = basicAuthorization('bws', 'secret');
    const get = await sendRequest(destination.url, { path: '/', headers: { Authorization: authorization } });
    const head = await sendRequest(destination.url, {
      method: 'HEAD',
      path: '/',
      headers: { Authorization: authorization },
    });
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(get.body)));
  });
});
