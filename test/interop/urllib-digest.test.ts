/** Interop with the urllib npm client and its `digestAuth` option (MD5 only in urllib). */
import { HttpClient } from 'urllib';
import { type DeviceHandle, startDevice } from '../../src';
import type { ListAllResponse } from '../helpers/rpc-client';

let device: DeviceHandle;
let client: HttpClient;
beforeEach(async () => {
  device = await startDevice({ port: 0 });
  client = new HttpClient();
});
afterEach(async () => {
  await device.close();
});

describe("urllib with digestAuth: 'root:pass'", () => {
  it('lists the feature flags (MD5)', async () => {
    const response = await client.request<ListAllResponse>(`${device.url}/svc-cgi/featureflag.cgi`, {
      method: 'POST',
      digestAuth: 'root:pass',
      data: { apiVersion: '1.0', context: 'urllib', method: 'listAll' },
      contentType: 'json',
      dataType: 'json',
    });
    expect(response.status).toBe(200);
    expect(response.data).toMatchObject({
      apiVersion: '1.0',
      context: 'urllib',
      method: 'listAll',
      data: { flags: expect.any(Array) as unknown[] },
    });
    expect(response.data.data.flags.map((f) => f.name)).toContain('restrictRootAccess');
  });

  it('gets a session token', async () => {
    const response = await client.request(`${device.url}/svc-cgi/wssession.cgi`, {
      method: 'GET',
      digestAuth: 'root:pass',
      dataType: 'text',
    });
    expect(response.status).toBe(200);
    expect(device.consumeToken(response.data as string).ok).toBe(true);
  });

  it('a wrong password ends with 401', async () => {
    const response = await client.request(`${device.url}/svc-cgi/wssession.cgi`, {
      method: 'GET',
      digestAuth: 'root:wrong',
      dataType: 'text',
    });
    expect(response.status).toBe(401);
  });

  it("with auth: 'root:pass' (Basic) works on a device with auth both that asks for Basic on plain HTTP", async () => {
    const basic = await startDevice({ port: 0, basicOverHttp: true });
    try {
      const response = await client.request<ListAllResponse>(`${basic.url}/svc-cgi/featureflag.cgi`, {
        method: 'POST',
        auth: 'root:pass',
        data: { apiVersion: '1.0', method: 'listAll' },
        contentType: 'json',
        dataType: 'json',
      });
      expect(response.status).toBe(200);
      expect(response.data.data.flags.length).toBeGreaterThan(0);
    } finally {
      await basic.close();
    }
  });

  it("with auth: 'root:pass' (Basic) is 401 on plain HTTP by default", async () => {
    const response = await client.request(`${device.url}/svc-cgi/featureflag.cgi`, {
      method: 'POST',
      auth: 'root:pass',
      data: { apiVersion: '1.0', method: 'listAll' },
      contentType: 'json',
      dataType: 'text',
    });
    expect(response.status).toBe(401);
  });
});
