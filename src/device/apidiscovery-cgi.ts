/** `apidiscovery.cgi`: which APIs this device serves, the first call of many real clients. */
import type { RequestHandler } from 'express';
import type { ApiListEntry } from './api-list-entry';
import { RpcErrorCode, RpcFault, type RpcApiSpec } from '../protocol/rpc';
import { servedVersions } from './persona-file';
import { rpcEndpoint } from './rpc-endpoint';

/** What discovery needs of an API: the JSON-RPC ones and the legacy CGIs alike. */
export type DiscoverableApi = Pick<RpcApiSpec, 'id' | 'name' | 'versions'>;

/** Where the emulator's APIs are documented (the `.invalid` name of the default identity's WebURL). */
export const DOC_LINK_BASE = 'https://bwc-emu.invalid/docs/apis/';

/** Versions and methods of the discovery API. */
export const API_DISCOVERY_API: RpcApiSpec = {
  id: 'api-discovery',
  name: 'API Discovery Service',
  versions: ['1.0'],
  methods: ['getApiList', 'getSupportedVersions'],
  versionlessMethods: ['getSupportedVersions'],
};

/**
 * The handler for `POST {cgi-prefix}/apidiscovery.cgi`, listing the APIs served, each with
 * its newest version, sorted by id as real devices list them.
 */
export function apiDiscoveryCgi(servedApis: readonly DiscoverableApi[]): RequestHandler {
  const served = apiList(servedApis);
  return rpcEndpoint({
    name: 'apidiscovery.cgi',
    spec: API_DISCOVERY_API,
    handlers: {
      getApiList: (request, { device }) => {
        // A cloned device lists what the device it was cloned from lists.
        const apis = device.options.clone?.apiList ?? served;
        const id = optionalString(request.params.id, 'id');
        const version = optionalString(request.params.version, 'version');
        const apiList = apis.filter(
          (api) => (id === undefined || api.id === id) && (version === undefined || api.version === version),
        );
        return { apiList };
      },
      getSupportedVersions: (_request, { device }) => ({
        apiVersions: servedVersions(API_DISCOVERY_API, device.options.clone),
      }),
    },
  });
}

/** The `getApiList` entries of `served`: newest version each, a doc link each, sorted by id. */
export function apiList(served: readonly DiscoverableApi[]): ApiListEntry[] {
  return served
    .map((api) => ({
      id: api.id,
      version: api.versions[api.versions.length - 1] ?? '1.0',
      name: api.name,
      docLink: `${DOC_LINK_BASE}${api.id}`,
    }))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

function optionalString(value: unknown, name: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string')
    throw new RpcFault(RpcErrorCode.INVALID_PARAMETER, `Invalid parameter: params.${name} must be a string`);
  return value;
}
