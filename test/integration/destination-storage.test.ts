/**
 * The reference content destination's object store over real sockets: ETag checks,
 * length rules (411, 413), quotas and a full disk (507) storing nothing, path
 * escapes refused before anything touches the disk, concurrent PUTs of one name,
 * an interrupted upload, a restart on the same data directory, and a large body
 * streamed back byte for byte.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Writable } from 'node:stream';
import { type DestinationHandle, ManualClock, type OpenWrite } from '../../src';
import { fileKey } from '../../src/destination/store/disk-layout';
import { destinationStarter, fetchBytes, login, type SwiftSession } from '../helpers/destinations';
import { rawExchange } from '../helpers/event-stream-raw';
import { sendRequest } from '../helpers/http';

const start = destinationStarter();

/** Directories this file made itself (not through the starter); removed after each test. */
const ownDirs: string[] = [];
afterEach(() => {
  for (const dir of ownDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function ownTempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  ownDirs.push(dir);
  return dir;
}

function md5(body: string | Buffer): string {
  return createHash('md5').update(body).digest('hex');
}

/** Every file under `dir`, relative to it, sorted. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (at: string): void => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) {
        out.push(`${relative(dir, path)}/`);
        walk(path);
      } else out.push(relative(dir, path));
    }
  };
  walk(dir);
  return out.sort();
}

/** The objects directory of a container of the default account. */
function objectsDir(destination: DestinationHandle, container: string, account = 'AUTH_bws'): string {
  return join(destination.options.dataDir, fileKey(account), fileKey(container), 'objects');
}

/** Waits, on short timers (at most ~5 s), until `done()` holds. */
async function until(done: () => boolean, what: string): Promise<void> {
  for (let turn = 0; turn < 1000 && !done(); turn++) await new Promise((resolve) => setTimeout(resolve, 5));
  if (!done()) throw new Error(`never happened: ${what}`);
}

async function started(
  options: Parameters<typeof start>[0] = {},
): Promise<{ destination: DestinationHandle; session: SwiftSession }> {
  const destination = await start(options);
  return { destination, session: await login(destination) };
}

async function makeContainer(session: SwiftSession, name: string): Promise<void> {
  expect((await session.send('PUT', `/${name}`)).status).toBe(201);
}

describe('ETag of a PUT', () => {
  it('a wrong ETag is 422 and stores nothing', async () => {
    const { destination, session } = await started();
    await makeContainer(session, 'c');
    const body = 'content to check';
    const wrong = await session.send('PUT', '/c/o', { body, headers: { ETag: md5('something else') } });
    expect(wrong.status).toBe(422);
    expect((await session.send('HEAD', '/c/o')).status).toBe(404);
    expect((await session.send('GET', '/c')).status).toBe(204);
    expect(readdirSync(objectsDir(destination, 'c'))).toEqual([]);
  });

  it('the right ETag, unquoted, quoted or upper case, is 201', async () => {
    const { session } = await started();
    await makeContainer(session, 'c');
    const body = 'content to check';
    const unquoted = await session.send('PUT', '/c/o', { body, headers: { ETag: md5(body) } });
    expect(unquoted.status).toBe(201);
    expect(unquoted.headers.etag).toBe(md5(body));
    const quoted = await session.send('PUT', '/c/q', { body, headers: { ETag: `"${md5(body)}"` } });
    expect(quoted.status).toBe(201);
    expect(quoted.headers.etag).toBe(md5(body));
    const upper = await session.send('PUT', '/c/u', { body, headers: { ETag: md5(body).toUpperCase() } });
    expect(upper.status).toBe(201);
    expect((await session.send('GET', '/c/q')).body).toBe(body);
    expect((await session.send('GET', '/c/o')).headers.etag).toBe(md5(body));
  });

  it('a wrong ETag does not replace an existing object', async () => {
    const { session } = await started();
    await makeContainer(session, 'c');
    expect((await session.send('PUT', '/c/o', { body: 'v1' })).status).toBe(201);
    expect((await session.send('PUT', '/c/o', { body: 'v2', headers: { ETag: md5('v1') } })).status).toBe(422);
    const get = await session.send('GET', '/c/o');
    expect(get.body).toBe('v1');
    expect(get.headers.etag).toBe(md5('v1'));
  });

  it('an ETag that is not an MD5 hex is 422', async () => {
    const { session } = await started();
    await makeContainer(session, 'c');
    expect((await session.send('PUT', '/c/o', { body: 'x', headers: { ETag: 'not-a-digest' } })).status).toBe(422);
    expect((await session.send('HEAD', '/c/o')).status).toBe(404);
  });
});

describe('length rules', () => {
  it('neither Content-Length nor chunked is 411', async () => {
    const { destination, session } = await started();
    await makeContainer(session, 'c');
    const answer = await rawExchange(
      destination.port,
      `PUT ${session.storagePath}/c/o HTTP/1.1\r\nHost: 127.0.0.1:${destination.port}\r\nX-Auth-Token: ${session.token}\r\nConnection: close\r\n\r\n`,
    );
    expect(answer.status).toBe(411);
    expect(answer.body.toString('utf8')).toMatch(/Length Required/);
    expect((await session.send('HEAD', '/c/o')).status).toBe(404);
  });

  it('a chunked PUT is stored whole with the right ETag', async () => {
    const { session } = await started();
    await makeContainer(session, 'c');
    const body = 'chunk-'.repeat(10_000);
    const put = await session.send('PUT', '/c/chunked', { body, chunkSize: 4096 });
    expect(put.status).toBe(201);
    expect(put.headers.etag).toBe(md5(body));
    const get = await session.send('GET', '/c/chunked');
    expect(get.body).toBe(body);
    expect(get.headers['content-length']).toBe(String(body.length));
    expect(get.headers.etag).toBe(md5(body));
  });

  it('maxObjectBytes: Content-Length above it is 413 and stores nothing; at it 201, chunked too', async () => {
    const { session } = await started({ maxObjectBytes: 1000 });
    await makeContainer(session, 'c');
    const tooLarge = await session.send('PUT', '/c/big', { body: 'x'.repeat(1001) });
    expect(tooLarge.status).toBe(413);
    expect((await session.send('HEAD', '/c/big')).status).toBe(404);
    expect((await session.send('PUT', '/c/fits', { body: 'x'.repeat(1000) })).status).toBe(201);
    expect((await session.send('PUT', '/c/fits2', { body: 'x'.repeat(1000), chunkSize: 100 })).status).toBe(201);
    // The refused body was drained: the server still answers.
    expect((await session.send('GET', '/c')).body).toBe('fits\nfits2\n');
  });

  it('maxObjectBytes: a chunked body above it is 413 and stores nothing', async () => {
    const { destination, session } = await started({ maxObjectBytes: 1000 });
    await makeContainer(session, 'c');
    const chunked = await session.send('PUT', '/c/big', { body: 'x'.repeat(1001), chunkSize: 100 });
    expect(chunked.status).toBe(413);
    expect((await session.send('HEAD', '/c/big')).status).toBe(404);
    expect(readdirSync(objectsDir(destination, 'c'))).toEqual([]);
  });

  it('a body shorter than its Content-Length (client half-closes) is not stored', async () => {
    const { destination, session } = await started();
    await makeContainer(session, 'c');
    // Headers claim 10 bytes; 4 are sent and the client half-closes its side.
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(destination.port, '127.0.0.1');
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('error', () => resolve(Buffer.concat(chunks).toString('latin1')));
      socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
      socket.write(
        `PUT ${session.storagePath}/c/short HTTP/1.1\r\nHost: x\r\nX-Auth-Token: ${session.token}\r\nContent-Length: 10\r\n\r\nabcd`,
        (err) => (err ? reject(err) : socket.end()),
      );
    });
    expect(answer).not.toMatch(/^HTTP\/1\.1 201/);
    await until(() => readdirSync(objectsDir(destination, 'c')).length === 0, 'part file removed');
    expect((await session.send('HEAD', '/c/short')).status).toBe(404);
  });
});

