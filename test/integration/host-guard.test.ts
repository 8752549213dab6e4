/**
 * DNS rebinding, over real sockets: a page at a name its author made resolve to 127.0.0.1
 * sends `Host: evil.name:PORT` with a matching `Origin`. Without a control token, the control
 * API and the dashboard (page, files, device.json) answer it 403 (JSON on /_emu/, text on
 * the dashboard, before any login challenge), with a log line; `localhost`, `127.0.0.1`,
 * `[::1]` and the `--allowed-host` names still work, on plain HTTP and TLS; a request without
 * Host (HTTP/1.0) from loopback is served; with a control token, the token works from any Host.
 */
import { startEmulator, type EmulatorHandle } from '../../src';
import { main } from '../../src/cli/main';
import { createLogger } from '../../src/base/log';
import { type Captured, capture } from '../helpers/cli-capture';
import { digestRequest } from '../helpers/digest-request';
import { type HttpResult, sendRequest } from '../helpers/http';
import { rawHttpExchange } from '../helpers/raw-http';

const PASSWORD = 'Rebind-Passw0rd';
const TOKEN = 'Rebind-T0ken';

let emulator: EmulatorHandle | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

/** Starts an emulator of one device on a free port with `options`, logging into `lines`. */
async function start(
  options: { tls?: boolean; allowedHosts?: string[]; token?: string } = {},
  lines: Record<string, unknown>[] = [],
): Promise<{ url: string; port: number; ca: string | undefined }> {
  const logger = createLogger({
    level: 'info',
    write: (line) => void lines.push(JSON.parse(line) as Record<string, unknown>),
  });
  emulator = await startEmulator({
    device: {
      port: 0,
      tls: options.tls,
      allowedHosts: options.allowedHosts,
      accounts: [{ name: 'root', password: PASSWORD, role: 'admin' }],
    },
    control: options.token === undefined ? {} : { token: options.token },
    logger,
  });
  const { device } = emulator.devices[0];
  return { url: device.url, port: device.port, ca: device.certificate };
}

/** GET `path` with `Host: host` (and the Origin a page at that host sends). */
function asHost(
  base: { url: string; ca: string | undefined },
  host: string,
  path: string,
  headers = {},
): Promise<HttpResult> {
  const scheme = base.url.startsWith('https') ? 'https' : 'http';
  return sendRequest(base.url, {
    path,
    ca: base.ca,
    // The certificate is checked against the address dialled, not the Host sent.
    servername: 'localhost',
    headers: { Host: host, Origin: `${scheme}://${host}`, ...headers },
  });
}

/** The dashboard's paths: the page, a built file's place, the device's facts. */
const DASHBOARD = ['/', '/dashboard/device.json'];

