import fc from 'fast-check';
import {
  isPlainObject,
  isVersionSupported,
  latestVersion,
  normaliseVersion,
  parseRpcRequest,
  type RpcApiSpec,
  RpcErrorCode,
  RpcFault,
  rpcFailure,
  type RpcRequest,
  type RpcResponse,
  rpcSuccess,
} from '../../../src/protocol/rpc';
import { propertyRuns } from '../../helpers/fast-check-config';

const SPEC: RpcApiSpec = {
  id: 'feature-flag',
  name: 'Feature Flag Service',
  versions: ['1.0'],
  methods: ['listAll', 'set', 'getSupportedVersions'],
  versionlessMethods: ['getSupportedVersions'],
};

/** An API with two versions, to tell "newest" from "first" and to test minors. */
const SPEC_TWO_VERSIONS: RpcApiSpec = {
  id: 'two',
  name: 'Two Versions',
  versions: ['1.0', '1.2'],
  methods: ['listAll'],
};

function ok(body: unknown, spec: RpcApiSpec = SPEC): RpcRequest {
  const result = parseRpcRequest(typeof body === 'string' ? body : JSON.stringify(body), spec);
  if (!result.ok)
    throw new Error(`expected ${JSON.stringify(body)} to be accepted: ${JSON.stringify(result.error.response)}`);
  return result.value;
}

function failure(body: unknown, spec: RpcApiSpec = SPEC): RpcResponse {
  const result = parseRpcRequest(typeof body === 'string' ? body : JSON.stringify(body), spec);
  if (result.ok) throw new Error(`expected ${JSON.stringify(body)} to be refused`);
  return result.error.response;
}

describe('parseRpcRequest: accepted requests', () => {
  it('accepts a listAll request and keeps context and method', () => {
    expect(ok({ apiVersion: '1.0', context: 'abc', method: 'listAll' })).toEqual({
      apiVersion: '1.0',
      context: 'abc',
      method: 'listAll',
      params: {},
    });
  });

  it('passes params through', () => {
    expect(ok({ apiVersion: '1.0', method: 'set', params: { flagValues: { a: true } } }).params).toEqual({
      flagValues: { a: true },
    });
  });

  it('accepts "1" as "1.0" (one real client sends a bare major)', () => {
    expect(ok({ apiVersion: '1', method: 'listAll' }).apiVersion).toBe('1.0');
  });

  it('normalises leading zeros in the version', () => {
    expect(ok({ apiVersion: '01.00', method: 'listAll' }).apiVersion).toBe('1.0');
  });

  it('accepts an older minor of a served major', () => {
    expect(ok({ apiVersion: '1.1', method: 'listAll' }, SPEC_TWO_VERSIONS).apiVersion).toBe('1.1');
    expect(ok({ apiVersion: '1.0', method: 'listAll' }, SPEC_TWO_VERSIONS).apiVersion).toBe('1.0');
  });

  it('accepts getSupportedVersions without apiVersion and answers with the newest version', () => {
    expect(ok({ method: 'getSupportedVersions' })).toEqual({
      apiVersion: '1.0',
      context: undefined,
      method: 'getSupportedVersions',
      params: {},
    });
    expect(ok({ context: 'c', method: 'getSupportedVersions' }).context).toBe('c');
  });

  it('still checks apiVersion when a versionless method is sent with one', () => {
    expect(failure({ apiVersion: '9.0', method: 'getSupportedVersions' }).error?.code).toBe(2100);
    expect(ok({ apiVersion: '1.0', method: 'getSupportedVersions' }).apiVersion).toBe('1.0');
  });

  it('ignores unknown top-level members', () => {
    expect(ok({ apiVersion: '1.0', method: 'listAll', id: 7, extra: [1] }).method).toBe('listAll');
  });

  it('accepts a Buffer body with UTF-8 text', () => {
    const result = parseRpcRequest(
      Buffer.from(JSON.stringify({ apiVersion: '1.0', context: 'ü', method: 'listAll' }), 'utf8'),
      SPEC,
    );
    expect(result.ok && result.value.context).toBe('ü');
  });

  it('accepts JSON with surrounding whitespace', () => {
    expect(ok('  \n{"apiVersion":"1.0","method":"listAll"}\n ').method).toBe('listAll');
  });
});

