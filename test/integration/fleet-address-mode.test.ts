/**
 * Address mode: a fleet whose devices are each at an address of their own, all on one port, as
 * real cameras are reached. Sampled devices answer at their address with their own serial,
 * realm, flags and tokens; a public client (the Python reference client, requests and
 * websocket-client) runs unchanged against one; a connection to an address without a device is
 * reset; one device's reboot leaves the port to the others; TLS devices each have their own
 * certificate.
 */
import { X509Certificate } from 'node:crypto';
import { connect } from 'node:net';
import { get as httpsGet } from 'node:https';
import { type EmulatorHandle, startDevice, startEmulator } from '../../src';
import type { DeviceHandle } from '../../src';
import { runTool, toolVersion } from '../helpers/cli-tool';
import { scenarioOf } from '../helpers/scenario-of';
import { digestRequest } from '../helpers/digest-request';
import { openWithToken, refusedHandshake, streamTarget, wsUrl } from '../helpers/event-stream-client';
import { ReferenceClient } from './grading/reference-client';

const QUIET = { scenario: scenarioOf('name: quiet', 'timeline:', '  - pause: 1h') };
const DEVICES = 200;
const SAMPLES = [0, 99, 199];
const CURL = '/usr/bin/curl';
const curl = toolVersion(CURL, 'address mode', 'curl');

let fleet: EmulatorHandle;
beforeAll(async () => {
  fleet = await startEmulator({
    scenarios: [QUIET],
    devices: DEVICES,
    addressRange: '127.7.0.1',
    device: { port: 0, serial: 'ACCC8E000100' },
  });
});
afterAll(() => fleet?.close());

const deviceAt = (i: number): DeviceHandle => fleet.devices[i].device;

/** The serial a device reports in basicdeviceinfo.cgi, asked with digest auth at its URL. */
async function reportedSerial(device: DeviceHandle): Promise<{ serial: string; realm: string | undefined }> {
  const answer = await digestRequest(device.url, {
    method: 'POST',
    path: new URL(device.urls.basicDeviceInfo).pathname,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ apiVersion: '1.0', method: 'getAllProperties' }),
  });
  const json = JSON.parse(answer.body) as { data: { propertyList: { SerialNumber: string } } };
  const header = String(answer.challenge.headers['www-authenticate'] ?? '');
  return { serial: json.data.propertyList.SerialNumber, realm: /realm="([^"]*)"/.exec(header)?.[1] };
}

