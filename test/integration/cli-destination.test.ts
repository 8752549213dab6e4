/**
 * `bwc-emu destination` as a newcomer meets it: --help, one-line refusals, the
 * banner with a usable connection file, a login with the printed credentials, a
 * data directory that outlives the process (a temporary one does not), and a clean stop.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../src/cli/main';
import { parseFault } from '../../src/cli/destination';
import { parseSize } from '../../src/base/size';
import { capture } from '../helpers/cli-capture';
import { sendRequest } from '../helpers/http';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'bwc-cli-dest-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Starts the command, waits for the banner, returns the capture and the exit code's promise. */
async function run(args: string[]) {
  const c = capture();
  const exit = main(['destination', ...args], c.io);
  await Promise.race([c.started, exit.then((code) => Promise.reject(new Error(`exited ${code}: ${c.err()}`)))]);
  const url = /url {12}(\S+)/.exec(c.out())?.[1] ?? '';
  return { c, exit, url };
}

describe('bwc-emu destination', () => {
  it('prints its options with --help', async () => {
    const c = capture();
    expect(await main(['destination', '--help'], c.io)).toBe(0);
    for (const flag of [
      '--data-dir',
      '--port',
      '--user',
      '--key',
      '--read-only',
      '--licences',
      '--quota',
      '--token-ttl',
      '--fault',
      '--tls',
      '--connection-file',
    ])
      expect(c.out()).toContain(flag);
  });

  it.each([
    [['--user', 'a'], /give one --key for each --user/],
    [['--quota', 'lots'], /--quota "lots" is not a size/],
    [['--token-ttl', '15'], /--token-ttl/],
    [['--fault', 'status=404'], /fault status must be one of 500, 503, 507/],
    [['--fault', 'colour=red'], /unknown part "colour"/],
    [['--disable-capability', 'Teleport'], /unknown \(known: ReadCategories/],
    [['--read-only', 'nobody'], /--read-only nobody: no such --user/],
    [['--port', '70000'], /--port must be a port number \(0-65535\), not 70000/],
    [['--licences', 'abc'], /--licences must be a number, not "abc"/],
    [['--licences', '-1'], /licences must be a whole number of 0 or more, not -1/],
    [['--licences', '2.5'], /licences must be a whole number of 0 or more, not 2.5/],
    [['--tls-cert', 'c.pem'], /--tls-cert and --tls-key go together/],
  ])('refuses %j in one line with exit 2', async (args, message) => {
    const c = capture();
    expect(await main(['destination', ...args], c.io)).toBe(2);
    expect(c.err()).toMatch(message);
    expect(c.err().trim().split('\n')[0]).toMatch(/^bwc-emu destination: /);
  });

  it('starts, prints a working login and connection file, keeps data after a stop', async () => {
    const connectionFile = join(dir, 'cd.json');
    const { c, exit, url } = await run([
      '--port',
      '0',
      '--data-dir',
      dir,
      '--user',
      'team:alice',
      '--key',
      'wonder',
      '--connection-file',
      connectionFile,
      '--licences',
      '3',
    ]);
    expect(c.out()).toContain(`team:alice, key: as given by --key; also in connection file ${connectionFile}`);
    expect(c.out()).not.toContain('wonder');
    expect(c.out()).toContain('3 users, 3 cameras per account');
    const file = JSON.parse(readFileSync(connectionFile, 'utf8')) as Record<string, unknown>;
    expect(file).toMatchObject({
      ConnectionFileVersion: '1.0',
      BlobAPIUserName: 'team:alice',
      BlobAPIKey: 'wonder',
      AuthenticationTokenURI: [`${url}/auth/v1.0`],
    });
    const auth = await sendRequest(url, {
      path: '/auth/v1.0',
      headers: { 'X-Auth-User': 'team:alice', 'Auth-Key': 'wonder' },
    });
    expect(auth.status).toBe(200);
    expect(auth.headers['x-storage-url']).toBe(`${url}/v1/AUTH_team`);
    const token = String(auth.headers['x-auth-token']);
    expect(
      (await sendRequest(url, { method: 'PUT', path: '/v1/AUTH_team/kept', headers: { 'X-Auth-Token': token } }))
        .status,
    ).toBe(201);
    c.stop();
    expect(await exit).toBe(0);
    expect(c.out()).toContain('SIGINT: stopping');

    const again = await run(['--port', '0', '--data-dir', dir, '--user', 'team:alice', '--key', 'wonder']);
    const auth2 = await sendRequest(again.url, {
      path: '/auth/v1.0',
      headers: { 'X-Auth-User': 'team:alice', 'X-Auth-Key': 'wonder' },
    });
    const listing = await sendRequest(again.url, {
      path: '/v1/AUTH_team',
      headers: { 'X-Auth-Token': String(auth2.headers['x-auth-token']) },
    });
    expect(listing.body.split('\n')).toContain('kept');
    again.c.stop();
    expect(await again.exit).toBe(0);
  });

  it('removes the temporary data directory it made at stop, never a --data-dir', async () => {
    const temporary = await run(['--port', '0']);
    const made = /data dir {7}(\S+) {2}\(temporary, removed at stop/.exec(temporary.c.out())?.[1] ?? '';
    expect(existsSync(made)).toBe(true);
    temporary.c.stop();
    expect(await temporary.exit).toBe(0);
    expect(existsSync(made)).toBe(false);

    const given = await run(['--port', '0', '--data-dir', dir]);
    expect(given.c.out()).not.toContain('temporary');
    given.c.stop();
    expect(await given.exit).toBe(0);
    expect(readdirSync(dir).length).toBeGreaterThan(0);
  });

  it('serves HTTPS and puts the certificate in the connection file as base64 PEM', async () => {
    const { c, exit, url } = await run(['--port', '0', '--data-dir', dir, '--tls']);
    expect(url).toMatch(/^https:/);
    const printed = JSON.parse(c.out().slice(c.out().indexOf('{\n'), c.out().indexOf('\n}\n') + 2)) as {
      HTTPSCertificate: string[];
    };
    const pem = Buffer.from(printed.HTTPSCertificate[0], 'base64').toString('utf8');
    expect(pem).toMatch(/^-----BEGIN CERTIFICATE-----/);
    const auth = await sendRequest(url, {
      path: '/auth/v1.0',
      headers: { 'X-Auth-User': 'bws', 'X-Auth-Key': 'secret' },
      ca: pem,
    });
    expect(auth.status).toBe(200);
    c.stop();
    expect(await exit).toBe(0);
  });
});

describe('destination flag parsing', () => {
  it.each([
    ['1048576', 1048576],
    ['500MB', 500e6],
    ['2GiB', 2 * 1024 ** 3],
    ['1.5kib', 1536],
  ])('reads the size %s', (text, bytes) => {
    expect(parseSize(text, '--quota')).toEqual({ ok: true, value: bytes });
  });

  it('reads a fault in key=value form', () => {
    expect(parseFault('status=503,share=0.25,path=/v1/AUTH_bws/Users,methods=put+post,latency=200ms,times=3')).toEqual({
      status: 503,
      share: 0.25,
      pathPrefix: '/v1/AUTH_bws/Users',
      methods: ['PUT', 'POST'],
      latencyMs: 200,
      times: 3,
    });
  });
});
