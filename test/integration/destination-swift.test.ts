/**
 * The Swift subset of the reference content destination over real sockets: v1
 * auth (tokens, expiry on a ManualClock, accounts, read-only and tempauth logins),
 * account, container and object operations with their metadata, listings, Swift's
 * name and metadata limits, 405/404, and the same over HTTPS.
 */
import { createHash } from 'node:crypto';
import { destinationStarter, login, type SwiftSession } from '../helpers/destinations';
import { type HttpResult, sendRequest } from '../helpers/http';
import { type DestinationHandle, ManualClock } from '../../src';

const start = destinationStarter();

function md5(body: string | Buffer): string {
  return createHash('md5').update(body).digest('hex');
}

/** `GET /auth/v1.0` with exactly these headers. */
function auth(destination: DestinationHandle, headers: Record<string, string>): Promise<HttpResult> {
  return sendRequest(destination.url, { path: '/auth/v1.0', headers, ca: destination.certificate });
}

/** A destination and a logged-in default session. */
async function started(
  options: Parameters<typeof start>[0] = {},
): Promise<{ destination: DestinationHandle; session: SwiftSession }> {
  const destination = await start(options);
  return { destination, session: await login(destination) };
}

/** Creates a container and expects 201. */
async function makeContainer(session: SwiftSession, name: string, headers: Record<string, string> = {}): Promise<void> {
  const answer = await session.send('PUT', `/${encodeURIComponent(name)}`, { headers });
  expect(answer.status).toBe(201);
}

/** Puts an object and expects 201. */
async function putObject(
  session: SwiftSession,
  container: string,
  name: string,
  body: string,
  headers: Record<string, string> = {},
): Promise<HttpResult> {
  const answer = await session.send('PUT', `/${container}/${name}`, { body, headers });
  expect(answer.status).toBe(201);
  return answer;
}

/** Metadata headers `X-{kind}-Meta-m{i}` with the given value. */
function manyMeta(kind: 'Container' | 'Object', count: number, value = 'v'): Record<string, string> {
  return Object.fromEntries(Array.from({ length: count }, (_, i) => [`X-${kind}-Meta-M${i}`, value]));
}

