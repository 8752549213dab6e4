/**
 * Nothing is lost or half-made when the destination process dies mid-upload: a real
 * `bwc-emu destination` process (dist/: `npm run build` first) takes 50 concurrent uploads
 * of distinct objects (a few hundred KB each, started over 600 ms, bodies sent in pieces with pauses)
 * while new containers are created one after another, and is killed with SIGKILL meanwhile;
 * started again on the same data directory, every object is absent or whole with its MD5 as
 * ETag (an acknowledged one present), the listings agree with the objects, every container
 * directory has its record, and no temporary file is left.
 * Three rounds, each with replacements of objects stored earlier; sizes, bodies, pauses
 * and the moment of the kill are drawn from a fixed seed.
 */
import { createCipheriv, createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { seededRandom } from '../../src/base/random';
import { type DestinationProcess, spawnDestination } from '../helpers/destination-process';
import { sendRequest } from '../helpers/http';

const ROUNDS = 3;
const UPLOADS = 50;
/** Uploads of each round held in the middle of their body until the kill. */
const HELD = 5;

const running: DestinationProcess[] = [];
let dataDir: string;
beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'bwc-sigkill-'));
});
afterAll(async () => {
  for (const destination of running) {
    destination.child.kill('SIGKILL');
    await destination.exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
});

/** A logged-in client of a destination process. */
interface Client {
  url: string;
  token: string;
  storagePath: string;
}

async function start(): Promise<{ destination: DestinationProcess; client: Client }> {
  const destination = await spawnDestination(['--data-dir', dataDir]);
  running.push(destination);
  const auth = await sendRequest(destination.url, {
    path: '/auth/v1.0',
    headers: { 'X-Auth-User': 'bws', 'X-Auth-Key': 'secret' },
  });
  expect(auth.status).toBe(200);
  const storagePath = new URL(String(auth.headers['x-storage-url'])).pathname;
  return { destination, client: { url: destination.url, token: String(auth.headers['x-auth-token']), storagePath } };
}

function send(client: Client, method: string, path: string) {
  return sendRequest(client.url, {
    method,
    path: `${client.storagePath}${path}`,
    headers: { 'X-Auth-Token': client.token },
  });
}

function md5(body: Buffer): string {
  return createHash('md5').update(body).digest('hex');
}

/** `size` bytes determined by `random`: an AES-CTR key stream keyed from it (fast, and the same on every run). */
function bytes(random: () => number, size: number): Buffer {
  const seed = Buffer.from(Array.from({ length: 32 }, () => Math.floor(random() * 256)));
  const cipher = createCipheriv('aes-128-ctr', seed.subarray(0, 16), seed.subarray(16));
  return Buffer.concat([cipher.update(Buffer.alloc(size)), cipher.final()]);
}

/**
 * PUTs `body` in four pieces with a pause after each, with its MD5 as `ETag`; resolves
 * with the status, or `cut` when the connection died first. With `hold`, the second half
 * waits for it: the upload is surely in the middle of its body when the process is killed.
 */
function upload(
  client: Client,
  path: string,
  body: Buffer,
  pauses: number[],
  hold?: Promise<void>,
): Promise<number | 'cut'> {
  return new Promise((resolve) => {
    const url = new URL(`${client.storagePath}${path}`, client.url);
    const req = request(
      url,
      {
        method: 'PUT',
        agent: false,
        headers: { 'X-Auth-Token': client.token, 'Content-Length': body.length, ETag: md5(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', () => resolve('cut'));
      },
    );
    req.on('error', () => resolve('cut'));
    const piece = Math.ceil(body.length / pauses.length);
    const write = async (): Promise<void> => {
      for (let i = 0; i < pauses.length; i++) {
        if (i === 2 && hold) await hold;
        if (req.destroyed) return;
        req.write(body.subarray(i * piece, (i + 1) * piece));
        await new Promise((done) => setTimeout(done, pauses[i]));
      }
      req.end();
    };
    void write();
  });
}

/** Files under `dir` whose names only an interrupted write leaves (part, temporary, probe files). */
function leftovers(dir: string): string[] {
  const found: string[] = [];
  const walk = (at: string): void => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.name.startsWith('.') || entry.name.endsWith('.part') || entry.name.endsWith('.tmp'))
        found.push(relative(dir, path));
      if (entry.isDirectory()) walk(path);
    }
  };
  walk(dir);
  return found;
}

/** What an object may be after the kill: the MD5s allowed (undefined: absent). */
type Allowed = Map<string, Set<string | undefined>>;

