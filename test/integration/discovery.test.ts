/**
 * Discovery and identity: apidiscovery.cgi and basicdeviceinfo.cgi as real clients call
 * them before they open the event stream (param.cgi: param-cgi.test.ts).
 */
import { type DigestRequestOptions, digestRequest } from '../helpers/digest-request';
import { deviceStarter } from '../helpers/devices';
import { basicAuthorization, type HttpResult, sendRequest } from '../helpers/http';
import { type DeviceHandle, type RpcResponse, startDevice } from '../../src';
import { socSerialNumber } from '../../src/device/identity';

const device = deviceStarter();

/** The `data` of these CGIs: the API list, the identity's properties or the supported versions. */
interface DiscoveryData {
  apiList?: { id: string; version: string; name: string; docLink: string }[];
  propertyList?: Record<string, string>;
  apiVersions?: string[];
}

/** An answer's JSON (`{}` unless the status is 200). */
type Answer = Partial<Omit<RpcResponse, 'data'>> & { data?: DiscoveryData };

/** How to send: anonymous (default), or digest with these credentials. */
type Auth = false | true | Pick<DigestRequestOptions, 'username' | 'password'>;

async function post(
  d: DeviceHandle,
  cgi: string,
  body: unknown,
  auth: Auth = false,
): Promise<{ status: number; json: Answer; answer: HttpResult }> {
  const request = {
    method: 'POST',
    path: `${d.options.cgiPrefix}/${cgi}`,
    headers: { 'Content-Type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  };
  const answer =
    auth === false
      ? await sendRequest(d.url, request)
      : await digestRequest(d.url, { ...request, ...(auth === true ? {} : auth) });
  return { status: answer.status, json: answer.status === 200 ? (JSON.parse(answer.body) as Answer) : {}, answer };
}

const DOC = 'https://bwc-emu.invalid/docs/apis/';
const API_LIST = [
  { id: 'api-discovery', version: '1.0', name: 'API Discovery Service', docLink: `${DOC}api-discovery` },
  { id: 'basic-device-info', version: '1.3', name: 'Basic Device Information', docLink: `${DOC}basic-device-info` },
  {
    id: 'event-streaming-over-websocket',
    version: '1.0',
    name: 'Event Streaming over WebSocket',
    docLink: `${DOC}event-streaming-over-websocket`,
  },
  { id: 'feature-flag', version: '1.0', name: 'Feature Flag Service', docLink: `${DOC}feature-flag` },
  { id: 'param-cgi', version: '1.0', name: 'Legacy Parameter Handling', docLink: `${DOC}param-cgi` },
];

const ALL_PROPERTIES = [
  'Architecture',
  'Brand',
  'BuildDate',
  'HardwareID',
  'ProdFullName',
  'ProdNbr',
  'ProdShortName',
  'ProdType',
  'ProdVariant',
  'SerialNumber',
  'Soc',
  'SocSerialNumber',
  'Version',
  'WebURL',
];

const UNRESTRICTED = ALL_PROPERTIES.filter((p) => !['Architecture', 'Soc', 'SocSerialNumber'].includes(p));

describe('apidiscovery.cgi', () => {
  it('lists every API the device serves with its version and a doc link, without credentials by default', async () => {
    const d = await device();
    const { status, json } = await post(d, 'apidiscovery.cgi', {
      apiVersion: '1.0',
      context: 'disc',
      method: 'getApiList',
    });
    expect(status).toBe(200);
    expect(json).toEqual({ apiVersion: '1.0', context: 'disc', method: 'getApiList', data: { apiList: API_LIST } });
  });

  it('filters by id and by version', async () => {
    const d = await device();
    const list = async (params: unknown): Promise<Answer> =>
      (await post(d, 'apidiscovery.cgi', { apiVersion: '1.0', context: 'x', method: 'getApiList', params })).json;
    expect((await list({ id: 'event-streaming-over-websocket' })).data?.apiList).toEqual([API_LIST[2]]);
    expect((await list({ version: '1.3' })).data?.apiList?.map((a) => a.id)).toEqual(['basic-device-info']);
    expect((await list({ id: 'param-cgi', version: '1.0' })).data?.apiList).toEqual([API_LIST[4]]);
    expect((await list({ id: 'param-cgi', version: '1.3' })).data?.apiList).toEqual([]);
    expect((await list({ id: 'no-such-api' })).data?.apiList).toEqual([]);
    expect(await list({ id: 7 })).toMatchObject({ context: 'x', method: 'getApiList', error: { code: 2104 } });
  });

  it('answers getSupportedVersions and the envelope errors like the other CGIs', async () => {
    const d = await device();
    expect((await post(d, 'apidiscovery.cgi', { method: 'getSupportedVersions' })).json.data).toEqual({
      apiVersions: ['1.0'],
    });
    expect(
      (await post(d, 'apidiscovery.cgi', { apiVersion: '2.0', context: 'v', method: 'getApiList' })).json,
    ).toMatchObject({ context: 'v', error: { code: 2100 } });
    expect((await post(d, 'apidiscovery.cgi', '{nope')).json.error?.code).toBe(2101);
    expect((await post(d, 'apidiscovery.cgi', { apiVersion: '1.0', method: 'listAll' })).json.error?.code).toBe(2102);
    expect((await post(d, 'apidiscovery.cgi', { apiVersion: '1.0' })).json.error?.code).toBe(2103);
    expect((await post(d, 'apidiscovery.cgi', { apiVersion: '1', method: 'getApiList' })).json.apiVersion).toBe('1.0');
    const get = await sendRequest(d.url, { path: '/svc-cgi/apidiscovery.cgi' });
    expect(get.status).toBe(405);
  });

  it('asks for credentials when discoveryAuth is required', async () => {
    const d = await device({ discoveryAuth: 'required' });
    const anonymous = await post(d, 'apidiscovery.cgi', { apiVersion: '1.0', method: 'getApiList' });
    expect(anonymous.status).toBe(401);
    const withDigest = await post(d, 'apidiscovery.cgi', { apiVersion: '1.0', method: 'getApiList' }, true);
    expect(withDigest.status).toBe(200);
    expect(withDigest.json.data?.apiList).toEqual(API_LIST);
  });
});

describe('basicdeviceinfo.cgi', () => {
  it('needs credentials for getAllProperties and reports every property of the identity', async () => {
    const d = await device({ serial: 'B8A44F000042' });
    const anonymous = await post(d, 'basicdeviceinfo.cgi', { apiVersion: '1.1', method: 'getAllProperties' });
    expect(anonymous.status).toBe(401);
    const { json } = await post(
      d,
      'basicdeviceinfo.cgi',
      { apiVersion: '1.1', context: 'i', method: 'getAllProperties' },
      true,
    );
    expect(json).toMatchObject({ apiVersion: '1.1', context: 'i', method: 'getAllProperties' });
    expect(Object.keys(json.data?.propertyList ?? {}).sort()).toEqual(ALL_PROPERTIES);
    expect(json.data?.propertyList?.SerialNumber).toBe('B8A44F000042');
    expect(json.data?.propertyList?.SocSerialNumber).toBe(socSerialNumber('B8A44F000042'));
    expect(json.data?.propertyList?.SocSerialNumber).toMatch(/^[0-9A-F]{8}(-[0-9A-F]{8}){3}$/);
  });

  it('answers the 401 the other CGIs answer, after reading the body', async () => {
    const d = await device();
    const info = await post(d, 'basicdeviceinfo.cgi', { apiVersion: '1.3', method: 'getAllProperties' });
    const flags = await post(d, 'featureflag.cgi', { apiVersion: '1.0', method: 'listAll' });
    expect(info.status).toBe(401);
    expect(info.answer.body).toBe(flags.answer.body.replace('featureflag.cgi', 'basicdeviceinfo.cgi'));
    expect(Object.keys(info.answer.headers).sort()).toEqual(Object.keys(flags.answer.headers).sort());
    expect(info.answer.headers['content-type']).toBe(flags.answer.headers['content-type']);
    const challenges = (answer: HttpResult): string[] =>
      answer.headersDistinct['www-authenticate'].map((c) => c.replace(/nonce="[^"]*"/, 'nonce=N'));
    expect(challenges(info.answer)).toEqual(challenges(flags.answer));
    expect(challenges(info.answer)[0]).toMatch(/^Digest realm="SVC_ACCC8E000001", nonce=N/);
  });

  it('echoes every apiVersion from 1.0 to 1.3 and lists them in getSupportedVersions', async () => {
    const d = await device();
    for (const apiVersion of ['1.0', '1.1', '1.2', '1.3']) {
      const { json } = await post(d, 'basicdeviceinfo.cgi', { apiVersion, method: 'getAllProperties' }, true);
      expect([json.apiVersion, json.method, json.error]).toEqual([apiVersion, 'getAllProperties', undefined]);
    }
    expect(
      (await post(d, 'basicdeviceinfo.cgi', { apiVersion: '1', method: 'getAllProperties' }, true)).json,
    ).toMatchObject({ apiVersion: '1.0', data: {} });
    for (const apiVersion of ['1.4', '2.0']) {
      const { json } = await post(d, 'basicdeviceinfo.cgi', { apiVersion, method: 'getAllProperties' }, true);
      expect(json).toMatchObject({ apiVersion, error: { code: 2100 } });
    }
    expect((await post(d, 'basicdeviceinfo.cgi', { method: 'getSupportedVersions' }, true)).json.data).toEqual({
      apiVersions: ['1.0', '1.1', '1.2', '1.3'],
    });
  });

  it('answers getAllUnrestrictedProperties without credentials, in the version asked for', async () => {
    const d = await device({ serial: 'ACCC8E00ABCD', identity: { Brand: 'AXIS' } });
    for (const apiVersion of ['1.0', '1.3']) {
      const { status, json } = await post(d, 'basicdeviceinfo.cgi', {
        apiVersion,
        context: 'anon',
        method: 'getAllUnrestrictedProperties',
      });
      expect(status).toBe(200);
      expect(json).toMatchObject({ apiVersion, context: 'anon', method: 'getAllUnrestrictedProperties' });
      expect(Object.keys(json.data?.propertyList ?? {}).sort()).toEqual(UNRESTRICTED);
      expect(json.data?.propertyList).toMatchObject({ Brand: 'AXIS', SerialNumber: 'ACCC8E00ABCD' });
    }
    // Credentials are not looked at for it: a wrong password is no reason to refuse public data.
    const wrong = await sendRequest(d.url, {
      method: 'POST',
      path: '/svc-cgi/basicdeviceinfo.cgi',
      headers: { Authorization: basicAuthorization('root', 'wrong') },
      body: JSON.stringify({ apiVersion: '1.3', method: 'getAllUnrestrictedProperties' }),
    });
    expect(wrong.status).toBe(200);
  });

  it('asks for credentials for everything else, envelope errors included', async () => {
    const d = await device();
    const anonymous = async (body: unknown): Promise<number> => (await post(d, 'basicdeviceinfo.cgi', body)).status;
    expect(await anonymous({ method: 'getSupportedVersions' })).toBe(401);
    expect(await anonymous({ apiVersion: '1.3', method: 'getProperties', params: { propertyList: ['Brand'] } })).toBe(
      401,
    );
    expect(await anonymous({ apiVersion: '1.3', method: 'nope' })).toBe(401);
    expect(await anonymous('{nope')).toBe(401);
    // An envelope error of the anonymous method is answered as the method would be.
    const badVersion = await post(d, 'basicdeviceinfo.cgi', {
      apiVersion: '9.0',
      method: 'getAllUnrestrictedProperties',
    });
    expect(badVersion.json).toMatchObject({
      apiVersion: '9.0',
      method: 'getAllUnrestrictedProperties',
      error: { code: 2100 },
    });
    const wrongPassword = await post(
      d,
      'basicdeviceinfo.cgi',
      { apiVersion: '1.3', method: 'getAllProperties' },
      { password: 'wrong' },
    );
    expect(wrongPassword.status).toBe(401);
  });

  it('closes getAllUnrestrictedProperties too when discoveryAuth is required', async () => {
    const d = await device({ discoveryAuth: 'required' });
    const body = { apiVersion: '1.3', method: 'getAllUnrestrictedProperties' };
    expect((await post(d, 'basicdeviceinfo.cgi', body)).status).toBe(401);
    const withDigest = await post(d, 'basicdeviceinfo.cgi', body, true);
    expect(Object.keys(withDigest.json.data?.propertyList ?? {}).sort()).toEqual(UNRESTRICTED);
  });

  it('asks a too large request for credentials first, then answers 2107', async () => {
    const d = await device({ maxBodyBytes: 1024 });
    const big = JSON.stringify({ apiVersion: '1.3', method: 'getAllUnrestrictedProperties', pad: 'x'.repeat(2000) });
    const answer = await digestRequest(d.url, { method: 'POST', path: '/svc-cgi/basicdeviceinfo.cgi', body: big });
    expect(answer.challenge.headers.connection).toBe('close');
    expect(answer.headers.connection).toBe('close');
    expect((JSON.parse(answer.body) as Answer).error?.code).toBe(2107);
  });

  it('answers getProperties for the names asked, and 2103/2104 for bad lists', async () => {
    const d = await device({ identity: { ProdNbr: 'W200', Version: '12.1.5' } });
    const { json } = await post(
      d,
      'basicdeviceinfo.cgi',
      {
        apiVersion: '1.3',
        method: 'getProperties',
        params: { propertyList: ['ProdNbr', 'Version', 'ProdShortName', 'SocSerialNumber'] },
      },
      true,
    );
    expect(json.data?.propertyList).toEqual({
      ProdNbr: 'W200',
      Version: '12.1.5',
      ProdShortName: 'BWC-Emu W200',
      SocSerialNumber: socSerialNumber('ACCC8E000001'),
    });
    expect(
      (await post(d, 'basicdeviceinfo.cgi', { apiVersion: '1.0', method: 'getProperties' }, true)).json.error?.code,
    ).toBe(2103);
    const unknown = await post(
      d,
      'basicdeviceinfo.cgi',
      { apiVersion: '1.0', method: 'getProperties', params: { propertyList: ['Nope'] } },
      true,
    );
    expect(unknown.json.error).toEqual({ code: 2104, message: 'Invalid parameter: unknown property: Nope' });
    const notAList = { apiVersion: '1.0', method: 'getProperties', params: { propertyList: 'ProdNbr' } };
    expect((await post(d, 'basicdeviceinfo.cgi', notAList, true)).json.error?.code).toBe(2104);
  });

  it('gives each device its own identity', async () => {
    const [a, b] = await Promise.all([
      device({ serial: 'AAAA00000001' }),
      device({ serial: 'AAAA00000002', identity: { ProdNbr: 'W300' } }),
    ]);
    const all = { apiVersion: '1.1', method: 'getAllProperties' };
    const ia = (await post(a, 'basicdeviceinfo.cgi', all, true)).json.data?.propertyList;
    const ib = (await post(b, 'basicdeviceinfo.cgi', all, true)).json.data?.propertyList;
    expect([ia?.SerialNumber, ia?.ProdNbr]).toEqual(['AAAA00000001', 'W110']);
    expect([ib?.SerialNumber, ib?.ProdNbr, ib?.ProdFullName]).toEqual([
      'AAAA00000002',
      'W300',
      'BWC-Emu W300 Body Worn Camera',
    ]);
    expect(ia?.SocSerialNumber).not.toBe(ib?.SocSerialNumber);
  });

  it('refuses an identity option that is not a field', async () => {
    await expect(startDevice({ port: 0, identity: { Colour: 'red' } as never })).rejects.toMatchObject({
      code: 'BAD_OPTION',
      message: expect.stringContaining('identity.Colour') as string,
    });
  });
});

describe('prefixes', () => {
  it('moves every endpoint with cgiPrefix and wsPrefix, so real-device clients only change host and port', async () => {
    const d = await device({ cgiPrefix: '/axis-cgi', wsPrefix: '/vapix' });
    expect(d.realm).toBe('AXIS_ACCC8E000001');
    for (const cgi of ['apidiscovery.cgi', 'basicdeviceinfo.cgi', 'featureflag.cgi', 'param.cgi']) {
      expect((await sendRequest(d.url, { method: 'POST', path: `/svc-cgi/${cgi}`, body: '{}' })).status).toBe(404);
    }
    const list = { apiVersion: '1.0', method: 'getApiList' };
    expect((await post(d, 'apidiscovery.cgi', list)).json.data?.apiList).toEqual(API_LIST);
    const unrestricted = { apiVersion: '1.3', method: 'getAllUnrestrictedProperties' };
    expect((await post(d, 'basicdeviceinfo.cgi', unrestricted)).json.data?.propertyList?.SerialNumber).toBe(
      'ACCC8E000001',
    );
    expect((await digestRequest(d.url, { path: '/axis-cgi/param.cgi?action=list&group=Brand' })).status).toBe(200);
    expect((await digestRequest(d.url, { path: '/axis-cgi/wssession.cgi' })).status).toBe(200);
  });
});