describe('auth /auth/v1.0', () => {
  it('answers 200 with the token twice, its lifetime (900 s by default) and the storage URL', async () => {
    const destination = await start();
    const answer = await auth(destination, { 'X-Auth-User': 'bws', 'X-Auth-Key': 'secret' });
    expect(answer.status).toBe(200);
    const token = answer.headers['x-auth-token'];
    expect(token).toMatch(/^AUTH_tk[0-9a-f]{32}$/);
    expect(answer.headers['x-storage-token']).toBe(token);
    expect(answer.headers['x-auth-token-expires']).toBe('900');
    expect(answer.headers['x-storage-url']).toBe(`${destination.url}/v1/AUTH_bws`);
    expect(destination.storageUrl()).toBe(`${destination.url}/v1/AUTH_bws`);
    // The token works on the storage URL.
    const head = await sendRequest(destination.url, {
      method: 'HEAD',
      path: '/v1/AUTH_bws',
      headers: { 'X-Auth-Token': String(token) },
    });
    expect(head.status).toBe(204);
    // Each login gets its own token.
    const again = await auth(destination, { 'X-Auth-User': 'bws', 'X-Auth-Key': 'secret' });
    expect(again.headers['x-auth-token']).not.toBe(token);
  });

  it('the token lifetime is configurable (tokenLifetimeMs)', async () => {
    const destination = await start({ tokenLifetimeMs: 60_000 });
    const answer = await auth(destination, { 'X-Auth-User': 'bws', 'X-Auth-Key': 'secret' });
    expect(answer.status).toBe(200);
    expect(answer.headers['x-auth-token-expires']).toBe('60');
  });

  it('accepts the key as X-Auth-Key and as Auth-Key (the spec)', async () => {
    const destination = await start();
    expect((await auth(destination, { 'X-Auth-User': 'bws', 'X-Auth-Key': 'secret' })).status).toBe(200);
    const spec = await auth(destination, { 'X-Auth-User': 'bws', 'Auth-Key': 'secret' });
    expect(spec.status).toBe(200);
    expect(spec.headers['x-auth-token']).toMatch(/^AUTH_tk/);
  });

  it('401 for missing headers, a wrong key or an unknown user, with no token', async () => {
    const destination = await start();
    const refused = [
      await auth(destination, {}),
      await auth(destination, { 'X-Auth-User': 'bws' }),
      await auth(destination, { 'X-Auth-Key': 'secret' }),
      await auth(destination, { 'Auth-Key': 'secret' }),
      await auth(destination, { 'X-Auth-User': 'bws', 'X-Auth-Key': 'wrong' }),
      await auth(destination, { 'X-Auth-User': 'bws', 'Auth-Key': '' }),
      await auth(destination, { 'X-Auth-User': 'nobody', 'X-Auth-Key': 'secret' }),
    ];
    for (const answer of refused) {
      expect(answer.status).toBe(401);
      expect(answer.headers['x-auth-token']).toBeUndefined();
      expect(answer.headers['x-storage-url']).toBeUndefined();
    }
  });

  it('throttles an address past 20 wrong keys in 10 s: 429 with Retry-After, even for the right key, until the window ends', async () => {
    const clock = new ManualClock();
    const destination = await start({ clock });
    // Four logins, each named fewer than 10 times (the limit per address and login): the address's limit comes first.
    for (let i = 0; i < 20; i++)
      expect(
        (await auth(destination, { 'X-Auth-User': ['bws', 'a', 'b', 'c'][i % 4], 'X-Auth-Key': `guess${i}` })).status,
      ).toBe(401);
    clock.advance(3_000);
    const throttled = await auth(destination, { 'X-Auth-User': 'bws', 'X-Auth-Key': 'secret' });
    expect({ status: throttled.status, retryAfter: throttled.headers['retry-after'] }).toEqual({
      status: 429,
      retryAfter: '7',
    });
    expect(throttled.body).toMatch(
      /^Too Many Requests: too many failed logins from .*: at most 20 per 10 s; retry in 7 s/,
    );
    expect(throttled.headers['x-auth-token']).toBeUndefined();
    clock.advance(7_000);
    expect((await auth(destination, { 'X-Auth-User': 'bws', 'X-Auth-Key': 'secret' })).status).toBe(200);
  });

  it('a token expires after its lifetime on the clock: 401, and a new login works', async () => {
    const clock = new ManualClock();
    const destination = await start({ clock });
    const session = await login(destination);
    expect((await session.send('HEAD', '')).status).toBe(204);
    clock.advance(15 * 60_000 - 1);
    expect((await session.send('HEAD', '')).status).toBe(204);
    clock.advance(1);
    const expired = await session.send('HEAD', '');
    expect(expired.status).toBe(401);
    const expiredGet = await session.send('GET', '');
    expect(expiredGet.status).toBe(401);
    expect(expiredGet.body).toMatch(/Unauthorized/);
    const fresh = await login(destination);
    expect(fresh.token).not.toBe(session.token);
    expect((await fresh.send('HEAD', '')).status).toBe(204);
  });

  it('a configured lifetime is kept on the clock', async () => {
    const clock = new ManualClock();
    const destination = await start({ clock, tokenLifetimeMs: 5_000 });
    const session = await login(destination);
    clock.advance(4_999);
    expect((await session.send('GET', '')).status).toBe(200);
    clock.advance(1);
    expect((await session.send('GET', '')).status).toBe(401);
  });

  it('an unknown token and a missing token are 401; revoked tokens too', async () => {
    const destination = await start();
    const unknown = await sendRequest(destination.url, {
      path: '/v1/AUTH_bws',
      headers: { 'X-Auth-Token': 'AUTH_tk00000000000000000000000000000000' },
    });
    expect(unknown.status).toBe(401);
    const missing = await sendRequest(destination.url, { path: '/v1/AUTH_bws' });
    expect(missing.status).toBe(401);
    expect(missing.body).toMatch(/X-Auth-Token/);
    const missingPut = await sendRequest(destination.url, { method: 'PUT', path: '/v1/AUTH_bws/c' });
    expect(missingPut.status).toBe(401);
    const session = await login(destination);
    expect((await session.send('HEAD', '/c')).status).toBe(404);
    destination.revokeTokens();
    expect((await session.send('HEAD', '')).status).toBe(401);
  });

  it('X-Storage-Token is accepted in place of X-Auth-Token', async () => {
    const destination = await start();
    const session = await login(destination);
    const answer = await sendRequest(destination.url, {
      method: 'HEAD',
      path: session.storagePath,
      headers: { 'X-Storage-Token': session.token },
    });
    expect(answer.status).toBe(204);
  });

  it("another account's path is 403 with a valid token", async () => {
    const destination = await start({
      users: [
        { user: 'bws', key: 'secret' },
        { user: 'other', key: 'k2' },
      ],
    });
    const bws = await login(destination);
    const other = await login(destination, 'other', 'k2');
    expect(bws.storagePath).toBe('/v1/AUTH_bws');
    expect(other.storagePath).toBe('/v1/AUTH_other');
    expect((await other.send('PUT', '/theirs')).status).toBe(201);
    const asBws = (method: string, path: string) =>
      sendRequest(destination.url, { method, path, headers: { 'X-Auth-Token': bws.token } });
    expect((await asBws('GET', '/v1/AUTH_other')).status).toBe(403);
    expect((await asBws('HEAD', '/v1/AUTH_other/theirs')).status).toBe(403);
    expect((await asBws('PUT', '/v1/AUTH_other/mine')).status).toBe(403);
    expect((await asBws('DELETE', '/v1/AUTH_other/theirs')).status).toBe(403);
    // Nothing changed in the other account.
    expect((await other.send('GET', '')).body.split('\n')).toContain('theirs');
    expect((await other.send('HEAD', '/mine')).status).toBe(404);
    // Each account sees only its own containers.
    expect((await bws.send('GET', '')).body.split('\n')).not.toContain('theirs');
  });

  it('a read-only user gets 403 on PUT, POST and DELETE but reads with GET and HEAD', async () => {
    const destination = await start({
      users: [
        { user: 'bws', key: 'secret' },
        { user: 'viewer', key: 'look', account: 'AUTH_bws', readOnly: true },
      ],
    });
    const writer = await login(destination);
    await makeContainer(writer, 'c');
    await putObject(writer, 'c', 'o', 'hello', { 'X-Object-Meta-Kind': 'k' });
    const viewer = await login(destination, 'viewer', 'look');
    expect(viewer.storagePath).toBe('/v1/AUTH_bws');
    for (const [method, path] of [
      ['PUT', '/c2'],
      ['PUT', '/c'],
      ['POST', '/c'],
      ['DELETE', '/c'],
      ['PUT', '/c/o'],
      ['PUT', '/c/new'],
      ['POST', '/c/o'],
      ['DELETE', '/c/o'],
    ]) {
      const answer = await viewer.send(
        method,
        path,
        method === 'PUT' && path.startsWith('/c/') ? { body: 'changed' } : {},
      );
      expect({ method, path, status: answer.status }).toEqual({ method, path, status: 403 });
    }
    const get = await viewer.send('GET', '/c/o');
    expect(get.status).toBe(200);
    expect(get.body).toBe('hello');
    const head = await viewer.send('HEAD', '/c/o');
    expect(head.status).toBe(200);
    expect(head.headers['x-object-meta-kind']).toBe('k');
    expect((await viewer.send('GET', '/c')).status).toBe(200);
    expect((await viewer.send('HEAD', '/c')).status).toBe(204);
    expect((await viewer.send('GET', '')).status).toBe(200);
    // Nothing was changed by the refused writes.
    expect((await writer.send('HEAD', '/c2')).status).toBe(404);
    expect((await writer.send('HEAD', '/c/new')).status).toBe(404);
    expect((await writer.send('GET', '/c/o')).body).toBe('hello');
  });

  it('a tempauth-style user acct:name logs into AUTH_acct', async () => {
    const destination = await start({ users: [{ user: 'acct:name', key: 'pw' }] });
    expect(destination.users[0].account).toBe('AUTH_acct');
    const answer = await auth(destination, { 'X-Auth-User': 'acct:name', 'X-Auth-Key': 'pw' });
    expect(answer.status).toBe(200);
    expect(answer.headers['x-storage-url']).toBe(`${destination.url}/v1/AUTH_acct`);
    const session = await login(destination, 'acct:name', 'pw');
    expect((await session.send('PUT', '/c')).status).toBe(201);
    expect((await session.send('HEAD', '')).status).toBe(204);
    expect((await auth(destination, { 'X-Auth-User': 'name', 'X-Auth-Key': 'pw' })).status).toBe(401);
  });
});

