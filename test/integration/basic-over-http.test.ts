/**
 * Basic sends the password in clear, so on plain HTTP it is off unless asked for: auth
 * `both` offers and accepts digest only there (a Basic attempt gets the normal 401 with the
 * digest challenges and a log line saying why), `basicOverHttp` / `--basic-over-http` turns
 * it on, auth `basic` is an ask of its own, and over TLS Basic stays on. The destination's
 * page login follows the same rule.
 */
import {
  createLogger,
  type DestinationHandle,
  type DestinationOptions,
  type DeviceOptions,
  type EmulatorHandle,
  startDestination,
  startEmulator,
} from '../../src';
import { BASIC_OVER_HTTP_REFUSED } from '../../src/auth/authenticator';
import { main } from '../../src/cli/main';
import { type Captured, capture } from '../helpers/cli-capture';
import { digestRequest } from '../helpers/digest-request';
import { refusedHandshake } from '../helpers/event-stream-client';
import { basicAuthorization, challengesOf, type HttpResult, sendRequest } from '../helpers/http';

const FLAGS = '/svc-cgi/featureflag.cgi';
const SESSION = '/svc-cgi/wssession.cgi';
const LIST_ALL = JSON.stringify({ apiVersion: '1.0', method: 'listAll' });
const ROOT = basicAuthorization('root', 'pass');

/** What a started device or destination logged, parsed. */
interface LogLine {
  msg: string;
  reason?: string;
}

/** Runs the CLI with `argv` until its banner is out (or fails at once when it exits first). */
async function started(argv: string[], isTty = false): Promise<{ c: Captured; exit: Promise<number> }> {
  const c = capture({ isTty });
  const exit = main(argv, c.io);
  await Promise.race([c.started, exit.then((code) => Promise.reject(new Error(`exited ${code}: ${c.err()}`)))]);
  return { c, exit };
}

const emulators: EmulatorHandle[] = [];
const destinations: DestinationHandle[] = [];
afterEach(async () => {
  await Promise.all([...emulators.splice(0), ...destinations.splice(0)].map((s) => s.close()));
});

/** One device (through the emulator, for its journal) and the lines it logs. */
async function device(options: DeviceOptions = {}): Promise<{ emulator: EmulatorHandle; logs: LogLine[] }> {
  const logs: LogLine[] = [];
  const logger = createLogger({ level: 'debug', format: 'json', write: (l) => logs.push(JSON.parse(l) as LogLine) });
  const emulator = await startEmulator({ scenarios: ['io-port'], device: { port: 0, logger, ...options } });
  emulators.push(emulator);
  return { emulator, logs };
}

/** A destination and the lines it logs. */
async function destination(options: DestinationOptions = {}): Promise<{ dest: DestinationHandle; logs: LogLine[] }> {
  const logs: LogLine[] = [];
  const logger = createLogger({ level: 'debug', format: 'json', write: (l) => logs.push(JSON.parse(l) as LogLine) });
  const dest = await startDestination({ port: 0, logger, ...options });
  destinations.push(dest);
  return { dest, logs };
}

/** POST listAll to featureflag.cgi with `authorization` (and the certificate to trust, for HTTPS). */
function listAll(emulator: EmulatorHandle, authorization?: string): Promise<HttpResult> {
  const { device } = emulator.devices[0];
  return sendRequest(device.url, {
    method: 'POST',
    path: FLAGS,
    headers: { 'Content-Type': 'application/json', ...(authorization ? { Authorization: authorization } : {}) },
    body: LIST_ALL,
    ...(device.certificate ? { ca: device.certificate } : {}),
  });
}

/** The schemes of a 401's challenges. */
function schemes(answer: HttpResult): string[] {
  return challengesOf(answer).map((c) => c.split(' ')[0]);
}