describe('parseRpcRequest: 2100 API version not supported', () => {
  it('refuses an unsupported major and echoes the version as sent', () => {
    expect(failure({ apiVersion: '2.0', context: 'c', method: 'listAll' })).toEqual({
      apiVersion: '2.0',
      context: 'c',
      method: 'listAll',
      error: { code: 2100, message: 'API version not supported: 2.0 (supported: 1.0)' },
    });
  });

  it('hands back the params of a refused request (a journal keeps what was asked), none when they are no object', () => {
    const refused = (body: unknown) => {
      const result = parseRpcRequest(JSON.stringify(body), SPEC);
      if (result.ok) throw new Error('expected a refusal');
      return result.error.params;
    };
    expect(refused({ apiVersion: '9.9', method: 'listAll', params: { names: ['a'] } })).toEqual({ names: ['a'] });
    expect(refused({ apiVersion: '1.0', method: 'nope', params: { x: 1 } })).toEqual({ x: 1 });
    expect(refused({ apiVersion: '1.0', method: 'listAll', params: [1] })).toBeUndefined();
    expect(refused({ apiVersion: '9.9', method: 'listAll' })).toBeUndefined();
  });

  it('refuses a bare unsupported major', () => {
    expect(failure({ apiVersion: '2', method: 'listAll' }).error?.code).toBe(2100);
  });

  it('refuses a minor newer than any served', () => {
    expect(failure({ apiVersion: '1.1', method: 'listAll' }).error?.code).toBe(2100);
    expect(failure({ apiVersion: '1.3', method: 'listAll' }, SPEC_TWO_VERSIONS).error).toEqual({
      code: 2100,
      message: 'API version not supported: 1.3 (supported: 1.0, 1.2)',
    });
  });

  it('refuses major 0', () => {
    expect(failure({ apiVersion: '0.9', method: 'listAll' }).error?.code).toBe(2100);
  });
});

describe('parseRpcRequest: 2101 invalid JSON', () => {
  it.each(['', '{', '{"apiVersion":"1.0",}', "{'a':1}", 'undefined', '{"a":1}x', '\u0000'])('refuses %j', (body) => {
    const response = failure(body);
    expect(response.apiVersion).toBe('1.0');
    expect(response.error?.code).toBe(2101);
    expect(response.error?.message).toMatch(/^Invalid JSON/);
    expect(response.context).toBeUndefined();
    expect(response.method).toBeUndefined();
  });

  it.each(['{"password": hunter2secret}', 'hunter2secret', '{"a":1} hunter2secret'])(
    'does not quote the text around the error (%j), which may hold a secret',
    (body) => {
      const message = failure(body).error?.message ?? '';
      expect(message).toMatch(/^Invalid JSON: \S/);
      expect(message).not.toContain('hunter2');
    },
  );

  it.each([['[]'], ['[{"method":"listAll"}]'], ['null'], ['1'], ['"listAll"'], ['true']])(
    'refuses the non-object %s',
    (body) => {
      expect(failure(body)).toEqual({
        apiVersion: '1.0',
        error: { code: 2101, message: 'Invalid JSON: the request must be a JSON object' },
      });
    },
  );

  it('falls back to the newest served version', () => {
    expect(failure('nope', SPEC_TWO_VERSIONS).apiVersion).toBe('1.2');
  });

  it('refuses invalid UTF-8 that does not decode to JSON', () => {
    expect(parseRpcRequest(Buffer.from([0xff, 0xfe, 0x7b]), SPEC)).toMatchObject({
      ok: false,
      error: { response: { error: { code: 2101 } } },
    });
  });
});

describe('parseRpcRequest: 2102 method not supported', () => {
  it.each(['unknown', 'toString', '__proto__', 'constructor', 'LISTALL', ''])('refuses method %j', (method) => {
    expect(failure({ apiVersion: '1.0', context: 'c', method })).toEqual({
      apiVersion: '1.0',
      context: 'c',
      method,
      error: { code: 2102, message: `Method not supported: ${method}` },
    });
  });

  it('checks the method before the version', () => {
    expect(failure({ method: 'unknown' }).error?.code).toBe(2102);
  });
});

describe('parseRpcRequest: 2103 required parameter missing', () => {
  it('refuses a request without method', () => {
    expect(failure({ apiVersion: '1.0', context: 'c' })).toEqual({
      apiVersion: '1.0',
      context: 'c',
      error: { code: 2103, message: 'Required parameter missing: method' },
    });
  });

  it('refuses a request without apiVersion (for a method that needs one)', () => {
    expect(failure({ context: 'c', method: 'listAll' })).toEqual({
      apiVersion: '1.0',
      context: 'c',
      method: 'listAll',
      error: { code: 2103, message: 'Required parameter missing: apiVersion' },
    });
  });

  it('refuses an empty object', () => {
    expect(failure({}).error?.code).toBe(2103);
  });
});

