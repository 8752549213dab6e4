/** The CGI path prefix and the realm that follows it (clients of real devices use /axis-cgi). */
import { digestRequest, fetchChallenges } from '../helpers/digest-request';
import { basicAuthorization, sendRequest } from '../helpers/http';
import { callFeatureFlags } from '../helpers/rpc-client';
import { deviceStarter } from '../helpers/devices';

const start = deviceStarter();

describe("cgiPrefix '/axis-cgi'", () => {
  it('serves featureflag.cgi and wssession.cgi under the new prefix', async () => {
    const device = await start({ cgiPrefix: '/axis-cgi' });
    expect(device.options.cgiPrefix).toBe('/axis-cgi');
    const flags = await callFeatureFlags(
      device,
      { apiVersion: '1.0', method: 'listAll' },
      { path: '/axis-cgi/featureflag.cgi' },
    );
    expect(flags.status).toBe(200);
    expect(flags.json.data).toHaveProperty('flags');
    const token = await digestRequest(device.url, { path: '/axis-cgi/wssession.cgi' });
    expect(token.status).toBe(200);
    expect(device.consumeToken(token.body).ok).toBe(true);
  });

  it('names the realm after the vendor word: AXIS_<serial>', async () => {
    const device = await start({ cgiPrefix: '/axis-cgi', basicOverHttp: true });
    expect(device.realm).toBe('AXIS_ACCC8E000001');
    const challenges = await fetchChallenges(device.url, '/axis-cgi/wssession.cgi');
    expect(challenges[0]).toMatch(/^Digest realm="AXIS_ACCC8E000001", /);
    expect(challenges[1]).toBe('Basic realm="AXIS_ACCC8E000001"');
  });

  it('the old /svc-cgi paths are 404', async () => {
    const device = await start({ cgiPrefix: '/axis-cgi' });
    const auth = { Authorization: basicAuthorization('root', 'pass') };
    expect(
      (await sendRequest(device.url, { method: 'POST', path: '/svc-cgi/featureflag.cgi', headers: auth, body: '{}' }))
        .status,
    ).toBe(404);
    expect((await sendRequest(device.url, { path: '/svc-cgi/wssession.cgi', headers: auth })).status).toBe(404);
  });

  it('a trailing slash in the prefix is ignored', async () => {
    const device = await start({ cgiPrefix: '/axis-cgi/' });
    expect(device.options.cgiPrefix).toBe('/axis-cgi');
    expect((await digestRequest(device.url, { path: '/axis-cgi/wssession.cgi' })).status).toBe(200);
  });

  it('a nested prefix works', async () => {
    const device = await start({ cgiPrefix: '/cam/vendor-cgi' });
    expect(device.realm).toBe('CAM_ACCC8E000001');
    expect((await digestRequest(device.url, { path: '/cam/vendor-cgi/wssession.cgi' })).status).toBe(200);
  });
});

describe('realm', () => {
  it('defaults to SVC_<serial>', async () => {
    const device = await start({ serial: 'B8A44F000042' });
    expect(device.realm).toBe('SVC_B8A44F000042');
    expect((await fetchChallenges(device.url, '/svc-cgi/wssession.cgi'))[0]).toMatch(/realm="SVC_B8A44F000042"/);
  });

  it('can be set explicitly', async () => {
    const device = await start({ realm: 'My "Camera"' });
    expect((await fetchChallenges(device.url, '/svc-cgi/wssession.cgi'))[0]).toMatch(
      /^Digest realm="My \\"Camera\\"", /,
    );
    expect((await digestRequest(device.url, { path: '/svc-cgi/wssession.cgi' })).status).toBe(200);
  });
});
