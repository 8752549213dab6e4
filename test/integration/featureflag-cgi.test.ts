/** featureflag.cgi over a real socket: methods, errors, HTTP-level rules, roles. */
import request from 'supertest';
import { basicAuthorization, sendRequest } from '../helpers/http';
import { callFeatureFlags, parseJson, type RpcResult } from '../helpers/rpc-client';
import { DEFAULT_FLAGS, type DeviceHandle, startDevice } from '../../src';

const PATH = '/svc-cgi/featureflag.cgi';
const ACCOUNTS = [
  { name: 'root', password: 'pass', role: 'admin' as const },
  { name: 'op', password: 'op-pass', role: 'operator' as const },
  { name: 'view', password: 'view-pass', role: 'viewer' as const },
];

let device: DeviceHandle;
beforeEach(async () => {
  // Basic asked for on plain HTTP: some tests send it.
  device = await startDevice({ port: 0, maxBodyBytes: 1024, accounts: ACCOUNTS, basicOverHttp: true });
});
afterEach(async () => {
  await device.close();
});

/** Asserts the HTTP envelope every JSON-RPC answer shares and returns the JSON. */
function expectJson200(answer: RpcResult): RpcResult['json'] {
  expect(answer.status).toBe(200);
  expect(answer.headers['content-type']).toMatch(/^application\/json\b/);
  return answer.json;
}

