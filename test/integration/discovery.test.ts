/**
 * Discovery and identity: apidiscovery.cgi, basicdeviceinfo.cgi and param.cgi, as
 * real clients call them before they open the event stream.
 */
import { digestRequest } from '../helpers/digest-request';
import { sendRequest } from '../helpers/http';
import { type DeviceHandle, type DeviceOptions, type RpcResponse, startDevice } from '../../src';

const started: DeviceHandle[] = [];
async function device(options: DeviceOptions = {}): Promise<DeviceHandle> {
  const d = await startDevice({ port: 0, ...options });
  started.push(d);
  return d;
}
afterEach(async () => {
  await Promise.all(started.splice(0).map((d) => d.close()));
});

/** The `data` of these CGIs: the API list, the identity's properties or the supported versions. */
interface DiscoveryData {
  apiList?: { id: string; version: string; name: string }[];
  propertyList?: Record<string, string>;
  apiVersions?: string[];
}

/** An answer's JSON (`{}` unless the status is 200). */
type Answer = Partial<Omit<RpcResponse, 'data'>> & { data?: DiscoveryData };

async function post(
  d: DeviceHandle,
  cgi: string,
  body: unknown,
  auth = false,
): Promise<{ status: number; json: Answer }> {
  const request = {
    method: 'POST',
    path: `${d.options.cgiPrefix}/${cgi}`,
    headers: { 'Content-Type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  };
  const answer = auth ? await digestRequest(d.url, request) : await sendRequest(d.url, request);
  return { status: answer.status, json: answer.status === 200 ? (JSON.parse(answer.body) as Answer) : {} };
}

describe('apidiscovery.cgi', () => {
  it('lists exactly the APIs the device serves, without credentials by default', async () => {
    const d = await device();
    const { status, json } = await post(d, 'apidiscovery.cgi', {
      apiVersion: '1.0',
      context: 'disc',
      method: 'getApiList',
    });
    expect(status).toBe(200);
    expect(json).toEqual({
      apiVersion: '1.0',
      context: 'disc',
      method: 'getApiList',
      data: {
        apiList: [
          { id: 'event-streaming-over-websocket', version: '1.0', name: 'Event Streaming over WebSocket' },
          { id: 'feature-flag', version: '1.0', name: 'Feature Flag Service' },
          { id: 'api-discovery', version: '1.0', name: 'API Discovery Service' },
          { id: 'basic-device-info', version: '1.1', name: 'Basic Device Information' },
        ],
      },
    });
  });

  it('filters by id and by version', async () => {
    const d = await device();
    const byId = await post(d, 'apidiscovery.cgi', {
      apiVersion: '1.0',
      method: 'getApiList',
      params: { id: 'event-streaming-over-websocket' },
    });
    expect(byId.json.data?.apiList).toEqual([
      { id: 'event-streaming-over-websocket', version: '1.0', name: 'Event Streaming over WebSocket' },
    ]);
    const byVersion = await post(d, 'apidiscovery.cgi', {
      apiVersion: '1.0',
      method: 'getApiList',
      params: { version: '1.1' },
    });
    expect(byVersion.json.data?.apiList?.map((a) => a.id)).toEqual(['basic-device-info']);
    const none = await post(d, 'apidiscovery.cgi', {
      apiVersion: '1.0',
      method: 'getApiList',
      params: { id: 'no-such-api' },
    });
    expect(none.json.data?.apiList).toEqual([]);
    const bad = await post(d, 'apidiscovery.cgi', {
      apiVersion: '1.0',
      context: 'x',
      method: 'getApiList',
      params: { id: 7 },
    });
    expect(bad.json).toMatchObject({ context: 'x', method: 'getApiList', error: { code: 2104 } });
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
    expect(withDigest.json.data?.apiList).toHaveLength(4);
  });
});

describe('basicdeviceinfo.cgi', () => {
  it('needs credentials and reports every property of the identity', async () => {
    const d = await device({ serial: 'B8A44F000042' });
    expect((await post(d, 'basicdeviceinfo.cgi', { apiVersion: '1.1', method: 'getAllProperties' })).status).toBe(401);
    const { json } = await post(
      d,
      'basicdeviceinfo.cgi',
      { apiVersion: '1.1', context: 'i', method: 'getAllProperties' },
      true,
    );
    expect(json).toMatchObject({ apiVersion: '1.1', context: 'i', method: 'getAllProperties' });
    expect(Object.keys(json.data?.propertyList ?? {}).sort()).toEqual(
      [
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
        'Version',
        'WebURL',
      ].sort(),
    );
    expect(json.data?.propertyList?.SerialNumber).toBe('B8A44F000042');
  });

  it('answers getProperties for the names asked, and 2103/2104 for bad lists', async () => {
    const d = await device({ identity: { ProdNbr: 'W200', Version: '12.1.5' } });
    const { json } = await post(
      d,
      'basicdeviceinfo.cgi',
      { apiVersion: '1.0', method: 'getProperties', params: { propertyList: ['ProdNbr', 'Version', 'ProdShortName'] } },
      true,
    );
    expect(json.data?.propertyList).toEqual({ ProdNbr: 'W200', Version: '12.1.5', ProdShortName: 'BWC-Emu W200' });
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
    expect(
      (
        await post(
          d,
          'basicdeviceinfo.cgi',
          { apiVersion: '1.0', method: 'getProperties', params: { propertyList: 'ProdNbr' } },
          true,
        )
      ).json.error?.code,
    ).toBe(2104);
    expect((await post(d, 'basicdeviceinfo.cgi', { method: 'getSupportedVersions' }, true)).json.data).toEqual({
      apiVersions: ['1.0', '1.1'],
    });
  });

  it('gives each device its own identity', async () => {
    const [a, b] = await Promise.all([
      device({ serial: 'AAAA00000001' }),
      device({ serial: 'AAAA00000002', identity: { ProdNbr: 'W300' } }),
    ]);
    const ia = (await post(a, 'basicdeviceinfo.cgi', { apiVersion: '1.1', method: 'getAllProperties' }, true)).json.data
      ?.propertyList;
    const ib = (await post(b, 'basicdeviceinfo.cgi', { apiVersion: '1.1', method: 'getAllProperties' }, true)).json.data
      ?.propertyList;
    expect([ia?.SerialNumber, ia?.ProdNbr]).toEqual(['AAAA00000001', 'W110']);
    expect([ib?.SerialNumber, ib?.ProdNbr, ib?.ProdFullName]).toEqual([
      'AAAA00000002',
      'W300',
      'BWC-Emu W300 Body Worn Camera',
    ]);
  });

  it('refuses an identity option that is not a field', async () => {
    await expect(startDevice({ port: 0, identity: { Colour: 'red' } as never })).rejects.toMatchObject({
      code: 'BAD_OPTION',
      message: expect.stringContaining('identity.Colour') as string,
    });
  });
});

describe('param.cgi', () => {
  it('lists groups as root.Group.Key=value lines behind auth', async () => {
    const d = await device({ serial: 'ACCC8E00BEEF' });
    const anonymous = await sendRequest(d.url, { path: '/svc-cgi/param.cgi?action=list&group=Brand' });
    expect(anonymous.status).toBe(401);
    const brand = await digestRequest(d.url, { path: '/svc-cgi/param.cgi?action=list&group=Brand' });
    expect(brand.status).toBe(200);
    expect(brand.headers['content-type']).toMatch(/^text\/plain/);
    expect(brand.body.split('\n')).toEqual(
      expect.arrayContaining([
        'root.Brand.Brand=BWC-Emu',
        'root.Brand.ProdNbr=W110',
        'root.Brand.ProdType=Body Worn Camera',
      ]),
    );
    const props = await digestRequest(d.url, { path: '/svc-cgi/param.cgi?action=list&group=Properties' });
    expect(props.body).toContain('root.Properties.System.SerialNumber=ACCC8E00BEEF\n');
    const sub = await digestRequest(d.url, { path: '/svc-cgi/param.cgi?action=list&group=root.Properties.Firmware' });
    expect(sub.body).toBe(
      'root.Properties.Firmware.BuildDate=Nov 02 2026 09:14\nroot.Properties.Firmware.Version=11.11.73\n',
    );
  });

  it('answers an unknown group with the error text of a real device and HTTP 200', async () => {
    const d = await device();
    const answer = await digestRequest(d.url, { path: '/svc-cgi/param.cgi?action=list&group=Network' });
    expect(answer.status).toBe(200);
    expect(answer.body).toBe("# Error: Error -1 getting param in group 'Network'\n");
    const mixed = await digestRequest(d.url, { path: '/svc-cgi/param.cgi?action=list&group=Brand.ProdNbr,Nope' });
    expect(mixed.body).toBe("root.Brand.ProdNbr=W110\n# Error: Error -1 getting param in group 'Nope'\n");
    const noAction = await digestRequest(d.url, { path: '/svc-cgi/param.cgi?group=Brand' });
    expect(noAction.body).toBe('# Error: action must be list\n');
  });
});

describe('prefixes', () => {
  it('moves every endpoint with cgiPrefix and wsPrefix, so real-device clients only change host and port', async () => {
    const d = await device({ cgiPrefix: '/axis-cgi', wsPrefix: '/vapix' });
    expect(d.realm).toBe('AXIS_ACCC8E000001');
    for (const cgi of ['apidiscovery.cgi', 'basicdeviceinfo.cgi', 'featureflag.cgi']) {
      expect((await sendRequest(d.url, { method: 'POST', path: `/svc-cgi/${cgi}`, body: '{}' })).status).toBe(404);
    }
    expect(
      (await post(d, 'apidiscovery.cgi', { apiVersion: '1.0', method: 'getApiList' })).json.data?.apiList,
    ).toHaveLength(4);
    expect(
      (await post(d, 'basicdeviceinfo.cgi', { apiVersion: '1.1', method: 'getAllProperties' }, true)).json.data
        ?.propertyList?.SerialNumber,
    ).toBe('ACCC8E000001');
    expect((await digestRequest(d.url, { path: '/axis-cgi/param.cgi?action=list&group=Brand' })).status).toBe(200);
    expect((await digestRequest(d.url, { path: '/axis-cgi/wssession.cgi' })).status).toBe(200);
  });
});