describe('account', () => {
  it('HEAD is 204 with container, object and byte counts', async () => {
    const { session } = await started();
    const before = await session.send('HEAD', '');
    expect(before.status).toBe(204);
    // The destination publishes System/Capabilities.json and System/Categories.json at start.
    const containers0 = Number(before.headers['x-account-container-count']);
    const objects0 = Number(before.headers['x-account-object-count']);
    const bytes0 = Number(before.headers['x-account-bytes-used']);
    expect(containers0).toBe(1);
    expect(objects0).toBe(2);
    expect(bytes0).toBeGreaterThan(0);
    expect(before.headers['x-timestamp']).toMatch(/^\d+\.\d{5}$/);
    await makeContainer(session, 'a');
    await makeContainer(session, 'b');
    await putObject(session, 'a', 'one', '12345');
    await putObject(session, 'b', 'two', 'abc');
    await putObject(session, 'b', 'three', '');
    const after = await session.send('HEAD', '');
    expect(after.status).toBe(204);
    expect(after.headers['x-account-container-count']).toBe(String(containers0 + 2));
    expect(after.headers['x-account-object-count']).toBe(String(objects0 + 3));
    expect(after.headers['x-account-bytes-used']).toBe(String(bytes0 + 8));
    expect(after.body).toBe('');
  });

  it('GET lists containers as text (one a line) and as JSON', async () => {
    const { session } = await started();
    await makeContainer(session, 'beta');
    await makeContainer(session, 'alpha');
    await putObject(session, 'beta', 'x', 'four');
    const text = await session.send('GET', '');
    expect(text.status).toBe(200);
    expect(text.headers['content-type']).toMatch(/^text\/plain/);
    expect(text.body).toBe('System\nalpha\nbeta\n');
    expect(text.headers['x-account-container-count']).toBe('3');
    const json = await session.send('GET', '?format=json');
    expect(json.status).toBe(200);
    expect(json.headers['content-type']).toMatch(/^application\/json/);
    const list = JSON.parse(json.body) as { name: string; count: number; bytes: number; last_modified: string }[];
    expect(list.map((c) => c.name)).toEqual(['System', 'alpha', 'beta']);
    expect(list[1]).toEqual({
      name: 'alpha',
      count: 0,
      bytes: 0,
      last_modified: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}$/) as string,
    });
    expect(list[2]).toMatchObject({ name: 'beta', count: 1, bytes: 4 });
    const paged = await session.send('GET', '?format=json&marker=System&limit=1');
    expect((JSON.parse(paged.body) as { name: string }[]).map((c) => c.name)).toEqual(['alpha']);
    expect((await session.send('GET', '?prefix=b')).body).toBe('beta\n');
  });
});