describe('a destination killed with SIGKILL mid-upload', () => {
  it(`keeps every object whole or absent over ${ROUNDS} kills of ${UPLOADS} concurrent uploads`, async () => {
    const random = seededRandom(20260116);
    /** Each object's MD5 as last verified (absent objects are not in it). */
    const stored = new Map<string, string>();
    const containers = new Set<string>(['c']);
    let { destination, client } = await start();
    expect((await send(client, 'PUT', '/c')).status).toBe(201);

    for (let round = 0; round < ROUNDS; round++) {
      // Distinct new objects, and replacements of objects stored in earlier rounds.
      const earlier = [...stored.keys()];
      const names = Array.from({ length: UPLOADS }, (_, i) =>
        i < 10 && earlier.length > 0 ? earlier[Math.floor(random() * earlier.length)] : `r${round}/object-${i}`,
      );
      const unique = [...new Set(names)];
      const allowed: Allowed = new Map(unique.map((name) => [name, new Set([stored.get(name)])]));
      const bodies = unique.map((name) => {
        const body = bytes(random, 200 * 1024 + Math.floor(random() * 200 * 1024));
        allowed.get(name)?.add(md5(body));
        // Started over 600 ms, so the kill finds uploads not started, mid-body and being committed.
        const delay = Math.floor(random() * 600);
        return { name, body, delay, pauses: [0, 0, 0, 0].map(() => 5 + Math.floor(random() * 40)) };
      });
      const killAfter = 10 + Math.floor(random() * 25);

      // The kill comes after `killAfter` acknowledged uploads (or once all but the held ones are done).
      let kill = (): void => undefined;
      const killed = new Promise<void>((resolve) => {
        const child = destination.child;
        kill = () => {
          child.kill('SIGKILL');
          resolve();
        };
      });
      let acknowledged = 0;
      const statuses: (number | 'cut')[] = [];
      const uploads = bodies.map(async ({ name, body, delay, pauses }, i) => {
        await new Promise((done) => setTimeout(done, delay));
        const status = await upload(client, `/c/${name}`, body, pauses, i >= bodies.length - HELD ? killed : undefined);
        statuses.push(status);
        if (status !== 201) return;
        // Acknowledged: it must be there after the kill.
        allowed.set(name, new Set([md5(body)]));
        if (++acknowledged === killAfter) kill();
      });
      void Promise.all(uploads.slice(0, -HELD)).then(kill);
      // Containers made one after another until the kill: it lands in the middle of one.
      const boxes: string[] = [];
      const creations = (async () => {
        for (let i = 0; !destination.child.killed; i++) {
          boxes.push(`box-${round}-${i}`);
          const answer = await send(client, 'PUT', `/${boxes[i]}`).catch(() => undefined);
          if (answer?.status !== 201) return;
          containers.add(boxes[i]);
        }
      })();
      await Promise.all([...uploads, creations]);
      expect(await destination.exited).toBe('SIGKILL');
      // Every upload was stored or cut off by the kill (answers already on their way still arrive).
      expect(statuses.filter((status) => status !== 201 && status !== 'cut')).toEqual([]);
      expect(acknowledged).toBeGreaterThanOrEqual(killAfter);
      expect(statuses.filter((status) => status === 'cut').length).toBeGreaterThanOrEqual(HELD);

      ({ destination, client } = await start());
      expect(leftovers(dataDir)).toEqual([]);
      const listing = JSON.parse((await send(client, 'GET', '/c?format=json')).body) as {
        name: string;
        hash: string;
        bytes: number;
      }[];
      const listed = new Map(listing.map((entry) => [entry.name, entry]));
      for (const [name, md5s] of allowed) {
        const answer = await fetchObject(client, `/c/${name}`);
        const seen = answer.status === 404 ? undefined : md5(answer.body);
        if (answer.status !== 404) {
          expect(answer.status).toBe(200);
          expect(answer.etag).toBe(seen);
          expect(listed.get(name)).toEqual(expect.objectContaining({ hash: seen, bytes: answer.body.length }));
        } else expect(listed.has(name)).toBe(false);
        expect({ name, seen, allowed: md5s.has(seen) }).toEqual({ name, seen, allowed: true });
        if (seen === undefined) stored.delete(name);
        else stored.set(name, seen);
      }
      expect([...listed.keys()].sort()).toEqual([...stored.keys()].sort());
      const account = await send(client, 'HEAD', '');
      expect(Number(account.headers['x-account-object-count'])).toBe(stored.size + 2); // + System/*.json
      const containerNames = (await send(client, 'GET', '')).body.trim().split('\n');
      for (const box of boxes) if (containers.has(box)) expect(containerNames).toContain(box);
      expect(boxes.length).toBeGreaterThan(1);
      // No container directory without its record: each is a container listed.
      const accountDir = join(dataDir, readdirSync(dataDir).find((name) => name.startsWith('AUTH_bws~')) ?? '');
      const dirs = readdirSync(accountDir, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name);
      expect(dirs.filter((dir) => !existsSync(join(accountDir, dir, 'container.json')))).toEqual([]);
      expect(dirs).toHaveLength(containerNames.length);
    }
    expect(stored.size).toBeGreaterThan(0);
  }, 40_000);
});

/** GET with the body as bytes and the ETag. */
function fetchObject(
  client: Client,
  path: string,
): Promise<{ status: number; body: Buffer; etag: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request(
      new URL(`${client.storagePath}${path}`, client.url),
      { headers: { 'X-Auth-Token': client.token }, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), etag: res.headers.etag }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}
