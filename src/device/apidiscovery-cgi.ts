/** `apidiscovery.cgi`: which APIs this device serves, the first call of many real clients. */
import type { RequestHandler } from 'express';
import { latestVersion, RpcErrorCode, RpcFault, type RpcApiSpec } from '../protocol/rpc';
import { rpcEndpoint } from './rpc-endpoint';

/** One entry of `getApiList`. */
export interface ApiListEntry {
  id: string;
  version: string;
  name: string;
}

/** Versions and methods of the discovery API. */
export const API_DISCOVERY_API: RpcApiSpec = {
  id: 'api-discovery',
  name: 'API Discovery Service',
  versions: ['1.0'],
  methods: ['getApiList', 'getSupportedVersions'],
  versionlessMethods: ['getSupportedVersions'],
};

/** The handler for `POST {cgi-prefix}/apidiscovery.cgi`, listing the APIs served (newest version each). */
export function apiDiscoveryCgi(served: readonly RpcApiSpec[]): RequestHandler {
  const apis: ApiListEntry[] = served.map((spec) => ({ id: spec.id, version: latestVersion(spec), name: spec.name }));
  return rpcEndpoint({
    name: 'apidiscovery.cgi',
    spec: API_DISCOVERY_API,
    handlers: {
      getApiList: (request) => {
        const id = optionalString(request.params.id, 'id');
        const version = optionalString(request.params.version, 'version');
        const apiList = apis.filter(
          (api) => (id === undefined || api.id === id) && (version === undefined || api.version === version),
        );
        return { apiList };
      },
      getSupportedVersions: () => ({ apiVersions: API_DISCOVERY_API.versions }),
    },
  });
}

function optionalString(value: unknown, name: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string')
    throw new RpcFault(RpcErrorCode.INVALID_PARAMETER, `Invalid parameter: params.${name} must be a string`);
  return value;
}