describe('listAll', () => {
  it('answers data.flags: [{name, value, description, defaultValue}] for every flag', async () => {
    const json = expectJson200(
      await callFeatureFlags(device, { apiVersion: '1.0', context: 'list-1', method: 'listAll' }),
    );
    expect(json).toEqual({
      apiVersion: '1.0',
      context: 'list-1',
      method: 'listAll',
      data: {
        flags: DEFAULT_FLAGS.map((f) => ({
          name: f.name,
          value: f.defaultValue,
          description: f.description,
          defaultValue: f.defaultValue,
        })),
      },
    });
    for (const flag of (json.data as { flags: Array<Record<string, unknown>> }).flags) {
      expect(Object.keys(flag).sort()).toEqual(['defaultValue', 'description', 'name', 'value']);
      expect(typeof flag.value).toBe('boolean');
      expect(typeof flag.defaultValue).toBe('boolean');
    }
  });

  it('keeps the field order apiVersion, context, method, data', async () => {
    const answer = await callFeatureFlags(device, { apiVersion: '1.0', context: 'c', method: 'listAll' });
    expect(answer.body).toMatch(/^\{"apiVersion":"1\.0","context":"c","method":"listAll","data":\{"flags":\[/);
  });

  it('accepts apiVersion "1" and answers "1.0"', async () => {
    const json = expectJson200(await callFeatureFlags(device, { apiVersion: '1', context: 'v1', method: 'listAll' }));
    expect(json.apiVersion).toBe('1.0');
    expect(json.context).toBe('v1');
    expect(json.data).toHaveProperty('flags');
  });

  it('answers without context when none was sent', async () => {
    const json = expectJson200(await callFeatureFlags(device, { apiVersion: '1.0', method: 'listAll' }));
    expect(json).not.toHaveProperty('context');
  });
});

describe('get', () => {
  it('answers data.flagValues for the named flags', async () => {
    const json = expectJson200(
      await callFeatureFlags(device, {
        apiVersion: '1.0',
        context: 'g',
        method: 'get',
        params: { names: ['graphics_udvd', 'bwc_gnss_track_upload'] },
      }),
    );
    expect(json).toEqual({
      apiVersion: '1.0',
      context: 'g',
      method: 'get',
      data: { flagValues: { graphics_udvd: false, bwc_gnss_track_upload: true } },
    });
  });

  it('an unknown name is 2200 "Flag(s) does not exist: NAME"', async () => {
    const json = expectJson200(
      await callFeatureFlags(device, {
        apiVersion: '1.0',
        context: 'g',
        method: 'get',
        params: { names: ['graphics_udvd', 'noSuchFlag'] },
      }),
    );
    expect(json).toEqual({
      apiVersion: '1.0',
      context: 'g',
      method: 'get',
      error: { code: 2200, message: 'Flag(s) does not exist: noSuchFlag' },
    });
  });

  it('missing names is 2103; an empty or non-string list is 2104', async () => {
    expect(expectJson200(await callFeatureFlags(device, { apiVersion: '1.0', method: 'get' })).error?.code).toBe(2103);
    expect(
      expectJson200(await callFeatureFlags(device, { apiVersion: '1.0', method: 'get', params: { names: [] } })).error
        ?.code,
    ).toBe(2104);
    expect(
      expectJson200(await callFeatureFlags(device, { apiVersion: '1.0', method: 'get', params: { names: [1] } })).error
        ?.code,
    ).toBe(2104);
    expect(
      expectJson200(
        await callFeatureFlags(device, { apiVersion: '1.0', method: 'get', params: { names: 'graphics_udvd' } }),
      ).error?.code,
    ).toBe(2104);
  });
});

describe('set', () => {
  it('answers data.result "Success", and listAll then shows the new values', async () => {
    const json = expectJson200(
      await callFeatureFlags(device, {
        apiVersion: '1.0',
        context: 's',
        method: 'set',
        params: { flagValues: { graphics_udvd: true, bwc_gnss_track_upload: false } },
      }),
    );
    expect(json).toEqual({ apiVersion: '1.0', context: 's', method: 'set', data: { result: 'Success' } });
    const list = expectJson200(await callFeatureFlags(device, { apiVersion: '1.0', method: 'listAll' }));
    const values = Object.fromEntries(
      (list.data as { flags: Array<{ name: string; value: boolean }> }).flags.map((f) => [f.name, f.value]),
    );
    expect(values.graphics_udvd).toBe(true);
    expect(values.bwc_gnss_track_upload).toBe(false);
    expect(values.restrictRootAccess).toBe(false);
    expect(device.flags().find((f) => f.name === 'graphics_udvd')?.value).toBe(true);
  });

  it('with one unknown name changes nothing and answers 2200 naming it', async () => {
    const before = device.flags();
    const json = expectJson200(
      await callFeatureFlags(device, {
        apiVersion: '1.0',
        context: 's',
        method: 'set',
        params: { flagValues: { graphics_udvd: true, bogusFlag: true } },
      }),
    );
    expect(json).toEqual({
      apiVersion: '1.0',
      context: 's',
      method: 'set',
      error: { code: 2200, message: 'Flag(s) does not exist: bogusFlag' },
    });
    expect(device.flags()).toEqual(before);
  });

  it('names every unknown flag', async () => {
    const json = expectJson200(
      await callFeatureFlags(device, {
        apiVersion: '1.0',
        method: 'set',
        params: { flagValues: { a1: true, graphics_udvd: true, b2: false } },
      }),
    );
    expect(json.error).toEqual({ code: 2200, message: 'Flag(s) does not exist: a1, b2' });
  });

  it('a value that is not a boolean is 2104 and changes nothing', async () => {
    const before = device.flags();
    const json = expectJson200(
      await callFeatureFlags(device, {
        apiVersion: '1.0',
        method: 'set',
        params: { flagValues: { graphics_udvd: 'true', restrictRootAccess: true } },
      }),
    );
    expect(json.error).toEqual({
      code: 2104,
      message: 'Invalid parameter: flag value must be true or false: graphics_udvd',
    });
    expect(device.flags()).toEqual(before);
  });

  it('missing flagValues is 2103; an empty or non-object one is 2104', async () => {
    expect(expectJson200(await callFeatureFlags(device, { apiVersion: '1.0', method: 'set' })).error?.code).toBe(2103);
    expect(
      expectJson200(await callFeatureFlags(device, { apiVersion: '1.0', method: 'set', params: { flagValues: {} } }))
        .error?.code,
    ).toBe(2104);
    expect(
      expectJson200(
        await callFeatureFlags(device, { apiVersion: '1.0', method: 'set', params: { flagValues: [true] } }),
      ).error?.code,
    ).toBe(2104);
  });

  it('device.setFlags does the same all-or-nothing update', async () => {
    await device.setFlags({ restrictRootAccess: true });
    expect(device.flags().find((f) => f.name === 'restrictRootAccess')?.value).toBe(true);
    await expect(device.setFlags({ restrictRootAccess: false, nope: true })).rejects.toMatchObject({
      code: 'BAD_OPTION',
      message: 'Flag(s) does not exist: nope',
    });
    expect(device.flags().find((f) => f.name === 'restrictRootAccess')?.value).toBe(true);
  });
});

describe('getSupportedVersions', () => {
  it('is answered without apiVersion', async () => {
    const json = expectJson200(await callFeatureFlags(device, { context: 'sv', method: 'getSupportedVersions' }));
    expect(json).toEqual({
      apiVersion: '1.0',
      context: 'sv',
      method: 'getSupportedVersions',
      data: { apiVersions: ['1.0'] },
    });
  });
});

describe('JSON-RPC errors are HTTP 200 application/json, context echoed', () => {
  it.each([
    ['2100 unsupported major', { apiVersion: '2.0', method: 'listAll' }, 2100],
    ['2100 too-new minor', { apiVersion: '1.1', method: 'listAll' }, 2100],
    ['2102 unknown method', { apiVersion: '1.0', method: 'deleteAll' }, 2102],
    ['2103 missing method', { apiVersion: '1.0' }, 2103],
    ['2103 missing apiVersion', { method: 'listAll' }, 2103],
    ['2104 method not a string', { apiVersion: '1.0', method: 42 }, 2104],
    ['2104 apiVersion not a string', { apiVersion: 1.0, method: 'listAll' }, 2104],
    ['2104 params not an object', { apiVersion: '1.0', method: 'listAll', params: [] }, 2104],
  ])('%s', async (_what, body, code) => {
    const json = expectJson200(await callFeatureFlags(device, { ...body, context: 'ctx-42' }));
    expect(json.error?.code).toBe(code);
    expect(typeof json.error?.message).toBe('string');
    expect(json.context).toBe('ctx-42');
    expect(json).not.toHaveProperty('data');
  });

  it.each([['not json at all'], ['{"apiVersion":"1.0","context":"c",'], [''], ['[1,2]']])(
    '2101 for the body %j',
    async (body) => {
      const json = expectJson200(await callFeatureFlags(device, body));
      expect(json).toMatchObject({ apiVersion: '1.0', error: { code: 2101 } });
    },
  );

  it('2107 for a body over maxBodyBytes (Content-Length)', async () => {
    const body = JSON.stringify({ apiVersion: '1.0', context: 'big', method: 'listAll', pad: 'x'.repeat(2000) });
    const answer = await callFeatureFlags(device, body);
    const json = expectJson200(answer);
    expect(json).toEqual({
      apiVersion: '1.0',
      error: { code: 2107, message: 'Request too large: the limit is 1024 bytes' },
    });
    expect(answer.headers.connection).toBe('close');
  });

  it('2107 for a chunked body that grows over maxBodyBytes', async () => {
    const body = JSON.stringify({ apiVersion: '1.0', method: 'listAll', pad: 'x'.repeat(2000) });
    const answer = await callFeatureFlags(device, body, { chunkSize: 256 });
    expect(expectJson200(answer).error?.code).toBe(2107);
  });

  it('a chunked body under maxBodyBytes is read', async () => {
    const answer = await callFeatureFlags(device, { apiVersion: '1.0', method: 'listAll' }, { chunkSize: 7 });
    expect(expectJson200(answer).data).toHaveProperty('flags');
  });

  it('a body of exactly maxBodyBytes is read', async () => {
    const base = JSON.stringify({ apiVersion: '1.0', method: 'listAll', pad: '' });
    const body = JSON.stringify({ apiVersion: '1.0', method: 'listAll', pad: 'x'.repeat(1024 - base.length) });
    expect(Buffer.byteLength(body)).toBe(1024);
    expect(expectJson200(await callFeatureFlags(device, body)).data).toHaveProperty('flags');
  });
});

describe('HTTP-level rules', () => {
  it('GET is 405 with Allow: POST, before authentication', async () => {
    const answer = await request(device.url).get(PATH);
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toBe('POST');
  });

  it.each(['PUT', 'DELETE', 'PATCH'])('%s is 405 with Allow: POST', async (method) => {
    const answer = await sendRequest(device.url, {
      method,
      path: PATH,
      headers: { Authorization: basicAuthorization('root', 'pass') },
    });
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toBe('POST');
  });

  it('a JSON body sent as text/plain is still parsed', async () => {
    const answer = await request(device.url)
      .post(PATH)
      .set('Authorization', basicAuthorization('root', 'pass'))
      .set('Content-Type', 'text/plain')
      .send(JSON.stringify({ apiVersion: '1.0', context: 'tp', method: 'listAll' }));
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(answer.text)).toMatchObject({ context: 'tp', data: { flags: expect.any(Array) as unknown[] } });
  });

  it('a JSON body without Content-Type is still parsed', async () => {
    const answer = await sendRequest(device.url, {
      method: 'POST',
      path: PATH,
      headers: { Authorization: basicAuthorization('root', 'pass') },
      body: JSON.stringify({ apiVersion: '1.0', method: 'listAll' }),
    });
    expect(parseJson(answer).data).toHaveProperty('flags');
  });

  it('a query string does not matter', async () => {
    const json = expectJson200(
      await callFeatureFlags(device, { apiVersion: '1.0', method: 'listAll' }, { path: `${PATH}?x=1` }),
    );
    expect(json.data).toHaveProperty('flags');
  });

  it('an unknown CGI is 404', async () => {
    const answer = await request(device.url).post('/svc-cgi/nothing.cgi');
    expect(answer.status).toBe(404);
  });
});

describe('roles', () => {
  it.each([
    ['view', 'view-pass', 'viewer'],
    ['op', 'op-pass', 'operator'],
  ])('%s (%s) gets 2105, not 401', async (username, password, role) => {
    const answer = await callFeatureFlags(
      device,
      { apiVersion: '1.0', context: 'r', method: 'listAll' },
      { username, password },
    );
    const json = expectJson200(answer);
    expect(json).toEqual({
      apiVersion: '1.0',
      context: 'r',
      method: 'listAll',
      error: { code: 2105, message: `Authorization failed: user "${username}" (${role}) needs the admin role` },
    });
  });

  it('a viewer cannot set flags', async () => {
    const before = device.flags();
    const json = expectJson200(
      await callFeatureFlags(
        device,
        { apiVersion: '1.0', method: 'set', params: { flagValues: { graphics_udvd: true } } },
        { username: 'view', password: 'view-pass' },
      ),
    );
    expect(json.error?.code).toBe(2105);
    expect(device.flags()).toEqual(before);
  });

  it('a viewer may ask getSupportedVersions', async () => {
    const json = expectJson200(
      await callFeatureFlags(device, { method: 'getSupportedVersions' }, { username: 'view', password: 'view-pass' }),
    );
    expect(json.data).toEqual({ apiVersions: ['1.0'] });
  });

  it('a viewer with Basic gets 2105 too', async () => {
    const answer = await sendRequest(device.url, {
      method: 'POST',
      path: PATH,
      headers: { Authorization: basicAuthorization('view', 'view-pass'), 'Content-Type': 'application/json' },
      body: JSON.stringify({ apiVersion: '1.0', method: 'listAll' }),
    });
    expect(answer.status).toBe(200);
    expect(parseJson(answer).error?.code).toBe(2105);
  });
});