describe('containers', () => {
  it('PUT is 201 new, then 202; POST (204) merges metadata; an empty value and X-Remove-Container-Meta-* remove', async () => {
    const { session } = await started();
    expect(
      (await session.send('PUT', '/c', { headers: { 'X-Container-Meta-A': '1', 'X-Container-Meta-B': '2' } })).status,
    ).toBe(201);
    const again = await session.send('PUT', '/c', { headers: { 'X-Container-Meta-C': '3' } });
    expect(again.status).toBe(202);
    let head = await session.send('HEAD', '/c');
    expect(head.status).toBe(204);
    expect([
      head.headers['x-container-meta-a'],
      head.headers['x-container-meta-b'],
      head.headers['x-container-meta-c'],
    ]).toEqual(['1', '2', '3']);

    const post = await session.send('POST', '/c', {
      headers: { 'X-Container-Meta-A': 'one', 'X-Container-Meta-D': '4' },
    });
    expect(post.status).toBe(204);
    head = await session.send('HEAD', '/c');
    expect([
      head.headers['x-container-meta-a'],
      head.headers['x-container-meta-b'],
      head.headers['x-container-meta-c'],
      head.headers['x-container-meta-d'],
    ]).toEqual(['one', '2', '3', '4']);

    expect((await session.send('POST', '/c', { headers: { 'X-Container-Meta-B': '' } })).status).toBe(204);
    expect((await session.send('POST', '/c', { headers: { 'X-Remove-Container-Meta-C': 'x' } })).status).toBe(204);
    head = await session.send('HEAD', '/c');
    expect(head.headers['x-container-meta-b']).toBeUndefined();
    expect(head.headers['x-container-meta-c']).toBeUndefined();
    expect(head.headers['x-container-meta-a']).toBe('one');
    expect(head.headers['x-container-meta-d']).toBe('4');
    // Headers come back in Swift's canonical form.
    expect(head.headersDistinct).toHaveProperty('x-container-meta-a');
  });

  it('POST to a missing container is 404 and creates nothing', async () => {
    const { session } = await started();
    expect((await session.send('POST', '/missing', { headers: { 'X-Container-Meta-A': '1' } })).status).toBe(404);
    expect((await session.send('HEAD', '/missing')).status).toBe(404);
    expect((await session.send('GET', '/missing')).status).toBe(404);
  });

  it('HEAD is 204 with object count, bytes used and metadata', async () => {
    const { session } = await started();
    await makeContainer(session, 'c', { 'X-Container-Meta-Status': 'Transferring' });
    await putObject(session, 'c', 'a', 'xyz');
    await putObject(session, 'c', 'b', '1234567');
    const head = await session.send('HEAD', '/c');
    expect(head.status).toBe(204);
    expect(head.headers['x-container-object-count']).toBe('2');
    expect(head.headers['x-container-bytes-used']).toBe('10');
    expect(head.headers['x-container-meta-status']).toBe('Transferring');
    expect(head.headers['x-timestamp']).toMatch(/^\d+\.\d{5}$/);
    expect(head.body).toBe('');
  });

  it('GET lists objects as text, as JSON, and an empty text listing is 204', async () => {
    const { session } = await started();
    await makeContainer(session, 'c');
    const empty = await session.send('GET', '/c');
    expect(empty.status).toBe(204);
    expect(empty.body).toBe('');
    expect(empty.headers['x-container-object-count']).toBe('0');
    const emptyJson = await session.send('GET', '/c?format=json');
    expect(emptyJson.status).toBe(200);
    expect(JSON.parse(emptyJson.body)).toEqual([]);

    await putObject(session, 'c', 'b.txt', 'bee', { 'Content-Type': 'text/plain' });
    await putObject(session, 'c', 'a.bin', 'ay');
    const text = await session.send('GET', '/c');
    expect(text.status).toBe(200);
    expect(text.body).toBe('a.bin\nb.txt\n');
    const json = await session.send('GET', '/c?format=json');
    expect(json.status).toBe(200);
    const list = JSON.parse(json.body) as Record<string, unknown>[];
    expect(list).toEqual([
      {
        name: 'a.bin',
        hash: md5('ay'),
        bytes: 2,
        content_type: 'application/octet-stream',
        last_modified: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}$/) as string,
      },
      {
        name: 'b.txt',
        hash: md5('bee'),
        bytes: 3,
        content_type: 'text/plain',
        last_modified: expect.any(String) as string,
      },
    ]);
    // Accept: application/json chooses JSON too.
    const accepted = await session.send('GET', '/c', { headers: { Accept: 'application/json' } });
    expect((JSON.parse(accepted.body) as { name: string }[]).map((o) => o.name)).toEqual(['a.bin', 'b.txt']);
  });

  it('listings honour prefix, delimiter, marker and limit', async () => {
    const { session } = await started();
    await makeContainer(session, 'c');
    for (const name of ['a/1', 'a/2', 'a/b/3', 'b/1', 'c', 'd']) await putObject(session, 'c', name, name);
    const list = async (query: string) => {
      const answer = await session.send('GET', `/c?${query}`);
      return answer.status === 204 ? [] : answer.body.split('\n').slice(0, -1);
    };
    expect(await list('')).toEqual(['a/1', 'a/2', 'a/b/3', 'b/1', 'c', 'd']);
    expect(await list('prefix=a/')).toEqual(['a/1', 'a/2', 'a/b/3']);
    expect(await list('delimiter=/')).toEqual(['a/', 'b/', 'c', 'd']);
    expect(await list('prefix=a/&delimiter=/')).toEqual(['a/1', 'a/2', 'a/b/']);
    expect(await list('marker=a/2')).toEqual(['a/b/3', 'b/1', 'c', 'd']);
    expect(await list('limit=2')).toEqual(['a/1', 'a/2']);
    expect(await list('marker=a/2&limit=2')).toEqual(['a/b/3', 'b/1']);
    expect(await list('marker=d')).toEqual([]);
    expect(await list('prefix=zz')).toEqual([]);
    const json = await session.send('GET', '/c?format=json&delimiter=/');
    expect(JSON.parse(json.body)).toEqual([
      { subdir: 'a/' },
      { subdir: 'b/' },
      expect.objectContaining({ name: 'c' }),
      expect.objectContaining({ name: 'd' }),
    ]);
  });

  it('DELETE: an empty container 204, a non-empty one 409, a missing one 404', async () => {
    const { session } = await started();
    await makeContainer(session, 'full');
    await putObject(session, 'full', 'o', 'x');
    const conflict = await session.send('DELETE', '/full');
    expect(conflict.status).toBe(409);
    expect((await session.send('HEAD', '/full')).status).toBe(204);
    expect((await session.send('DELETE', '/full/o')).status).toBe(204);
    expect((await session.send('DELETE', '/full')).status).toBe(204);
    expect((await session.send('HEAD', '/full')).status).toBe(404);
    expect((await session.send('DELETE', '/full')).status).toBe(404);
    expect((await session.send('DELETE', '/never')).status).toBe(404);
  });
});