describe('a device with auth "both" on plain HTTP (the default)', () => {
  it('offers digest only: the 401 has no Basic challenge', async () => {
    const { emulator } = await device();
    const answer = await listAll(emulator);
    expect(answer.status).toBe(401);
    expect(schemes(answer)).toEqual(['Digest']);
  });

  it('refuses correct Basic credentials with the normal 401 (digest challenges), a log line and a journal entry saying why', async () => {
    const { emulator, logs } = await device();
    for (const path of [FLAGS, SESSION]) {
      const answer = await sendRequest(emulator.devices[0].device.url, {
        method: path === FLAGS ? 'POST' : 'GET',
        path,
        headers: { Authorization: ROOT, 'Content-Type': 'application/json' },
        body: path === FLAGS ? LIST_ALL : undefined,
      });
      expect(answer.status).toBe(401);
      expect(schemes(answer)).toEqual(['Digest']);
      expect(answer.body).toContain('401 Unauthorized');
    }
    expect(BASIC_OVER_HTTP_REFUSED).toBe(
      'Basic credentials refused over plain HTTP; use digest, TLS, or --basic-over-http (option basicOverHttp)',
    );
    expect(logs.filter((l) => l.reason === BASIC_OVER_HTTP_REFUSED)).toHaveLength(2);
    expect(emulator.journal({ kind: 'auth-refused' })).toEqual([
      expect.objectContaining({
        code: 'BASIC_OVER_HTTP',
        scheme: 'basic',
        user: 'root',
        reason: BASIC_OVER_HTTP_REFUSED,
      }),
      expect.objectContaining({
        code: 'BASIC_OVER_HTTP',
        scheme: 'basic',
        user: 'root',
        reason: BASIC_OVER_HTTP_REFUSED,
      }),
    ]);
    // The client under test is told so by the grader too (at once: no window to try again).
    expect(emulator.report({ thresholds: { recoverWithinMs: 0 } }).findings).toEqual([
      expect.objectContaining({ rule: 'auth-failed', message: expect.stringContaining('BASIC_OVER_HTTP') as string }),
    ]);
  });

  it('refuses Basic on the event stream handshake as well', async () => {
    const { emulator, logs } = await device();
    const refused = await refusedHandshake(emulator.devices[0].device.urls.eventStream, {
      headers: { Authorization: ROOT },
    });
    expect(refused.status).toBe(401);
    expect(refused.headersDistinct['www-authenticate']?.map((c) => c.split(' ')[0])).toEqual(['Digest']);
    expect(logs.some((l) => l.reason === BASIC_OVER_HTTP_REFUSED)).toBe(true);
  });

  it('still serves digest', async () => {
    const { emulator } = await device();
    const answer = await digestRequest(emulator.devices[0].device.url, { path: SESSION });
    expect(answer.status).toBe(200);
  });
});

describe('asking for Basic', () => {
  it('basicOverHttp: true offers and accepts Basic on plain HTTP next to digest', async () => {
    const { emulator } = await device({ basicOverHttp: true });
    expect(schemes(await listAll(emulator))).toEqual(['Digest', 'Basic']);
    expect((await listAll(emulator, ROOT)).status).toBe(200);
  });

  it('auth "basic" is an ask of its own: Basic on plain HTTP without basicOverHttp', async () => {
    const { emulator } = await device({ auth: 'basic' });
    expect(schemes(await listAll(emulator))).toEqual(['Basic']);
    expect((await listAll(emulator, ROOT)).status).toBe(200);
  });

  it('over TLS Basic stays on with auth "both", unasked', async () => {
    const { emulator } = await device({ tls: true });
    expect(schemes(await listAll(emulator))).toEqual(['Digest', 'Basic']);
    expect((await listAll(emulator, ROOT)).status).toBe(200);
  });

  it('refuses a basicOverHttp that is not a boolean', async () => {
    await expect(device({ basicOverHttp: 'yes' as unknown as boolean })).rejects.toThrow(
      'basicOverHttp must be true or false, not yes',
    );
  });
});

