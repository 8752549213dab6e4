/**
 * No secret in what bwc-emu prints: a device and a content destination run as real
 * processes (bin/bwc-emu, `npm run build` first) with chosen secrets, in pretty and in
 * JSON log mode at the most verbose level; a short session goes through every place a
 * secret passes (digest logins right and wrong, a Basic try on plain HTTP, a session token
 * on the event stream, the control API's bearer token, Swift auth with right and wrong
 * keys, an upload by hand, one by the device's body worn system and one by `bwc-emu upload`,
 * the recordings page).
 * Then everything on stdout and stderr is scanned for each secret; a finding names the
 * secret and the line. (The journal is in memory only: nothing else is on disk to scan.)
 */
import { type ChildProcessWithoutNullStreams, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { digestRequest } from '../helpers/digest-request';
import { handshake } from '../helpers/event-stream-client';
import { basicAuthorization, sendRequest } from '../helpers/http';

const ROOT = join(__dirname, '../..');

/** The chosen secrets: none of them is a built-in default. */
const PASSWORD = 'Scan-Dev1ce-Pw';
const VIEWER_PASSWORD = 'Scan-V1ewer-Pw';
const WRONG_PASSWORD = 'Scan-Wr0ng-Pw';
const KEY = 'Scan-Dest-K3y';
const OTHER_KEY = 'Scan-Other-K3y';
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

/** Every line of every stream that holds a secret: "<secret> in <process> <stream> line <n>: <line>". */
function findSecrets(procs: readonly Proc[], secrets: readonly Secret[]): string[] {
  const findings: string[] = [];
  for (const proc of procs)
    for (const [stream, text] of [
      ['stdout', proc.stdout()],
      ['stderr', proc.stderr()],
    ] as const)
      text.split('\n').forEach((line, i) => {
        for (const { name, value } of secrets)
          if (typeof value === 'string' ? line.includes(value) : value.test(line))
            findings.push(`${name} in ${proc.name} ${stream} line ${i + 1}: ${line}`);
      });
  return findings;
}

/** Runs the destination, the device and an upload in `format` log mode, drives the session; returns the secrets it saw. */
async function session(format: 'pretty' | 'json'): Promise<{ procs: Proc[]; secrets: Secret[] }> {
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
    ...['--connection-file', connectionFile, ...logFlags],
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

  // The device: a digest login, a wrong password, Basic on plain HTTP, a token on the stream, the control API.
  const body = JSON.stringify({ apiVersion: '1.0', method: 'listAll' });
  const post = { method: 'POST', path: '/svc-cgi/featureflag.cgi', headers: { 'Content-Type': 'application/json' } };
  const login = await digestRequest(url, { ...post, body, password: PASSWORD });
  expect(login.status).toBe(200);
  seen('digest response (device login)', responseOf(login.authorization));
  const wrong = await digestRequest(url, { ...post, body, password: WRONG_PASSWORD });
  expect(wrong.status).toBe(401);
  seen('digest response (wrong password)', responseOf(wrong.authorization));
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
  const control = await sendRequest(url, {
    path: '/_emu/health',
    headers: { Authorization: `Bearer ${CONTROL_TOKEN}` },
  });
  expect(control.status).toBe(200);

  // The destination: Swift auth right and wrong, an upload, the recordings page.
  const auth = await sendRequest(destinationUrl, {
    path: '/auth/v1.0',
    headers: { 'X-Auth-User': 'team:alice', 'X-Auth-Key': KEY },
  });
  expect(auth.status).toBe(200);
  const swiftToken = String(auth.headers['x-auth-token']);
  seen('X-Auth-Token', swiftToken);
  const refused = await sendRequest(destinationUrl, {
    path: '/auth/v1.0',
    headers: { 'X-Auth-User': 'team:alice', 'X-Auth-Key': WRONG_KEY },
  });
  expect(refused.status).toBe(401);
  const storage = new URL(String(auth.headers['x-storage-url'])).pathname;
  for (const path of [`${storage}/photos`, `${storage}/photos/one.jpg`])
    expect(
      (await sendRequest(destinationUrl, { method: 'PUT', path, headers: { 'X-Auth-Token': swiftToken }, body: 'jpg' }))
        .status,
    ).toBe(201);
  const page = await digestRequest(destinationUrl, { path: '/', username: 'team:alice', password: KEY });
  expect(page.status).toBe(200);
  seen('digest response (recordings page)', responseOf(page.authorization));
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
  for (const proc of [device, destination]) proc.child.kill('SIGINT');
  expect(await device.exited).toBe(0);
  expect(await destination.exited).toBe(0);
  return { procs: [device, destination, upload], secrets };
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
      { name: 'wrong key tried', value: WRONG_KEY },
      { name: 'control token (--control-token)', value: CONTROL_TOKEN },
      // Also the token the device's body worn system was issued, which the test never sees.
      { name: 'a Swift token', value: /AUTH_tk[0-9a-f]{32}/ },
      ...runs.flatMap((r) => r.secrets),
    ];
    const findings = runs.flatMap((r) => findSecrets(r.procs, secrets));
    expect(findings).toEqual([]);
    // The scan saw the whole session: the banners, the log lines of each part, the upload.
    for (const { procs } of runs) {
      const [device, destination, upload] = procs.map((p) => `${p.stdout()}${p.stderr()}`);
      expect(device).toContain('password: as given by --password');
      expect(device).toMatch(/authentication failed|event stream handshake refused/);
      expect(destination).toContain('auth refused: wrong key');
      expect(destination).toContain('key: as given by --key number 1');
      expect(upload).toContain('1 transferred');
    }
  }, 15_000);
});