describe('objects', () => {
  it('PUT is 201 with ETag = MD5 hex of the body; HEAD and GET give length, ETag, type and metadata', async () => {
    const { session } = await started();
    await makeContainer(session, 'c');
    const body = 'the quick brown fox';
    const put = await session.send('PUT', '/c/dir/fox.txt', {
      body,
      headers: { 'Content-Type': 'text/plain', 'X-Object-Meta-Color': 'brown' },
    });
    expect(put.status).toBe(201);
    expect(put.headers.etag).toBe(md5(body));
    expect(put.headers['last-modified']).toBeDefined();
    for (const method of ['HEAD', 'GET']) {
      const answer = await session.send(method, '/c/dir/fox.txt');
      expect(answer.status).toBe(200);
      expect(answer.headers['content-length']).toBe(String(body.length));
      expect(answer.headers.etag).toBe(md5(body));
      expect(answer.headers['content-type']).toBe('text/plain');
      expect(answer.headers['x-object-meta-color']).toBe('brown');
      expect(answer.body).toBe(method === 'GET' ? body : '');
    }
    // Without a Content-Type the object is application/octet-stream.
    await putObject(session, 'c', 'raw', 'r');
    expect((await session.send('HEAD', '/c/raw')).headers['content-type']).toBe('application/octet-stream');
    // A zero-byte object.
    const empty = await putObject(session, 'c', 'empty', '');
    expect(empty.headers.etag).toBe(md5(''));
    const gotEmpty = await session.send('GET', '/c/empty');
    expect(gotEmpty.status).toBe(200);
    expect(gotEmpty.headers['content-length']).toBe('0');
  });

  it('a replacing PUT answers the new body and metadata', async () => {
    const { session } = await started();
    await makeContainer(session, 'c');
    await putObject(session, 'c', 'o', 'first', { 'X-Object-Meta-A': '1' });
    await putObject(session, 'c', 'o', 'second!', { 'X-Object-Meta-B': '2' });
    const get = await session.send('GET', '/c/o');
    expect(get.body).toBe('second!');
    expect(get.headers.etag).toBe(md5('second!'));
    expect(get.headers['x-object-meta-a']).toBeUndefined();
    expect(get.headers['x-object-meta-b']).toBe('2');
    expect((await session.send('HEAD', '/c')).headers['x-container-bytes-used']).toBe('7');
  });

  it('PUT into a missing container is 404 and stores nothing', async () => {
    const { session } = await started();
    const answer = await session.send('PUT', '/nope/o', { body: 'x' });
    expect(answer.status).toBe(404);
    expect((await session.send('HEAD', '/nope')).status).toBe(404);
    expect((await session.send('HEAD', '/nope/o')).status).toBe(404);
  });

  it('GET and HEAD of a missing object are 404', async () => {
    const { session } = await started();
    await makeContainer(session, 'c');
    expect((await session.send('GET', '/c/missing')).status).toBe(404);
    expect((await session.send('HEAD', '/c/missing')).status).toBe(404);
  });

  it('metadata names are case-insensitive and URL-encoded values are kept as sent', async () => {
    const { session } = await started();
    await makeContainer(session, 'c');
    await putObject(session, 'c', 'o', 'x', {
      'X-Object-Meta-FooBar': 'B%C3%A4r',
      'x-object-meta-lower': 'plain value',
    });
    const head = await session.send('HEAD', '/c/o');
    expect(head.headers['x-object-meta-foobar']).toBe('B%C3%A4r');
    expect(head.headers['x-object-meta-lower']).toBe('plain value');
    expect(decodeURIComponent(String(head.headers['x-object-meta-foobar']))).toBe('Bär');
    // Read back in canonical form, once.
    expect(head.headersDistinct['x-object-meta-foobar']).toEqual(['B%C3%A4r']);
    // A POST with another case of the same name replaces it.
    expect((await session.send('POST', '/c/o', { headers: { 'X-OBJECT-META-FOOBAR': 'new' } })).status).toBe(202);
    expect((await session.send('HEAD', '/c/o')).headers['x-object-meta-foobar']).toBe('new');
    // Containers too.
    expect(
      (
        await session.send('POST', '/c', {
          headers: { 'X-Container-Meta-TriggerOnTimeISO': '2024-06-01T11%3A00%3A00Z' },
        })
      ).status,
    ).toBe(204);
    expect((await session.send('HEAD', '/c')).headers['x-container-meta-triggerontimeiso']).toBe(
      '2024-06-01T11%3A00%3A00Z',
    );
  });

  it('POST is 202 and replaces all metadata (old keys are gone); body and ETag stay', async () => {
    const { session } = await started();
    await makeContainer(session, 'c');
    await putObject(session, 'c', 'o', 'body', {
      'X-Object-Meta-Old': 'o',
      'X-Object-Meta-Keep': 'k',
      'Content-Type': 'text/plain',
    });
    const post = await session.send('POST', '/c/o', {
      headers: { 'X-Object-Meta-New': 'n', 'X-Object-Meta-Keep': 'k2' },
    });
    expect(post.status).toBe(202);
    const get = await session.send('GET', '/c/o');
    expect(get.headers['x-object-meta-old']).toBeUndefined();
    expect(get.headers['x-object-meta-new']).toBe('n');
    expect(get.headers['x-object-meta-keep']).toBe('k2');
    expect(get.body).toBe('body');
    expect(get.headers.etag).toBe(md5('body'));
    expect(get.headers['content-type']).toBe('text/plain');
    // A POST with no metadata clears it all.
    expect((await session.send('POST', '/c/o')).status).toBe(202);
    const cleared = await session.send('HEAD', '/c/o');
    expect(Object.keys(cleared.headers).filter((h) => h.startsWith('x-object-meta-'))).toEqual([]);
  });

  it('POST to a missing object is 404 and creates nothing', async () => {
    const { session } = await started();
    await makeContainer(session, 'c');
    expect((await session.send('POST', '/c/none', { headers: { 'X-Object-Meta-A': '1' } })).status).toBe(404);
    expect((await session.send('HEAD', '/c/none')).status).toBe(404);
    expect((await session.send('POST', '/nocontainer/none')).status).toBe(404);
  });

  it('DELETE is 204, then 404', async () => {
    const { session } = await started();
    await makeContainer(session, 'c');
    await putObject(session, 'c', 'o', 'bye');
    expect((await session.send('DELETE', '/c/o')).status).toBe(204);
    expect((await session.send('GET', '/c/o')).status).toBe(404);
    expect((await session.send('DELETE', '/c/o')).status).toBe(404);
    const head = await session.send('HEAD', '/c');
    expect(head.headers['x-container-object-count']).toBe('0');
    expect(head.headers['x-container-bytes-used']).toBe('0');
  });
});

