/** `featureflag.cgi`: list, read and set the device's beta feature flags (spec part B). */
import type { RequestHandler } from 'express';
import { isPlainObject, RpcErrorCode, RpcFault, type RpcApiSpec } from '../protocol/rpc';
import type { UnknownFlags } from './feature-flags';
import { servedVersions } from './persona-file';
import { nameListParam, rpcEndpoint } from './rpc-endpoint';

/** Versions and methods of the feature flag API. */
export const FEATURE_FLAG_API: RpcApiSpec = {
  id: 'feature-flag',
  name: 'Feature Flag Service',
  versions: ['1.0'],
  methods: ['listAll', 'get', 'set', 'getSupportedVersions'],
  versionlessMethods: ['getSupportedVersions'],
};

/** The handler for `POST {cgi-prefix}/featureflag.cgi`; admin role required. */
export const featureFlagCgi: RequestHandler = rpcEndpoint({
  name: 'featureflag.cgi',
  spec: FEATURE_FLAG_API,
  requiredRole: 'admin',
  openMethods: ['getSupportedVersions'],
  handlers: {
    listAll: (_request, { device }) => ({ flags: device.flags.list() }),
    get: (request, { device }) => {
      const names = nameListParam(request.params, 'names', 'flag names');
      const result = device.flags.get(names);
      if (!result.ok) throw notFound(result.error);
      return { flagValues: result.value };
    },
    set: async (request, { device }) => {
      const values = request.params.flagValues;
      if (values === undefined)
        throw new RpcFault(RpcErrorCode.PARAMETER_MISSING, 'Required parameter missing: params.flagValues');
      if (!isPlainObject(values) || Object.keys(values).length === 0) {
        throw new RpcFault(
          RpcErrorCode.INVALID_PARAMETER,
          'Invalid parameter: params.flagValues must be a non-empty object of flag name to boolean',
        );
      }
      const notBoolean = Object.entries(values)
        .filter(([, v]) => typeof v !== 'boolean')
        .map(([k]) => k);
      if (notBoolean.length > 0) {
        throw new RpcFault(
          RpcErrorCode.INVALID_PARAMETER,
          `Invalid parameter: flag value must be true or false: ${notBoolean.join(', ')}`,
        );
      }
      const result = await device.flags.set(values as Record<string, boolean>);
      if (!result.ok) throw notFound(result.error);
      device.log.info(
        { flags: Object.entries(values).map(([flag, on]) => `${flag}=${String(on)}`) },
        'feature flags set',
      );
      return { result: 'Success' };
    },
    getSupportedVersions: (_request, { device }) => ({
      apiVersions: servedVersions(FEATURE_FLAG_API, device.options.clone),
    }),
  },
});

function notFound(error: UnknownFlags): RpcFault {
  return new RpcFault(RpcErrorCode.FLAG_NOT_FOUND, error.message);
}