describe('quota and a full disk', () => {
  it('quotaBytes: a PUT over the quota is 507 and stores nothing; a replacement counts the old size as freed', async () => {
    const quota = 100_000;
    const { destination, session } = await started({ quotaBytes: quota });
    // The published System objects count too.
    const used0 = Number((await session.send('HEAD', '')).headers['x-account-bytes-used']);
    expect(used0).toBeGreaterThan(0);
    const room = quota - used0;
    await makeContainer(session, 'c');

    const over = await session.send('PUT', '/c/big', { body: 'x'.repeat(room + 1) });
    expect(over.status).toBe(507);
    expect((await session.send('HEAD', '/c/big')).status).toBe(404);
    expect(readdirSync(objectsDir(destination, 'c'))).toEqual([]);

    const fill = 'a'.repeat(room);
    expect((await session.send('PUT', '/c/big', { body: fill })).status).toBe(201);
    expect((await session.send('HEAD', '')).headers['x-account-bytes-used']).toBe(String(quota));
    // Full: one more byte elsewhere is refused.
    expect((await session.send('PUT', '/c/more', { body: 'y' })).status).toBe(507);
    expect((await session.send('HEAD', '/c/more')).status).toBe(404);
    // Replacing the object frees its old size: the same size fits again.
    const refill = 'b'.repeat(room);
    const replaced = await session.send('PUT', '/c/big', { body: refill });
    expect(replaced.status).toBe(201);
    expect(replaced.headers.etag).toBe(md5(refill));
    // But a replacement one byte larger does not, and the old version stays.
    expect((await session.send('PUT', '/c/big', { body: 'c'.repeat(room + 1) })).status).toBe(507);
    expect((await session.send('HEAD', '/c/big')).headers.etag).toBe(md5(refill));
    // After a DELETE the room is back.
    expect((await session.send('DELETE', '/c/big')).status).toBe(204);
    expect((await session.send('PUT', '/c/more', { body: 'y' })).status).toBe(201);
    expect((await session.send('HEAD', '')).headers['x-account-bytes-used']).toBe(String(used0 + 1));
  });

  it('quotaBytes: a chunked body over the quota is 507 and stores nothing', async () => {
    const quota = 100_000;
    const { destination, session } = await started({ quotaBytes: quota });
    const used0 = Number((await session.send('HEAD', '')).headers['x-account-bytes-used']);
    await makeContainer(session, 'c');
    const over = await session.send('PUT', '/c/big', { body: 'x'.repeat(quota - used0 + 1), chunkSize: 4096 });
    expect(over.status).toBe(507);
    expect((await session.send('HEAD', '/c/big')).status).toBe(404);
    expect(readdirSync(objectsDir(destination, 'c'))).toEqual([]);
    expect((await session.send('HEAD', '')).headers['x-account-bytes-used']).toBe(String(used0));
  });

  it('a full disk (ENOSPC while writing) is 507 and leaves nothing visible or on disk', async () => {
    let diskFull = false;
    const opened: string[] = [];
    const openWrite: OpenWrite = (path) => {
      if (!diskFull) return createWriteStream(path, { flags: 'wx' });
      opened.push(path);
      // The part file exists, as a real open would make it; every write then fails.
      writeFileSync(path, '', { flag: 'wx' });
      return new Writable({
        write(_chunk, _encoding, callback) {
          callback(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }));
        },
      });
    };
    const { destination, session } = await started({ openWrite });
    await makeContainer(session, 'c');
    expect((await session.send('PUT', '/c/before', { body: 'kept' })).status).toBe(201);
    const filesBefore = filesUnder(destination.options.dataDir);
    diskFull = true;
    const answer = await session.send('PUT', '/c/o', { body: 'z'.repeat(64 * 1024) });
    expect(answer.status).toBe(507);
    expect(answer.body).toMatch(/Insufficient Storage/);
    expect(opened).toHaveLength(1);
    expect(existsSync(opened[0])).toBe(false);
    expect((await session.send('GET', '/c/o')).status).toBe(404);
    expect((await session.send('GET', '/c')).body).toBe('before\n');
    const filesAfter = filesUnder(destination.options.dataDir);
    expect(filesAfter.filter((f) => f.endsWith('.part'))).toEqual([]);
    expect(filesAfter).toEqual(filesBefore);
    // A small body fails the same way; a chunked one too.
    expect((await session.send('PUT', '/c/small', { body: 'z' })).status).toBe(507);
    expect((await session.send('PUT', '/c/chunky', { body: 'z'.repeat(10_000), chunkSize: 1000 })).status).toBe(507);
    expect(filesUnder(destination.options.dataDir)).toEqual(filesBefore);
    // Room again: the destination stores as before.
    diskFull = false;
    expect((await session.send('PUT', '/c/o', { body: 'fine' })).status).toBe(201);
    expect((await session.send('GET', '/c/before')).body).toBe('kept');
  });
});