describe('parseRpcRequest: 2104 invalid parameter value', () => {
  it.each([
    ['a number', 1],
    ['null', null],
    ['a list', ['listAll']],
    ['an object', { name: 'listAll' }],
  ])('refuses method as %s', (_what, method) => {
    expect(failure({ apiVersion: '1.0', context: 'c', method })).toEqual({
      apiVersion: '1.0',
      context: 'c',
      error: { code: 2104, message: 'Invalid parameter: method must be a string' },
    });
  });

  it.each([
    ['a number', 1],
    ['null', null],
    ['a list', ['1.0']],
  ])('refuses apiVersion as %s', (_what, apiVersion) => {
    expect(failure({ apiVersion, context: 'c', method: 'listAll' })).toEqual({
      apiVersion: '1.0',
      context: 'c',
      method: 'listAll',
      error: { code: 2104, message: 'Invalid parameter: apiVersion must be a string like "1.0"' },
    });
  });

  it.each(['1.0.0', 'v1', '1.', '.1', '', ' 1.0', '1.0 ', 'one', '12345.0'])(
    'refuses apiVersion %j that is not <major>.<minor>',
    (apiVersion) => {
      expect(failure({ apiVersion, context: 'c', method: 'listAll' })).toEqual({
        apiVersion,
        context: 'c',
        method: 'listAll',
        error: { code: 2104, message: `Invalid parameter: apiVersion "${apiVersion}" is not <major>.<minor>` },
      });
    },
  );

  it.each([
    ['a list', []],
    ['null', null],
    ['a string', 'x'],
    ['a number', 3],
  ])('refuses params as %s', (_what, params) => {
    expect(failure({ apiVersion: '1.0', context: 'c', method: 'set', params })).toEqual({
      apiVersion: '1.0',
      context: 'c',
      method: 'set',
      error: { code: 2104, message: 'Invalid parameter: params must be an object' },
    });
  });

  it('refuses a context that is not a string (and so cannot echo it)', () => {
    expect(failure({ apiVersion: '1.0', context: 5, method: 'listAll' })).toEqual({
      apiVersion: '1.0',
      method: 'listAll',
      error: { code: 2104, message: 'Invalid parameter: context must be a string' },
    });
  });
});

describe('parseRpcRequest: context is echoed in every answer that has one', () => {
  const cases: Array<[string, Record<string, unknown>]> = [
    ['2100', { apiVersion: '3.0', method: 'listAll' }],
    ['2102', { apiVersion: '1.0', method: 'nope' }],
    ['2103 method', { apiVersion: '1.0' }],
    ['2103 apiVersion', { method: 'listAll' }],
    ['2104 method', { apiVersion: '1.0', method: 7 }],
    ['2104 apiVersion', { apiVersion: 1, method: 'listAll' }],
    ['2104 params', { apiVersion: '1.0', method: 'listAll', params: [] }],
  ];
  it.each(cases)('%s', (_code, body) => {
    expect(failure({ ...body, context: 'my context' }).context).toBe('my context');
  });

  it('an empty context is echoed too', () => {
    expect(failure({ context: '', method: 'nope' }).context).toBe('');
  });
});

describe('rpcSuccess and rpcFailure', () => {
  const request: RpcRequest = { apiVersion: '1.0', context: 'c', method: 'listAll', params: {} };

  it('rpcSuccess echoes version, context and method, in the field order of real devices', () => {
    const response = rpcSuccess(request, { flags: [] });
    expect(response).toEqual({ apiVersion: '1.0', context: 'c', method: 'listAll', data: { flags: [] } });
    expect(JSON.stringify(response)).toBe('{"apiVersion":"1.0","context":"c","method":"listAll","data":{"flags":[]}}');
  });

  it('rpcFailure carries error.code and error.message instead of data', () => {
    const response = rpcFailure(request, 2200, 'Flag(s) does not exist: x');
    expect(JSON.stringify(response)).toBe(
      '{"apiVersion":"1.0","context":"c","method":"listAll","error":{"code":2200,"message":"Flag(s) does not exist: x"}}',
    );
  });

  it('leaves context out when the request had none', () => {
    expect(Object.keys(rpcSuccess({ ...request, context: undefined }, {}))).toEqual(['apiVersion', 'method', 'data']);
    expect(Object.keys(rpcFailure({ apiVersion: '1.0', method: 'x' }, 1100, 'Internal error'))).toEqual([
      'apiVersion',
      'method',
      'error',
    ]);
  });

  it('RpcFault carries a code', () => {
    const fault = new RpcFault(2104, 'bad');
    expect(fault).toBeInstanceOf(Error);
    expect(fault.code).toBe(2104);
    expect(fault.name).toBe('RpcFault');
  });

  it('RpcErrorCode holds the codes of the spec', () => {
    expect(RpcErrorCode).toEqual({
      INTERNAL_ERROR: 1100,
      VERSION_NOT_SUPPORTED: 2100,
      INVALID_JSON: 2101,
      METHOD_NOT_SUPPORTED: 2102,
      PARAMETER_MISSING: 2103,
      INVALID_PARAMETER: 2104,
      AUTHORIZATION_FAILED: 2105,
      AUTHENTICATION_FAILED: 2106,
      REQUEST_TOO_LARGE: 2107,
      FLAG_NOT_FOUND: 2200,
    });
  });
});