describe('Swift limits', () => {
  it('metadata name: 128 bytes accepted, 129 refused with 400', async () => {
    const { session } = await started();
    await makeContainer(session, 'c');
    expect(
      (await session.send('PUT', '/c/ok', { body: 'x', headers: { [`X-Object-Meta-${'n'.repeat(128)}`]: 'v' } }))
        .status,
    ).toBe(201);
    const object = await session.send('PUT', '/c/bad', {
      body: 'x',
      headers: { [`X-Object-Meta-${'n'.repeat(129)}`]: 'v' },
    });
    expect(object.status).toBe(400);
    expect(object.body).toMatch(/Metadata name too long/);
    expect((await session.send('HEAD', '/c/bad')).status).toBe(404);
    expect(
      (await session.send('POST', '/c/ok', { headers: { [`X-Object-Meta-${'n'.repeat(129)}`]: 'v' } })).status,
    ).toBe(400);
    expect(
      (await session.send('PUT', '/c2', { headers: { [`X-Container-Meta-${'n'.repeat(129)}`]: 'v' } })).status,
    ).toBe(400);
    expect((await session.send('HEAD', '/c2')).status).toBe(404);
    expect(
      (await session.send('POST', '/c', { headers: { [`X-Container-Meta-${'n'.repeat(129)}`]: 'v' } })).status,
    ).toBe(400);
  });

  it('metadata value: 256 bytes accepted, 257 refused with 400', async () => {
    const { session } = await started();
    await makeContainer(session, 'c');
    expect(
      (await session.send('PUT', '/c/ok', { body: 'x', headers: { 'X-Object-Meta-V': 'v'.repeat(256) } })).status,
    ).toBe(201);
    expect(
      (await session.send('PUT', '/c/bad', { body: 'x', headers: { 'X-Object-Meta-V': 'v'.repeat(257) } })).status,
    ).toBe(400);
    expect((await session.send('HEAD', '/c/bad')).status).toBe(404);
    expect((await session.send('POST', '/c/ok', { headers: { 'X-Object-Meta-V': 'v'.repeat(257) } })).status).toBe(400);
    // The refused POST left the metadata as it was.
    expect((await session.send('HEAD', '/c/ok')).headers['x-object-meta-v']).toBe('v'.repeat(256));
    expect((await session.send('POST', '/c', { headers: { 'X-Container-Meta-V': 'v'.repeat(257) } })).status).toBe(400);
    expect((await session.send('POST', '/c', { headers: { 'X-Container-Meta-V': 'v'.repeat(256) } })).status).toBe(204);
  });

  it('metadata count: 90 items accepted, 91 refused with 400', async () => {
    const { session } = await started();
    await makeContainer(session, 'c');
    expect((await session.send('PUT', '/c/ok', { body: 'x', headers: manyMeta('Object', 90) })).status).toBe(201);
    expect((await session.send('PUT', '/c/bad', { body: 'x', headers: manyMeta('Object', 91) })).status).toBe(400);
    expect((await session.send('HEAD', '/c/bad')).status).toBe(404);
    expect((await session.send('POST', '/c/ok', { headers: manyMeta('Object', 91) })).status).toBe(400);
    expect((await session.send('PUT', '/c90', { headers: manyMeta('Container', 90) })).status).toBe(201);
    expect((await session.send('PUT', '/c91', { headers: manyMeta('Container', 91) })).status).toBe(400);
    // The count is of the container's metadata after the merge.
    expect((await session.send('POST', '/c90', { headers: { 'X-Container-Meta-Extra': 'e' } })).status).toBe(400);
  });

  it('metadata overall: 4096 bytes accepted, more refused with 400', async () => {
    const { session } = await started();
    await makeContainer(session, 'c');
    // 16 items of name "mNN" (3 bytes) + 253-byte value = 4096 bytes.
    const exact = Object.fromEntries(
      Array.from({ length: 16 }, (_, i) => [`X-Object-Meta-M${String(i).padStart(2, '0')}`, 'v'.repeat(253)]),
    );
    expect((await session.send('PUT', '/c/ok', { body: 'x', headers: exact })).status).toBe(201);
    const over = Object.fromEntries(
      Array.from({ length: 16 }, (_, i) => [
        `X-Object-Meta-M${String(i).padStart(2, '0')}`,
        'v'.repeat(i === 0 ? 254 : 253),
      ]),
    );
    const refused = await session.send('PUT', '/c/bad', { body: 'x', headers: over });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatch(/Total metadata too large/);
    expect((await session.send('HEAD', '/c/bad')).status).toBe(404);
    const overContainer = Object.fromEntries(
      Object.entries(over).map(([k, v]) => [k.replace('Object', 'Container'), v]),
    );
    expect((await session.send('PUT', '/big', { headers: overContainer })).status).toBe(400);
    expect((await session.send('HEAD', '/big')).status).toBe(404);
  });

  it('container name: 256 bytes accepted, 257 refused with 400', async () => {
    const { session } = await started();
    expect((await session.send('PUT', `/${'c'.repeat(256)}`)).status).toBe(201);
    const refused = await session.send('PUT', `/${'c'.repeat(257)}`);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatch(/Container name length/);
    // Bytes, not characters: 128 two-byte characters + 1 byte = 257 bytes.
    expect((await session.send('PUT', `/${encodeURIComponent('ä'.repeat(128))}x`)).status).toBe(400);
    expect((await session.send('PUT', `/${encodeURIComponent('ä'.repeat(128))}`)).status).toBe(201);
    const listing = (await session.send('GET', '')).body.split('\n');
    expect(listing).not.toContain('c'.repeat(257));
    expect(listing).toContain('c'.repeat(256));
  });

  it('object name: 1024 bytes accepted, 1025 refused with 400', async () => {
    const { session } = await started();
    await makeContainer(session, 'c');
    expect((await session.send('PUT', `/c/${'o'.repeat(1024)}`, { body: 'x' })).status).toBe(201);
    const refused = await session.send('PUT', `/c/${'o'.repeat(1025)}`, { body: 'x' });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatch(/Object name length/);
    expect((await session.send('GET', '/c')).body).toBe(`${'o'.repeat(1024)}\n`);
  });
});