describe.each([
  ['plain HTTP', false],
  ['TLS', true],
])('without a control token, over %s', (_name, tls) => {
  it('answers a foreign Host 403 on the control API (JSON) and the dashboard (text, no login asked), and logs it', async () => {
    const lines: Record<string, unknown>[] = [];
    const base = await start({ tls }, lines);
    const evil = `evil.name:${base.port}`;
    for (const path of ['/_emu/devices', '/_emu/health', '/_emu/feed', '/_emu/journal']) {
      const answer = await asHost(base, evil, path);
      expect([path, answer.status]).toEqual([path, 403]);
      const error = (JSON.parse(answer.body) as { error: { code: string; message: string } }).error;
      expect(error.code).toBe('HOST_NOT_ALLOWED');
      expect(error.message).toContain('Host "evil.name:');
      expect(error.message).toContain('--allowed-host evil.name ');
      expect(answer.body).not.toContain(PASSWORD);
    }
    for (const method of ['POST', 'PUT']) {
      const path = method === 'POST' ? '/_emu/reset' : '/_emu/flags';
      const headers = { Host: evil, Origin: `${tls ? 'https' : 'http'}://${evil}`, 'Content-Type': 'application/json' };
      const answer = await sendRequest(base.url, {
        method,
        path,
        ca: base.ca,
        servername: 'localhost',
        headers,
        body: '{}',
      });
      expect([path, answer.status]).toEqual([path, 403]);
    }
    for (const path of DASHBOARD) {
      const answer = await asHost(base, evil, path);
      expect([path, answer.status]).toEqual([path, 403]);
      expect(answer.headers['www-authenticate']).toBeUndefined();
      expect(answer.headers['content-type']).toMatch(/^text\/plain/);
      expect(answer.body).toMatch(/^Forbidden: Host "evil\.name:\d+" is not one of this server's names/);
    }
    const logged = lines.filter((l) => String(l.msg).includes('Host not allowed'));
    expect(logged.length).toBeGreaterThanOrEqual(2);
    expect(logged[0]).toMatchObject({ host: evil, remote: '127.0.0.1' });
    expect(JSON.stringify(lines)).not.toContain(PASSWORD);
  });

  it('serves localhost, 127.0.0.1 and [::1] (any port, any case, a trailing dot)', async () => {
    const base = await start({ tls });
    for (const host of [
      `localhost:${base.port}`,
      `127.0.0.1:${base.port}`,
      `[::1]:${base.port}`,
      'LOCALHOST.',
      'app.localhost',
    ]) {
      expect([host, (await asHost(base, host, '/_emu/devices')).status]).toEqual([host, 200]);
      // The dashboard asks for the device's login: past the Host check.
      expect([host, (await asHost(base, host, '/dashboard/device.json')).status]).toEqual([host, 401]);
    }
    const page = await digestRequest(base.url, {
      path: '/dashboard/device.json',
      password: PASSWORD,
      ca: base.ca,
      servername: 'localhost',
      headers: { Host: `localhost:${base.port}` },
    });
    expect(page.status).toBe(200);
  });
});

describe('the allowed names', () => {
  it('serves a name given with allowedHosts (and the names under a .suffix), not another', async () => {
    const base = await start({ allowedHosts: ['emu.test', '.lab.test'] });
    for (const host of [`emu.test:${base.port}`, `cam.lab.test:${base.port}`, 'EMU.test'])
      expect([host, (await asHost(base, host, '/_emu/health')).status]).toEqual([host, 200]);
    expect((await asHost(base, `emu.test:${base.port}`, '/')).status).toBe(401);
    expect((await asHost(base, `other.test:${base.port}`, '/_emu/health')).status).toBe(403);
    expect((await asHost(base, `other.test:${base.port}`, '/')).status).toBe(403);
  });

  it('takes --allowed-host on the command line', async () => {
    const c: Captured = capture();
    const exit = main(
      ['--port', '0', '--log-level', 'silent', '--allowed-host', 'emu.test', '--allowed-host', 'b.test'],
      c.io,
    );
    await c.started;
    try {
      const url = /url {12}(\S+)/.exec(`${c.out()}${c.err()}`)?.[1] as string;
      const port = new URL(url).port;
      for (const [host, status] of [
        [`emu.test:${port}`, 200],
        [`b.test:${port}`, 200],
        [`evil.name:${port}`, 403],
      ] as const)
        expect([host, (await sendRequest(url, { path: '/_emu/health', headers: { Host: host } })).status]).toEqual([
          host,
          status,
        ]);
    } finally {
      c.stop();
      expect(await exit).toBe(0);
    }
  });

  it('refuses an allowed host that is not a name', async () => {
    await expect(startEmulator({ device: { port: 0, allowedHosts: ['emu.test:8080'] } })).rejects.toThrow(
      /allowed host "emu.test:8080" must be a host name/,
    );
  });
});

describe('a request without Host, and the control token', () => {
  it('serves an HTTP/1.0 request without Host from loopback (no browser sends one)', async () => {
    const base = await start();
    const { received } = await rawHttpExchange(base.port, Buffer.from('GET /_emu/health HTTP/1.0\r\n\r\n', 'latin1'));
    expect(received.toString('latin1')).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('with a control token, the token works from any Host; without it, 401', async () => {
    const base = await start({ token: TOKEN });
    const evil = `evil.name:${base.port}`;
    expect((await asHost(base, evil, '/_emu/devices', { Authorization: `Bearer ${TOKEN}` })).status).toBe(200);
    expect((await asHost(base, evil, '/_emu/devices')).status).toBe(401);
    // The dashboard has no token: it keeps to the device's own names.
    expect((await asHost(base, evil, '/')).status).toBe(403);
  });
});