describe('path escapes', () => {
  const attempts = [
    '/v1/AUTH_bws/c/..%2F..%2Fescape',
    '/v1/AUTH_bws/c/%2e%2e/x',
    '/v1/AUTH_bws/c/a%00b',
    '/v1/AUTH_bws/c/a%5Cb',
    '/v1/AUTH_bws/c//etc/passwd',
    '/v1/AUTH_bws/..%2F..%2Fx/o',
    '/v1/AUTH_bws/%2e%2e/o',
  ];

  it('PUTs that would leave their directory are 400 and write nothing anywhere', async () => {
    // The data directory sits a few levels inside a parent of its own, so a write
    // that climbs out of it would land somewhere this test lists.
    const parent = ownTempDir('bwc-escape-');
    const dataDir = join(parent, 'p1', 'p2', 'p3', 'data');
    mkdirSync(dataDir, { recursive: true });
    const { destination, session } = await started({ dataDir });
    expect(session.storagePath).toBe('/v1/AUTH_bws');
    await makeContainer(session, 'c');
    const before = filesUnder(parent);
    const tmpBefore = new Set(readdirSync(tmpdir()));
    for (const path of attempts) {
      const answer = await sendRequest(destination.url, {
        method: 'PUT',
        path,
        body: 'escaped!',
        headers: { 'X-Auth-Token': session.token },
      });
      expect({ path, status: answer.status }).toEqual({ path, status: 400 });
      const container = await sendRequest(destination.url, {
        method: 'PUT',
        path: path.slice(0, path.lastIndexOf('/')),
        headers: { 'X-Auth-Token': session.token },
      });
      expect([201, 202, 400]).toContain(container.status);
    }
    // Container PUTs at the same bad names are refused too.
    for (const path of [
      '/v1/AUTH_bws/..%2F..%2Fx',
      '/v1/AUTH_bws/%2e%2e',
      '/v1/AUTH_bws/%2E',
      '/v1/AUTH_bws/a%00b',
      '/v1/AUTH_bws/a%5Cb',
    ]) {
      const answer = await sendRequest(destination.url, {
        method: 'PUT',
        path,
        headers: { 'X-Auth-Token': session.token },
      });
      expect({ path, status: answer.status }).toEqual({ path, status: 400 });
    }
    expect(filesUnder(parent)).toEqual(before);
    for (const name of ['escape', 'x', 'passwd', 'etc', 'o']) {
      if (!tmpBefore.has(name)) expect(existsSync(join(tmpdir(), name))).toBe(false);
    }
    // Only `c` (and System) exist; `c` is empty.
    expect((await session.send('GET', '')).body).toBe('System\nc\n');
    expect((await session.send('GET', '/c')).status).toBe(204);
  });
});