describe('methods, paths and HTTPS', () => {
  it('an unsupported method on an object is 405 with Allow', async () => {
    const { session } = await started();
    await makeContainer(session, 'c');
    await putObject(session, 'c', 'o', 'x');
    const patch = await session.send('PATCH', '/c/o', { body: 'y' });
    expect(patch.status).toBe(405);
    expect(patch.headers.allow).toMatch(/PUT/);
    expect((await session.send('GET', '/c/o')).body).toBe('x');
    expect((await session.send('PATCH', '/c')).status).toBe(405);
    expect((await session.send('DELETE', '')).status).toBe(405);
  });

  it('an unknown path is 404', async () => {
    const destination = await start();
    const session = await login(destination);
    for (const path of ['/nothing', '/v2/AUTH_bws', '/auth/v2.0', '/v1x']) {
      const answer = await sendRequest(destination.url, { path, headers: { 'X-Auth-Token': session.token } });
      expect({ path, status: answer.status }).toEqual({ path, status: 404 });
    }
  });

  it('HTTPS (tls: true): login, PUT and GET with the served certificate', async () => {
    const destination = await start({ tls: true });
    expect(destination.url).toMatch(/^https:\/\//);
    expect(destination.certificate).toMatch(/BEGIN CERTIFICATE/);
    const session = await login(destination);
    expect(session.storageUrl).toBe(`${destination.url}/v1/AUTH_bws`);
    expect((await session.send('PUT', '/secure')).status).toBe(201);
    const put = await session.send('PUT', '/secure/o', { body: 'over tls' });
    expect(put.status).toBe(201);
    expect(put.headers.etag).toBe(md5('over tls'));
    const get = await session.send('GET', '/secure/o');
    expect(get.status).toBe(200);
    expect(get.body).toBe('over tls');
    // Without trusting the certificate the client refuses the connection.
    await expect(
      sendRequest(destination.url, { path: '/auth/v1.0', headers: { 'X-Auth-User': 'bws', 'X-Auth-Key': 'secret' } }),
    ).rejects.toThrow();
  });
});