describe('address mode', () => {
  it('puts device i at the range address + i, every one on the same port', () => {
    const port = deviceAt(0).port;
    expect(port).toBeGreaterThan(0);
    expect(fleet.devices.every(({ device }) => device.port === port)).toBe(true);
    expect(deviceAt(0).url).toBe(`http://127.7.0.1:${port}`);
    expect(deviceAt(99).url).toBe(`http://127.7.0.100:${port}`);
    expect(deviceAt(199).url).toBe(`http://127.7.0.200:${port}`);
    expect(deviceAt(199).serial).toBe('ACCC8E000299');
  });

  it('answers each sampled device at its own address with its own serial and realm', async () => {
    for (const i of SAMPLES) {
      const device = deviceAt(i);
      const { serial, realm } = await reportedSerial(device);
      expect(serial).toBe(device.serial);
      expect(realm).toBe(device.realm);
      expect(realm).toContain(device.serial);
    }
  });

  (curl ? it : it.skip)('answers curl --digest at a device address', async () => {
    const device = deviceAt(99);
    const run = await runTool(CURL, [
      '-sS',
      '--digest',
      '-u',
      'root:pass',
      '-H',
      'Content-Type: application/json',
      '--data',
      JSON.stringify({ apiVersion: '1.0', method: 'getAllProperties' }),
      device.urls.basicDeviceInfo,
    ]);
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toMatchObject({ data: { propertyList: { SerialNumber: device.serial } } });
  });

  it('keeps each device its own flags and session tokens', async () => {
    const [first, middle, last] = SAMPLES.map(deviceAt);
    const name = middle.flags()[0].name;
    const before = middle.flags()[0].value;
    await middle.setFlags({ [name]: !before });
    try {
      const listed = async (device: DeviceHandle): Promise<boolean | undefined> => {
        const answer = await digestRequest(device.url, {
          method: 'POST',
          path: new URL(device.urls.featureFlags).pathname,
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ apiVersion: '1.0', method: 'listAll' }),
        });
        const json = JSON.parse(answer.body) as { data: { flags: { name: string; value: boolean }[] } };
        return json.data.flags.find((f) => f.name === name)?.value;
      };
      expect(await listed(middle)).toBe(!before);
      expect(await listed(first)).toBe(before);
      expect(await listed(last)).toBe(before);
    } finally {
      await middle.setFlags({ [name]: before });
    }
    // A token the first device issued opens no session on the last one, and does on its own.
    const token = first.issueToken();
    const target = streamTarget(last, `?sources=events&wssession=${encodeURIComponent(token)}`);
    expect((await refusedHandshake(wsUrl(last, target))).status).toBe(401);
    const client = await openWithToken(first, token);
    try {
      expect(first.sessions()).toHaveLength(1);
      expect(last.sessions()).toHaveLength(0);
    } finally {
      await client.close();
    }
  });

  it('runs the Python reference client unchanged against a device at its address', async () => {
    const device = deviceAt(199);
    const topic = 'tns1:Device/tnsvendor:IO/Port';
    const client = new ReferenceClient('python', [device.url, '--topic', topic, '--duration', '30']);
    try {
      await client.waitFor('configured');
      device.publish(topic, { source: { port: '1' }, data: { state: '1' } });
      await client.waitFor('notification', 1, (line) => line.topic === topic);
      expect(device.sessions()).toHaveLength(1);
      expect(deviceAt(198).sessions()).toHaveLength(0);
    } finally {
      await client.stop();
    }
    expect(client.output).not.toContain('Traceback');
  });

  it('resets a connection to an address of the port that no device holds', async () => {
    expect(await connectOutcome('127.7.0.250', deviceAt(0).port)).toBe('ECONNRESET');
  });

  it('refuses sharePort for a host that is not an IPv4 address, and a bad addressRange, before anything starts', async () => {
    await expect(startDevice({ host: 'localhost', sharePort: true, port: 0 })).rejects.toMatchObject({
      code: 'BAD_OPTION',
      message: expect.stringContaining('sharePort needs host to be an IPv4 address') as string,
    });
    await expect(startEmulator({ devices: 2, addressRange: '127.7.0' })).rejects.toMatchObject({
      code: 'BAD_OPTION',
      message: expect.stringContaining('addressRange "127.7.0" must be an IPv4 address') as string,
    });
  });

  it('refuses a second device at an address already taken on the port', async () => {
    await expect(startDevice({ host: '127.7.0.5', sharePort: true, port: deviceAt(0).port })).rejects.toMatchObject({
      code: 'PORT_IN_USE',
      message: expect.stringContaining('127.7.0.5') as string,
    });
  });

  it("a reboot resets one device's connections and address; the port keeps serving the others", async () => {
    const rebooting = deviceAt(5);
    const client = await openWithToken(rebooting);
    const rebooted = rebooting.fault('reboot', { downMs: 200 });
    // Its address takes no connection as the call returns: reset, as the port is the others' too.
    expect(await connectOutcome('127.7.0.6', rebooting.port)).toBe('ECONNRESET');
    expect((await client.waitForClose()).code).toBe(1006);
    expect((await reportedSerial(deviceAt(6))).serial).toBe(deviceAt(6).serial);
    await rebooted;
    expect((await reportedSerial(rebooting)).serial).toBe(rebooting.serial);
  });
});

/** How a TCP connection to `host:port` ends: `ECONNRESET`, another error code, or `closed`. */
function connectOutcome(host: string, port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.on('data', () => resolve('data'));
    socket.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'));
    socket.on('close', () => resolve('closed'));
  });
}

describe('address mode with TLS', () => {
  it('gives each device its own certificate, valid for its address', async () => {
    const tls = await startEmulator({
      scenarios: [QUIET],
      devices: 2,
      addressRange: '127.8.0.1',
      device: { port: 0, tls: true, auth: 'none' },
    });
    try {
      const [one, two] = tls.devices.map((d) => d.device);
      expect(two.url).toBe(`https://127.8.0.2:${one.port}`);
      const status = (device: DeviceHandle, ca: string | undefined): Promise<string> =>
        new Promise((resolve) => {
          httpsGet(`${device.url}/`, { ca }, (res) => {
            res.resume();
            resolve(String(res.statusCode));
          }).on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
        });
      expect(await status(two, two.certificate)).toBe('200');
      // Another certificate: the first device's does not make the second's trusted, nor name its address.
      expect(await status(two, one.certificate)).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
      const names = (device: DeviceHandle): string =>
        new X509Certificate(device.certificate ?? '').subjectAltName ?? '';
      expect(names(two)).toContain('IP Address:127.8.0.2');
      expect(names(one)).not.toContain('IP Address:127.8.0.2');
    } finally {
      await tls.close();
    }
  });
});