describe('concurrency and interruption', () => {
  it('10 concurrent PUTs of one name: all 201, one whole body wins, its MD5 is the ETag, one data file remains', async () => {
    const { destination, session } = await started();
    await makeContainer(session, 'c');
    const size = 256 * 1024;
    const bodies = Array.from({ length: 10 }, (_, i) =>
      Buffer.concat([Buffer.from(`body ${i}:`), randomBytes(size)]).subarray(0, size),
    );
    const answers = await Promise.all(bodies.map((body) => session.send('PUT', '/c/contended', { body })));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(201));
    answers.forEach((answer, i) => expect(answer.headers.etag).toBe(md5(bodies[i])));
    const head = await session.send('HEAD', '/c/contended');
    expect(head.status).toBe(200);
    const got = await fetchBytes(destination, session, 'GET', '/c/contended');
    expect(got.status).toBe(200);
    expect(got.body.length).toBe(size);
    const winner = bodies.findIndex((body) => body.equals(got.body));
    expect(winner).toBeGreaterThanOrEqual(0);
    expect(md5(got.body)).toBe(head.headers.etag);
    expect(got.headers.etag).toBe(head.headers.etag);
    const files = readdirSync(objectsDir(destination, 'c'));
    const key = fileKey('contended');
    expect(files.filter((f) => f.endsWith('.data'))).toHaveLength(1);
    expect(files.filter((f) => f.endsWith('.part'))).toEqual([]);
    expect(files.sort()).toEqual([`${key}.json`, files.find((f) => f.endsWith('.data'))].sort());
    const container = await session.send('HEAD', '/c');
    expect(container.headers['x-container-object-count']).toBe('1');
    expect(container.headers['x-container-bytes-used']).toBe(String(size));
  });

  it('an upload aborted mid-body leaves no object and no part file, and the server keeps serving', async () => {
    const { destination, session } = await started();
    await makeContainer(session, 'c');
    const dir = objectsDir(destination, 'c');
    const total = 1024 * 1024;
    const socket = connect(destination.port, '127.0.0.1');
    socket.on('error', () => undefined);
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(
      `PUT ${session.storagePath}/c/aborted HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Auth-Token: ${session.token}\r\nContent-Length: ${total}\r\n\r\n`,
    );
    socket.write(Buffer.alloc(total / 2, 0x61));
    await until(() => readdirSync(dir).some((f) => f.endsWith('.part')), 'the part file appears');
    socket.destroy();
    await until(() => readdirSync(dir).length === 0, 'the part file is removed');
    expect((await session.send('HEAD', '/c/aborted')).status).toBe(404);
    expect((await session.send('GET', '/c')).status).toBe(204);
    // Still serving: the same name can be stored and read.
    const put = await session.send('PUT', '/c/aborted', { body: 'complete' });
    expect(put.status).toBe(201);
    expect((await session.send('GET', '/c/aborted')).body).toBe('complete');
    expect(readdirSync(dir).filter((f) => f.endsWith('.part'))).toEqual([]);
  });
});