describe("the destination's page login", () => {
  it('on plain HTTP: digest only, Basic refused with a log line saying why; digest logs in', async () => {
    const { dest, logs } = await destination();
    const basic = await sendRequest(dest.url, {
      path: '/',
      headers: { Authorization: basicAuthorization('bws', 'secret') },
    });
    expect(basic.status).toBe(401);
    expect(schemes(basic).every((s) => s === 'Digest')).toBe(true);
    expect(logs).toContainEqual(expect.objectContaining({ reason: BASIC_OVER_HTTP_REFUSED }));
    const faults = await sendRequest(dest.url, {
      path: '/_emu/faults',
      headers: { Authorization: basicAuthorization('bws', 'secret') },
    });
    expect(faults.status).toBe(401);
    const digest = await digestRequest(dest.url, { path: '/', username: 'bws', password: 'secret' });
    expect(digest.status).toBe(200);
  });

  it('with basicOverHttp, or over TLS, Basic logs in', async () => {
    for (const options of [{ basicOverHttp: true }, { tls: true }]) {
      const { dest } = await destination(options);
      const answer = await sendRequest(dest.url, {
        path: '/',
        headers: { Authorization: basicAuthorization('bws', 'secret') },
        ...(dest.certificate ? { ca: dest.certificate } : {}),
      });
      expect(answer.status).toBe(200);
    }
  });
});

describe('the command line', () => {
  it('--basic-over-http turns Basic on; the banner says which schemes are on', async () => {
    for (const [flags, auth] of [
      [[], 'digest (MD5), realm SVC_ACCC8E000001; Basic is off on plain HTTP (--basic-over-http turns it on)'],
      [
        ['--basic-over-http'],
        'digest (MD5) or basic, realm SVC_ACCC8E000001; Basic on plain HTTP sends the password in clear',
      ],
      [['--auth', 'basic'], 'basic, realm SVC_ACCC8E000001; Basic on plain HTTP sends the password in clear'],
      [['--tls'], 'digest (MD5) or basic, realm SVC_ACCC8E000001'],
    ] as const) {
      const { c, exit } = await started(['--port', '0', '--log-level', 'silent', ...flags]);
      expect(c.err()).toContain(`  auth           ${auth}\n`);
      c.stop();
      expect(await exit).toBe(0);
    }
  });

  it('the curl line of --auth basic speaks Basic, not --digest', async () => {
    const { c, exit } = await started(['--port', '0', '--log-level', 'silent', '--auth', 'basic'], true);
    expect(c.out()).toContain(`  curl -u root:pass -H 'Content-Type: application/json'`);
    c.stop();
    expect(await exit).toBe(0);
  });

  it.each([['digest'], ['none']])('refuses --basic-over-http with --auth %s: it would do nothing', async (auth) => {
    const c = capture();
    expect(await main(['--port', '0', '--auth', auth, '--basic-over-http'], c.io)).toBe(2);
    expect(c.err()).toBe(
      `bwc-emu: --basic-over-http has no use with --auth ${auth}; give --auth both (or basic) with it\n`,
    );
  });

  it('lists --basic-over-http in --help of the device and of the destination, and says when Basic is on', async () => {
    const device = capture();
    expect(await main(['--help'], device.io)).toBe(0);
    expect(device.out()).toContain('--basic-over-http');
    expect(device.out()).toMatch(/Basic too over TLS or with\s+--basic-over-http/);
    const dest = capture();
    expect(await main(['destination', '--help'], dest.io)).toBe(0);
    expect(dest.out()).toContain('--basic-over-http');
  });

  it('bwc-emu destination --basic-over-http lets the pages accept Basic on plain HTTP', async () => {
    const { c, exit } = await started(['destination', '--port', '0', '--log-level', 'silent', '--basic-over-http']);
    const url = /url {12}(\S+)/.exec(c.out())?.[1] ?? '';
    expect(c.out()).toContain('  page login     digest (MD5, SHA-256) or basic\n');
    const answer = await sendRequest(url, {
      path: '/',
      headers: { Authorization: basicAuthorization('bws', 'secret') },
    });
    expect(answer.status).toBe(200);
    c.stop();
    expect(await exit).toBe(0);
  });
});
