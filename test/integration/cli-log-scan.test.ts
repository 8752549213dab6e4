/**
 * No secret in what bwc-emu prints: a device and a content destination run as real
 * processes (bin/bwc-emu, `npm run build` first) with chosen secrets, in pretty and in
 * JSON log mode at the most verbose level (trace); a short session goes through every place a
 * secret passes: every CGI (digest logins right and wrong, a viewer refused a write, a body
 * too large, a Basic try on plain HTTP), session tokens on the event stream (used, reused),
 * the control API (its bearer token right and wrong, the devices with their passwords),
 * Swift auth with right and wrong keys, every refusal and conditional answer of the
 * destination's storage (400, 304, 401, 403, 404, 409, 411, 412, 413, 416, 422), both token
 * headers, its fault control and recordings page (digest, and Basic where allowed), an upload
 * by hand, one by the device's body worn system and one by `bwc-emu upload`.
 * Then every line on stdout and stderr is scanned for each secret and each token issued; a
 * finding names the secret and the line. (The journal is in memory only: nothing else is on
 * disk to scan.)
 */
import { type ChildProcessWithoutNullStreams, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { digestRequest } from '../helpers/digest-request';
import { handshake } from '../helpers/event-stream-client';
import { basicAuthorization, type HttpRequestOptions, sendRequest } from '../helpers/http';
import { rawHttpExchange } from '../helpers/raw-http';

const ROOT = join(__dirname, '../..');

/** The chosen secrets: none of them is a built-in default. */
const PASSWORD = 'Scan-Dev1ce-Pw';
const VIEWER_PASSWORD = 'Scan-V1ewer-Pw';
const WRONG_PASSWORD = 'Scan-Wr0ng-Pw';
const KEY = 'Scan-Dest-K3y';
const OTHER_KEY = 'Scan-Other-K3y';
const READER_KEY = 'Scan-Reader-K3y';
const WRONG_KEY = 'Scan-Wr0ng-K3y';
const CONTROL_TOKEN = 'Scan-Contr0l-T0ken';

/** A scenario whose one small recording the device uploads a second after it starts. */
const SCENARIO = `name: scan
body-worn:
  users:
    - { id: officer_1, name: Alex Smith }
  recordings:
    - { at: 1s, user: officer_1, clips: 1, clip-duration: 2s, clip-size: 2KB }
`;

/** A plan of one small recording for `bwc-emu upload`. */
const PLAN = `name: scan
users:
  - { id: officer_9, name: Kim Lee }
devices:
  - { serial: AABBCCDD9999, name: Camera, model: W110 }
recordings:
  - { user: officer_9, device: AABBCCDD9999, clips: 1, clip-duration: 2s, clip-size: 2KB }
`;

/** A secret to look for, and the name a finding gives it. */
interface Secret {
  name: string;
  value: string | RegExp;
}

/** A running bwc-emu process and what it printed so far. */
interface Proc {
  name: string;
  child: ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

const running: ChildProcessWithoutNullStreams[] = [];
let dir: string;

beforeAll(() => {
  // CI builds at `npm ci`; a fresh clone without dist/ builds it here.
  if (!existsSync(join(ROOT, 'dist/cli/main.js')))
    execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'ignore' });
}, 120_000);
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'bwc-log-scan-'));
});
afterEach(() => {
  for (const child of running.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** Starts `bin/bwc-emu args`, collecting stdout and stderr. */
function start(name: string, args: string[]): Proc {
  const child = spawn(process.execPath, [join(ROOT, 'bin/bwc-emu'), ...args], { stdio: 'pipe' });
  running.push(child);
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return { name, child, stdout: () => out, stderr: () => err, exited };
}

/** Resolves once `test` holds of what `proc` printed; fails when it exits first or after 10 s. */
function until(proc: Proc, what: string, test: (all: string) => boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    const all = (): string => `${proc.stdout()}${proc.stderr()}`;
    const timer = setTimeout(() => reject(new Error(`${proc.name}: no ${what} within 10 s:\n${all()}`)), 10_000);
    const check = (): void => {
      if (!test(all())) return;
      clearTimeout(timer);
      resolve(all());
    };
    proc.child.stdout.on('data', check);
    proc.child.stderr.on('data', check);
    void proc.exited.then(() => reject(new Error(`${proc.name} exited before its ${what}:\n${all()}`)));
    check();
  });
}

/** The digest `response` value of an Authorization header. */
function responseOf(authorization: string): string {
  const match = /response="([0-9a-f]+)"/.exec(authorization);
  if (!match) throw new Error(`no response in ${authorization}`);
  return match[1];
}

/** The start of a log line, for a finding (a line that spreads a request into the log is ~30 KB). */
function excerpt(line: string): string {
  return line.length > 200 ? `${line.slice(0, 200)}... (${line.length} chars)` : line;
}

/** What a run left to scan: each process's stdout and stderr, and the device's journal (one entry a line). */
interface Scanned {
  name: string;
  texts: (readonly [string, string])[];
}

/** Every line of every text that holds a secret: "<secret> in <process> <stream> line <n>: <line>". */
function findSecrets(scanned: readonly Scanned[], secrets: readonly Secret[]): string[] {
  const findings: string[] = [];
  for (const { name: where, texts } of scanned)
    for (const [stream, text] of texts)
      text.split('\n').forEach((line, i) => {
        for (const { name, value } of secrets)
          if (typeof value === 'string' ? line.includes(value) : value.test(line))
            findings.push(`${name} in ${where} ${stream} line ${i + 1}: ${excerpt(line)}`);
      });
  return findings;
}

/** A process's output to scan. */
function output(proc: Proc): Scanned {
  return {
    name: proc.name,
    texts: [
      ['stdout', proc.stdout()],
      ['stderr', proc.stderr()],
    ],
  };
}

/** Runs the destination, the device and an upload in `format` log mode, drives the session; returns the secrets it saw. */
async function session(format: 'pretty' | 'json'): Promise<{ procs: Proc[]; scanned: Scanned[]; secrets: Secret[] }> {
  const base = join(dir, format);
  const connectionFile = `${base}-cd.json`;
  const scenario = `${base}-scan.yaml`;
  const plan = `${base}-plan.yaml`;
  writeFileSync(scenario, SCENARIO);
  writeFileSync(plan, PLAN);
  const logFlags = ['--log-level', 'trace', '--log-format', format];
  const destination = start(`destination (${format})`, [
    'destination',
    ...['--port', '0', '--user', 'team:alice', '--key', KEY, '--user', 'bob', '--key', OTHER_KEY],
    ...['--user', 'carol', '--key', READER_KEY, '--read-only', 'carol', '--max-object-size', '64KiB'],
    ...['--basic-over-http', '--connection-file', connectionFile, ...logFlags],
  ]);
  const destinationUrl = /url {12}(\S+)/.exec(
    await until(destination, 'banner', (all) => all.includes('Press Ctrl+C to stop.')),
  )?.[1] as string;
  const device = start(`device (${format})`, [
    ...['--port', '0', '--password', PASSWORD, '--account', `viewer:${VIEWER_PASSWORD}:viewer`],
    ...['--control-token', CONTROL_TOKEN, '--scenario', scenario, '--connection-file', connectionFile, ...logFlags],
  ]);
  const banner = await until(device, 'banner', (all) => all.includes('Press Ctrl+C to stop.'));
  const url = /url {12}(\S+)/.exec(banner)?.[1] as string;
  const secrets: Secret[] = [];
  const seen = (name: string, value: string): void => void secrets.push({ name, value });

  await driveDevice(url, seen);
  await driveDestination(destinationUrl, seen);
  const upload = start(`upload (${format})`, [
    'upload',
    '--connection-file',
    connectionFile,
    '--plan',
    plan,
    ...logFlags,
  ]);
  expect(await upload.exited).toBe(0);

  // The device's body worn system uploads its recording with the connection file's key.
  await until(device, 'upload', (all) => all.includes('body-worn recording uploaded'));
  // The journal (what the control API and the grader read) holds what crossed the device's sockets: no secret either.
  const journal = await sendRequest(url, {
    path: '/_emu/journal',
    headers: { Authorization: `Bearer ${CONTROL_TOKEN}` },
  });
  expect(journal.status).toBe(200);
  const entries = (JSON.parse(journal.body) as { entries: unknown[] }).entries;
  expect(entries.length).toBeGreaterThan(20);
  for (const proc of [device, destination]) proc.child.kill('SIGINT');
  expect(await device.exited).toBe(0);
  expect(await destination.exited).toBe(0);
  const scanned = [device, destination, upload].map(output);
  scanned.push({
    name: `journal (${format})`,
    texts: [['GET /_emu/journal', entries.map((e) => JSON.stringify(e)).join('\n')]],
  });
  return { procs: [device, destination, upload], scanned, secrets };
}

/** Records a secret to look for. */
type Seen = (name: string, value: string) => void;

/**
 * The device: digest logins right and wrong on every CGI, a viewer refused a write, a body
 * too large, Basic on plain HTTP, a token on the stream (and reused), the control API.
 */
async function driveDevice(url: string, seen: Seen): Promise<void> {
  const json = { 'Content-Type': 'application/json' };
  const call = (cgi: string, method: string, params: object = {}): HttpRequestOptions => ({
    method: 'POST',
    path: `/svc-cgi/${cgi}`,
    headers: json,
    body: JSON.stringify({ apiVersion: '1.0', method, params }),
  });
  const logins: [string, HttpRequestOptions, string, string, number][] = [
    ['device login', call('featureflag.cgi', 'listAll'), 'root', PASSWORD, 200],
    ['wrong password', call('featureflag.cgi', 'listAll'), 'root', WRONG_PASSWORD, 401],
    ['viewer', call('featureflag.cgi', 'set', { flagValues: { a: true } }), 'viewer', VIEWER_PASSWORD, 200],
    ['set', call('featureflag.cgi', 'set', { flagValues: { graphics_udvd: true } }), 'root', PASSWORD, 200],
    ['device info', call('basicdeviceinfo.cgi', 'getAllProperties'), 'root', PASSWORD, 200],
    ['param.cgi', { path: '/svc-cgi/param.cgi?action=list' }, 'root', PASSWORD, 200],
    ['too large', { ...call('featureflag.cgi', 'listAll'), body: 'x'.repeat(70_000) }, 'root', PASSWORD, 200],
  ];
  for (const [what, request, username, password, status] of logins) {
    const answer = await digestRequest(url, { ...request, username, password });
    expect([what, answer.status]).toEqual([what, status]);
    seen(`digest response (${what})`, responseOf(answer.authorization));
  }
  expect((await sendRequest(url, call('apidiscovery.cgi', 'getApiList'))).status).toBe(200);
  const basic = basicAuthorization('root', PASSWORD).slice('Basic '.length);
  seen('Basic credentials', basic);
  // Refused on plain HTTP (test/integration/basic-over-http.test.ts); here only what it leaves in the output counts.
  await sendRequest(url, { path: '/svc-cgi/wssession.cgi', headers: { Authorization: `Basic ${basic}` } });
  const token = await digestRequest(url, { path: '/svc-cgi/wssession.cgi', password: PASSWORD });
  expect(token.status).toBe(200);
  seen('wssession token', token.body);
  seen('digest response (token fetch)', responseOf(token.authorization));
  const stream = `${url.replace('http', 'ws')}/svc/ws-data-stream?sources=events&wssession=${token.body}`;
  const opened = await handshake(stream);
  if (!opened.ok) throw new Error(`the event stream refused the token: ${opened.status}`);
  expect((await opened.client.configure([{ topicFilter: 'tns1:Device//.' }])).error).toBeUndefined();
  await opened.client.close();
  const reused = await handshake(stream); // refused: the token was used
  expect(reused.ok).toBe(false);
  const unused = await digestRequest(url, { method: 'POST', path: '/svc-cgi/wssession.cgi', password: PASSWORD });
  seen('wssession token (never used)', unused.body);
  const bearer = { Authorization: `Bearer ${CONTROL_TOKEN}` };
  for (const [path, headers, status] of [
    ['/_emu/health', bearer, 200],
    ['/_emu/devices', bearer, 200], // its answer holds the passwords; the log must not
    ['/_emu/journal', bearer, 200],
    ['/_emu/health', { Authorization: `Bearer ${WRONG_KEY}` }, 401],
  ] as const)
    expect([path, (await sendRequest(url, { path, headers })).status]).toEqual([path, status]);
}

/**
 * The destination: Swift auth right and wrong, both token headers, every refusal and
 * conditional answer of its storage, its fault control, the recordings page (digest, Basic).
 */
async function driveDestination(url: string, seen: Seen): Promise<void> {
  const login = async (user: string, key: string): Promise<{ token: string; storage: string }> => {
    const auth = await sendRequest(url, { path: '/auth/v1.0', headers: { 'X-Auth-User': user, 'X-Auth-Key': key } });
    expect(auth.status).toBe(200);
    seen(`X-Auth-Token (${user})`, String(auth.headers['x-auth-token']));
    seen(`X-Storage-Token (${user})`, String(auth.headers['x-storage-token']));
    return {
      token: String(auth.headers['x-auth-token']),
      storage: new URL(String(auth.headers['x-storage-url'])).pathname,
    };
  };
  const alice = await login('team:alice', KEY);
  const bob = await login('bob', OTHER_KEY);
  const carol = await login('carol', READER_KEY);
  const refused = await sendRequest(url, {
    path: '/auth/v1.0',
    headers: { 'X-Auth-User': 'team:alice', 'X-Auth-Key': WRONG_KEY },
  });
  expect(refused.status).toBe(401);
  const { storage } = alice;
  const object = `${storage}/photos/one.jpg`;
  for (const path of [`${storage}/photos`, object])
    expect(
      (await sendRequest(url, { method: 'PUT', path, headers: { 'X-Auth-Token': alice.token }, body: 'jpg' })).status,
    ).toBe(201);
  const etag = String(
    (await sendRequest(url, { method: 'HEAD', path: object, headers: { 'X-Auth-Token': alice.token } })).headers.etag,
  );
  const forged = `AUTH_tk${'0'.repeat(32)}`;
  const cases: [number, string, string, Record<string, string>, (string | Buffer)?][] = [
    [200, 'GET', object, { 'X-Storage-Token': alice.token }],
    [400, 'PUT', object, { 'If-None-Match': '"abc"' }, 'jpg'],
    [412, 'PUT', object, { 'If-Match': '"00000000000000000000000000000000"' }, 'jpg'],
    [412, 'PUT', object, { 'If-None-Match': '*' }, 'jpg'],
    [304, 'GET', object, { 'If-None-Match': etag }],
    [304, 'HEAD', object, { 'If-None-Match': etag }],
    [412, 'GET', object, { 'If-Match': '"wrong"' }],
    [412, 'HEAD', object, { 'If-Unmodified-Since': 'Sat, 01 Jan 2000 00:00:00 GMT' }],
    [412, 'DELETE', object, { 'If-Match': '"wrong"' }],
    [416, 'GET', object, { Range: 'bytes=100-200' }],
    [404, 'GET', `${storage}/photos/missing.jpg`, {}],
    [404, 'GET', `${storage}/nothing`, {}],
    [409, 'DELETE', `${storage}/photos`, {}],
    [422, 'PUT', `${storage}/photos/two.jpg`, { ETag: 'not-md5' }, 'jpg'],
    [413, 'PUT', `${storage}/photos/big.jpg`, {}, Buffer.alloc(70 * 1024)],
    [401, 'GET', storage, { 'X-Auth-Token': forged }],
    [401, 'GET', storage, { 'X-Auth-Token': '' }],
    [403, 'GET', bob.storage, {}],
    [403, 'PUT', `${carol.storage}/photos`, { 'X-Auth-Token': carol.token }],
  ];
  for (const [status, method, path, headers, body] of cases) {
    const answer = await sendRequest(url, { method, path, headers: { 'X-Auth-Token': alice.token, ...headers }, body });
    expect([method, path, headers, answer.status]).toEqual([method, path, headers, status]);
  }
  // A PUT with neither Content-Length nor chunked coding (411): by hand, as an HTTP library always sends one.
  const noLength = `PUT ${storage}/photos/three.jpg HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Auth-Token: ${alice.token}\r\nConnection: close\r\n\r\n`;
  const lengthRequired = await rawHttpExchange(Number(new URL(url).port), Buffer.from(noLength, 'latin1'));
  expect(lengthRequired.received.toString('latin1')).toMatch(/^HTTP\/1\.1 411 /);
  const faults = await sendRequest(url, { path: '/_emu/faults', headers: { 'X-Auth-Token': bob.token } });
  expect(faults.status).toBe(200);
  const page = await digestRequest(url, { path: '/', username: 'team:alice', password: KEY });
  expect(page.status).toBe(200);
  seen('digest response (recordings page)', responseOf(page.authorization));
  const wrongPage = await digestRequest(url, { path: '/', username: 'team:alice', password: WRONG_KEY });
  expect(wrongPage.status).toBe(401);
  seen('digest response (recordings page, wrong key)', responseOf(wrongPage.authorization));
  const basic = basicAuthorization('bob', OTHER_KEY);
  seen('Basic credentials (recordings page)', basic.slice('Basic '.length));
  expect((await sendRequest(url, { path: '/', headers: { Authorization: basic } })).status).toBe(200);
}

describe('what bwc-emu prints', () => {
  it('holds no secret in pretty or JSON log mode, on stdout or stderr, of a device, a destination or an upload', async () => {
    const runs = await Promise.all([session('pretty'), session('json')]);
    const secrets: Secret[] = [
      { name: 'device password (--password)', value: PASSWORD },
      { name: 'viewer password (--account)', value: VIEWER_PASSWORD },
      { name: 'wrong password tried', value: WRONG_PASSWORD },
      { name: 'destination key (--key, connection file)', value: KEY },
      { name: 'second destination key (--key)', value: OTHER_KEY },
      { name: 'read-only user key (--key)', value: READER_KEY },
      { name: 'wrong key tried', value: WRONG_KEY },
      { name: 'control token (--control-token)', value: CONTROL_TOKEN },
      // Also the token the device's body worn system was issued, which the test never sees.
      { name: 'a Swift token', value: /AUTH_tk[0-9a-f]{32}/ },
      ...runs.flatMap((r) => r.secrets),
    ];
    const findings = runs.flatMap((r) => findSecrets(r.scanned, secrets));
    expect(findings).toEqual([]);
    // The scan saw the whole session: the banners, the log lines of each part, the upload.
    for (const { procs } of runs) {
      const [device, destination, upload] = procs.map((p) => `${p.stdout()}${p.stderr()}`);
      expect(device).toContain('password: as given by --password');
      expect(device).toMatch(/authentication failed|event stream handshake refused/);
      for (const line of ['events configured', 'feature flags set', 'rpc error', 'control API: refused'])
        expect(device).toContain(line);
      expect(destination).toContain('auth refused: wrong key');
      for (const line of [
        'request refused: bad condition',
        'conditional request',
        'GET refused: range not satisfiable',
        'request refused: token',
        'request refused: another account',
        'request refused: read-only user',
        'PUT refused: too large',
        'PUT refused: neither Content-Length nor chunked transfer encoding',
        'PUT refused: ETag not an MD5 digest',
      ])
        expect(destination).toContain(line);
      expect(destination).toContain('key: as given by --key number 1');
      expect(upload).toContain('1 transferred');
    }
  }, 15_000);
});