describe('restart on the same data directory', () => {
  it('keeps containers, objects, ETags and metadata; removes leftover part and unreferenced data files', async () => {
    const dataDir = ownTempDir('bwc-restart-');
    const clock = new ManualClock(Date.UTC(2024, 5, 1, 12));
    const first = await start({ dataDir, clock });
    const s1 = await login(first);
    expect(
      (
        await s1.send('PUT', '/alpha', {
          headers: { 'X-Container-Meta-Status': 'Complete', 'X-Container-Meta-Place': 'K%C3%B6ln' },
        })
      ).status,
    ).toBe(201);
    expect((await s1.send('PUT', '/beta')).status).toBe(201);
    clock.advance(1234);
    expect(
      (
        await s1.send('PUT', '/alpha/clip.mkv', {
          body: 'video bytes',
          headers: { 'Content-Type': 'video/x-matroska', 'X-Object-Meta-StartTime': '1717236000' },
        })
      ).status,
    ).toBe(201);
    expect((await s1.send('PUT', '/alpha/dir/note', { body: 'n' })).status).toBe(201);
    expect((await s1.send('PUT', '/beta/b', { body: 'bee', headers: { 'X-Object-Meta-Who': 'me' } })).status).toBe(201);
    expect((await s1.send('POST', '/beta/b', { headers: { 'X-Object-Meta-Who': 'you' } })).status).toBe(202);

    const snapshot = async (session: SwiftSession) => {
      const pick = (headers: Record<string, unknown>, names: string[]) =>
        Object.fromEntries(names.map((n) => [n, headers[n]]));
      const objectHeaders = [
        'content-length',
        'content-type',
        'etag',
        'last-modified',
        'x-timestamp',
        'x-object-meta-starttime',
        'x-object-meta-who',
      ];
      const containerHeaders = [
        'x-container-object-count',
        'x-container-bytes-used',
        'x-timestamp',
        'x-container-meta-status',
        'x-container-meta-place',
      ];
      const objects: Record<string, unknown> = {};
      for (const path of ['/alpha/clip.mkv', '/alpha/dir/note', '/beta/b']) {
        const get = await session.send('GET', path);
        objects[path] = { status: get.status, body: get.body, ...pick(get.headers, objectHeaders) };
      }
      const account = await session.send('HEAD', '');
      return {
        accountText: (await session.send('GET', '')).body,
        accountJson: JSON.parse((await session.send('GET', '?format=json')).body) as unknown,
        accountHead: pick(account.headers, [
          'x-account-container-count',
          'x-account-object-count',
          'x-account-bytes-used',
        ]),
        alpha: JSON.parse((await session.send('GET', '/alpha?format=json')).body) as unknown,
        beta: JSON.parse((await session.send('GET', '/beta?format=json')).body) as unknown,
        alphaHead: pick((await session.send('HEAD', '/alpha')).headers, containerHeaders),
        betaHead: pick((await session.send('HEAD', '/beta')).headers, containerHeaders),
        objects,
      };
    };
    const before = await snapshot(s1);
    expect(before.objects['/alpha/clip.mkv']).toMatchObject({
      status: 200,
      body: 'video bytes',
      etag: md5('video bytes'),
      'content-type': 'video/x-matroska',
      'x-object-meta-starttime': '1717236000',
    });
    expect(before.objects['/beta/b']).toMatchObject({ body: 'bee', 'x-object-meta-who': 'you' });
    expect(before.alphaHead).toMatchObject({
      'x-container-meta-status': 'Complete',
      'x-container-meta-place': 'K%C3%B6ln',
    });
    await first.close();

    // Leftovers of a crash: a part file and a data file no record names.
    const dir = objectsDir(first, 'alpha');
    const recordFiles = readdirSync(dir).sort();
    writeFileSync(join(dir, '.x.part'), 'half an upload');
    writeFileSync(join(dir, `${fileKey('ghost')}.0123456789abcdef.data`), 'orphan');
    writeFileSync(join(dir, `${fileKey('clip.mkv')}.fedcba9876543210.data`), 'an older version');

    const second = await start({ dataDir, clock });
    expect(second.options.dataDir).toBe(first.options.dataDir);
    // Tokens are not kept across a restart.
    expect(
      (await sendRequest(second.url, { method: 'HEAD', path: '/v1/AUTH_bws', headers: { 'X-Auth-Token': s1.token } }))
        .status,
    ).toBe(401);
    const s2 = await login(second);
    expect(readdirSync(dir).sort()).toEqual(recordFiles);
    const after = await snapshot(s2);
    expect(after).toEqual(before);
    expect((await s2.send('HEAD', '/alpha/ghost')).status).toBe(404);
    // The restarted destination keeps working on the old data.
    expect((await s2.send('PUT', '/beta/b2', { body: 'new' })).status).toBe(201);
    expect((await s2.send('DELETE', '/alpha/dir/note')).status).toBe(204);
    expect((await s2.send('GET', '/alpha')).body).toBe('clip.mkv\n');
  });
});

describe('large bodies', () => {
  it('GET of a 5 MiB object streams back the same bytes', async () => {
    const { destination, session } = await started();
    await makeContainer(session, 'c');
    const body = randomBytes(5 * 1024 * 1024);
    const put = await session.send('PUT', '/c/large.bin', { body });
    expect(put.status).toBe(201);
    expect(put.headers.etag).toBe(md5(body));
    const got = await fetchBytes(destination, session, 'GET', '/c/large.bin');
    expect(got.status).toBe(200);
    expect(got.headers['content-length']).toBe(String(body.length));
    expect(got.headers.etag).toBe(md5(body));
    expect(got.body.length).toBe(body.length);
    expect(got.body.equals(body)).toBe(true);
  });
});