describe('version helpers', () => {
  it.each([
    ['1', '1.0'],
    ['1.0', '1.0'],
    ['2.15', '2.15'],
    ['007.010', '7.10'],
    ['1.0.0', undefined],
    ['1.a', undefined],
    ['-1.0', undefined],
    ['12345', undefined],
  ])('normaliseVersion(%j) is %j', (input, expected) => {
    expect(normaliseVersion(input)).toBe(expected);
  });

  it('isVersionSupported: same major with an equal or older minor', () => {
    expect(isVersionSupported('1.0', ['1.2'])).toBe(true);
    expect(isVersionSupported('1.2', ['1.2'])).toBe(true);
    expect(isVersionSupported('1.3', ['1.2'])).toBe(false);
    expect(isVersionSupported('2.0', ['1.2'])).toBe(false);
    expect(isVersionSupported('2.0', ['1.2', '2.0'])).toBe(true);
    expect(isVersionSupported('1.0', [])).toBe(false);
  });

  it('latestVersion is the last listed, 1.0 when none', () => {
    expect(latestVersion(SPEC_TWO_VERSIONS)).toBe('1.2');
    expect(latestVersion({ id: 'none', name: 'None', versions: [], methods: [] })).toBe('1.0');
  });

  it('isPlainObject is true for {} only', () => {
    expect(isPlainObject({})).toBe(true);
    expect(isPlainObject([])).toBe(false);
    expect(isPlainObject(null)).toBe(false);
    expect(isPlainObject('x')).toBe(false);
  });
});

describe('parseRpcRequest: totality (property)', () => {
  const inSpecRanges = (code: number): boolean => (code >= 1100 && code <= 1999) || (code >= 2100 && code <= 2999);

  /** Every answer is a request to dispatch, or a well-formed error response. */
  function checkAnswer(body: string | Buffer, sentContext: unknown): void {
    const result = parseRpcRequest(body, SPEC);
    if (result.ok) {
      expect(SPEC.methods).toContain(result.value.method);
      expect(result.value.apiVersion).toMatch(/^\d+\.\d+$/);
      expect(isPlainObject(result.value.params)).toBe(true);
      if (typeof sentContext === 'string') expect(result.value.context).toBe(sentContext);
      return;
    }
    const { response } = result.error;
    expect(typeof response.apiVersion).toBe('string');
    expect(response.data).toBeUndefined();
    expect(Number.isInteger(response.error?.code)).toBe(true);
    expect(inSpecRanges(response.error?.code as number)).toBe(true);
    expect(typeof response.error?.message).toBe('string');
    if (typeof sentContext === 'string') expect(response.context).toBe(sentContext);
    else expect(response.context).toBeUndefined();
  }

  it('any string gives ok or an error response with a code in the spec ranges', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.json()), (body) => {
        let parsed: unknown;
        try {
          parsed = JSON.parse(body);
        } catch {
          parsed = undefined;
        }
        checkAnswer(body, isPlainObject(parsed) ? parsed.context : undefined);
      }),
      propertyRuns(1000),
    );
  });

  it('any bytes give ok or an error response', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        const result = parseRpcRequest(Buffer.from(bytes), SPEC);
        expect(result.ok || inSpecRanges(result.error.response.error?.code as number)).toBe(true);
      }),
      propertyRuns(500),
    );
  });

  it('any JSON value gives ok or an error response', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) =>
        checkAnswer(JSON.stringify(value), isPlainObject(value) ? value.context : undefined),
      ),
      propertyRuns(1000),
    );
  });

  it('requests close to valid ones give ok or an error response, with the context echoed', () => {
    const almost = fc.record(
      {
        apiVersion: fc.oneof(
          fc.constantFrom('1.0', '1', '1.1', '2.0', '0.0', '1.0.0', ''),
          fc.string(),
          fc.jsonValue(),
        ),
        context: fc.oneof(fc.string(), fc.jsonValue()),
        method: fc.oneof(fc.constantFrom(...SPEC.methods, 'unknown', '__proto__'), fc.string(), fc.jsonValue()),
        params: fc.oneof(fc.dictionary(fc.string(), fc.jsonValue()), fc.jsonValue()),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(almost, (value) => checkAnswer(JSON.stringify(value), value.context)),
      propertyRuns(1000),
    );
  });
});
