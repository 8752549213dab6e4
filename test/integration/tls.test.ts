/** HTTPS: a self-signed certificate made at start, that a client can trust with `ca`. */
import { request as httpsRequest } from 'node:https';
import { X509Certificate } from 'node:crypto';
import { type DeviceHandle, startDevice } from '../../src';
import { selfSignedCertificate } from '../../src/base/tls';
import { digestRequest } from '../helpers/digest-request';
import { sendRequest } from '../helpers/http';
import { callFeatureFlags } from '../helpers/rpc-client';

let device: DeviceHandle;
beforeAll(async () => {
  device = await startDevice({ port: 0, tls: true });
});
afterAll(async () => {
  await device.close();
});

/** One GET with node's https client, trusting `ca`; resolves with the status or rejects with the TLS error. */
function httpsGet(path: string, ca: string | undefined): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest({ hostname: '127.0.0.1', port: device.port, path, ca, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('tls: true', () => {
  it('serves HTTPS on an https:// URL', () => {
    expect(device.url).toBe(`https://127.0.0.1:${device.port}`);
  });

  it('exposes its certificate as PEM, valid for 127.0.0.1 and localhost', () => {
    expect(device.certificate).toMatch(/^-----BEGIN CERTIFICATE-----\r?\n[\s\S]+-----END CERTIFICATE-----\s*$/);
    const cert = new X509Certificate(device.certificate as string);
    expect(cert.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(cert.checkHost('localhost')).toBe('localhost');
    expect(new Date(cert.validTo).getTime()).toBeGreaterThan(Date.now());
  });

  it('a client that trusts device.certificate gets an answer', async () => {
    expect(await httpsGet('/svc-cgi/wssession.cgi', device.certificate)).toBe(401);
  });

  it('a client that trusts nothing special refuses the self-signed certificate', async () => {
    await expect(httpsGet('/svc-cgi/wssession.cgi', undefined)).rejects.toMatchObject({
      code: expect.stringMatching(/SELF_SIGNED|UNABLE_TO_VERIFY/) as string,
    });
  });

  it('digest works over HTTPS', async () => {
    const answer = await digestRequest(device.url, { path: '/svc-cgi/wssession.cgi', ca: device.certificate });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatch(/^\d{19}$/);
    const flags = await callFeatureFlags(device, { apiVersion: '1.0', method: 'listAll' }, { ca: device.certificate });
    expect(flags.json.data).toHaveProperty('flags');
  });

  it('plain HTTP to the HTTPS port gets no HTTP answer', async () => {
    await expect(sendRequest(device.url.replace('https:', 'http:'), { path: '/' })).rejects.toThrow();
  });
});

describe('tls with given PEM material', () => {
  it('serves the given certificate', async () => {
    const material = await selfSignedCertificate('given.bwc-emu.local', '127.0.0.1');
    const given = await startDevice({ port: 0, tls: material });
    try {
      expect(given.certificate).toBe(material.cert);
      const answer = await sendRequest(given.url, { path: '/svc-cgi/wssession.cgi', ca: material.cert });
      expect(answer.status).toBe(401);
    } finally {
      await given.close();
    }
  });
});
