/**
 * Fault switches of the device's HTTP(S) face, seen by node's own clients: slow or busy
 * CGIs (delay, 503), and an HTTPS device serving a certificate for another host name.
 */
import { X509Certificate } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { request as httpsRequest } from 'node:https';
import { connect as tlsConnect } from 'node:tls';
import { type DeviceHandle } from '../../../src';
import { digestRequest } from '../../helpers/digest-request';
import { type HttpResult, sendRequest } from '../../helpers/http';
import { describeFault, faultRig } from './fault-test';

const rig = faultRig();
const LIST_ALL = JSON.stringify({ apiVersion: '1.0', context: 'cgi', method: 'listAll' });

function listAll(device: DeviceHandle): Promise<HttpResult> {
  return sendRequest(device.url, {
    method: 'POST',
    path: new URL(device.urls.featureFlags).pathname,
    headers: { 'Content-Type': 'application/json' },
    body: LIST_ALL,
  });
}

/** The answer to `send()` and how long it took, measured by the client. */
async function timed<T>(send: () => Promise<T>): Promise<{ answer: T; ms: number }> {
  const started = performance.now();
  const answer = await send();
  return { answer, ms: performance.now() - started };
}

/**
 * Node's timers count whole milliseconds from the start of the event loop turn, which may
 * begin up to 1 ms before the request is read: a delay of 50 can be 49.x ms measured here.
 */
const TIMER_GRAIN_MS = 1;

describeFault('cgi', () => {
  // The HTTP hook (src/device/device-app.ts) is added by another change; these pass once it is wired.
  const DELAY_MS = 50;

  it('delayMs: every CGI answer is delayed, then answered as usual', async () => {
    const device = await rig.start();
    await device.fault('cgi', { delayMs: DELAY_MS });
    const { answer, ms } = await timed(() => listAll(device));
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ context: 'cgi', method: 'listAll' });
    expect(ms).toBeGreaterThanOrEqual(DELAY_MS - TIMER_GRAIN_MS);
    const token = await timed(() => sendRequest(device.url, { path: new URL(device.urls.sessionToken).pathname }));
    expect(token.answer.status).toBe(200);
    expect(token.ms).toBeGreaterThanOrEqual(DELAY_MS - TIMER_GRAIN_MS);
  });

  it('status 503: featureflag.cgi answers 503 Service Unavailable; after clearFaults it answers again', async () => {
    const device = await rig.start();
    await device.fault('cgi', { status: 503 });
    const busy = await listAll(device);
    expect(busy.status).toBe(503);
    expect(busy.headers['retry-after']).toBe('5');
    expect(busy.body).toBe('Service Unavailable\n');
    expect(device.clearFaults('cgi')).toEqual(['cgi']);
    expect((await listAll(device)).status).toBe(200);
  });

  it('status 503 comes before authentication: a busy device does not ask for credentials', async () => {
    const device = await rig.start({ auth: 'digest' });
    const path = new URL(device.urls.sessionToken).pathname;
    await device.fault('cgi', { status: 503, delayMs: DELAY_MS });
    const { answer, ms } = await timed(() => sendRequest(device.url, { path }));
    expect(answer.status).toBe(503);
    expect(ms).toBeGreaterThanOrEqual(DELAY_MS - TIMER_GRAIN_MS);
    device.clearFaults();
    expect((await digestRequest(device.url, { path })).status).toBe(200);
  });
});

/** One GET with node's https client (host name checks on), trusting `ca`: the status, or the TLS error. */
function httpsGet(device: DeviceHandle, ca: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      { hostname: '127.0.0.1', port: device.port, path: new URL(device.urls.sessionToken).pathname, ca, agent: false },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** The certificate the device serves now, read without verifying it. */
function servedCertificate(device: DeviceHandle): Promise<X509Certificate> {
  return new Promise((resolve, reject) => {
    const socket = tlsConnect({ host: '127.0.0.1', port: device.port, rejectUnauthorized: false }, () => {
      const cert = new X509Certificate(socket.getPeerCertificate().raw);
      socket.destroy();
      resolve(cert);
    });
    socket.on('error', reject);
  });
}

describeFault('tls-host', () => {
  it('a client checking host names refuses the certificate; after clearFaults the device certificate validates again', async () => {
    const device = await rig.start({ tls: true });
    const own = device.certificate as string;
    expect(await httpsGet(device, own)).toBe(200);
    await device.fault('tls-host');
    // Another self-signed certificate: not the one the client trusts.
    await expect(httpsGet(device, own)).rejects.toMatchObject({ code: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
    const served = await servedCertificate(device);
    expect(served.subjectAltName).toBe('DNS:wrong-host.invalid');
    // Even trusted, it names another host: the host name check fails.
    await expect(httpsGet(device, served.toString())).rejects.toMatchObject({ code: 'ERR_TLS_CERT_ALTNAME_INVALID' });
    expect(device.clearFaults('tls-host')).toEqual(['tls-host']);
    expect(await httpsGet(device, own)).toBe(200);
    expect((await servedCertificate(device)).toString()).toBe(new X509Certificate(own).toString());
  });

  it('hostname: the certificate names that host', async () => {
    const device = await rig.start({ tls: true });
    await device.fault('tls-host', { hostname: 'camera.example.test' });
    const served = await servedCertificate(device);
    expect(served.subjectAltName).toBe('DNS:camera.example.test');
    expect(served.checkHost('camera.example.test')).toBe('camera.example.test');
    expect(served.checkIP('127.0.0.1')).toBeUndefined();
  });

  it('a device without TLS refuses the switch with BAD_FAULT', async () => {
    const device = await rig.start();
    await expect(device.fault('tls-host')).rejects.toMatchObject({
      code: 'BAD_FAULT',
      message: expect.stringMatching(/HTTPS device/) as string,
    });
    expect(device.faults()).toEqual([]);
  });
});
