/** `basicdeviceinfo.cgi`: the device's identity as a property list. */
import type { RequestHandler } from 'express';
import { RpcErrorCode, RpcFault, type RpcApiSpec } from '../protocol/rpc';
import type { DeviceIdentity } from './identity';
import { nameListParam, rpcEndpoint } from './rpc-endpoint';

/** Versions and methods of the basic device info API. */
export const BASIC_DEVICE_INFO_API: RpcApiSpec = {
  id: 'basic-device-info',
  name: 'Basic Device Information',
  versions: ['1.0', '1.1'],
  methods: ['getAllProperties', 'getProperties', 'getSupportedVersions'],
  versionlessMethods: ['getSupportedVersions'],
};

/** The handler for `POST {cgi-prefix}/basicdeviceinfo.cgi`. */
export const basicDeviceInfoCgi: RequestHandler = rpcEndpoint({
  name: 'basicdeviceinfo.cgi',
  spec: BASIC_DEVICE_INFO_API,
  handlers: {
    getAllProperties: (_request, { device }) => ({ propertyList: { ...device.options.identity } }),
    getProperties: (request, { device }) => {
      const { identity } = device.options;
      const names = nameListParam(request.params, 'propertyList', 'property names');
      const unknown = names.filter((n) => !Object.hasOwn(identity, n));
      if (unknown.length > 0)
        throw new RpcFault(
          RpcErrorCode.INVALID_PARAMETER,
          `Invalid parameter: unknown propert${unknown.length > 1 ? 'ies' : 'y'}: ${unknown.join(', ')}`,
        );
      const propertyList: Record<string, string> = {};
      for (const name of names as (keyof DeviceIdentity)[]) propertyList[name] = identity[name];
      return { propertyList };
    },
    getSupportedVersions: () => ({ apiVersions: BASIC_DEVICE_INFO_API.versions }),
  },
});
