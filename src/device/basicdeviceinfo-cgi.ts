/**
 * `basicdeviceinfo.cgi`: the device's identity as a property list. The unrestricted part
 * is readable without credentials (as on real devices by default); the rest needs a login.
 */
import type { RequestHandler } from 'express';
import { RpcErrorCode, RpcFault, type RpcApiSpec } from '../protocol/rpc';
import type { DeviceIdentity } from './identity';
import { servedVersions } from './persona-file';
import { nameListParam, rpcEndpoint } from './rpc-endpoint';

/** Versions and methods of the basic device info API (clients send 1.0 up to 1.3; answers echo it). */
export const BASIC_DEVICE_INFO_API: RpcApiSpec = {
  id: 'basic-device-info',
  name: 'Basic Device Information',
  versions: ['1.0', '1.1', '1.2', '1.3'],
  methods: ['getAllProperties', 'getAllUnrestrictedProperties', 'getProperties', 'getSupportedVersions'],
  versionlessMethods: ['getSupportedVersions'],
};

/**
 * What `getAllUnrestrictedProperties` answers without a login: the product and firmware,
 * not the hardware details (Architecture, Soc, SocSerialNumber), as real devices split them.
 */
export const UNRESTRICTED_PROPERTIES = [
  'Brand',
  'BuildDate',
  'HardwareID',
  'ProdFullName',
  'ProdNbr',
  'ProdShortName',
  'ProdType',
  'ProdVariant',
  'SerialNumber',
  'Version',
  'WebURL',
] as const satisfies readonly (keyof DeviceIdentity)[];

/** The handler for `POST {cgi-prefix}/basicdeviceinfo.cgi`. */
export const basicDeviceInfoCgi: RequestHandler = rpcEndpoint({
  name: 'basicdeviceinfo.cgi',
  spec: BASIC_DEVICE_INFO_API,
  anonymousMethods: ['getAllUnrestrictedProperties'],
  handlers: {
    getAllProperties: (_request, { device }) => ({ propertyList: { ...device.options.identity } }),
    getAllUnrestrictedProperties: (_request, { device }) => ({
      // A cloned device answers the fields the device it was cloned from answers.
      propertyList: pick(
        device.options.identity,
        (device.options.clone?.unrestrictedProperties ?? UNRESTRICTED_PROPERTIES) as (keyof DeviceIdentity)[],
      ),
    }),
    getProperties: (request, { device }) => {
      const { identity } = device.options;
      const names = nameListParam(request.params, 'propertyList', 'property names');
      const unknown = names.filter((n) => !Object.hasOwn(identity, n));
      if (unknown.length > 0)
        throw new RpcFault(
          RpcErrorCode.INVALID_PARAMETER,
          `Invalid parameter: unknown propert${unknown.length > 1 ? 'ies' : 'y'}: ${unknown.join(', ')}`,
        );
      return { propertyList: pick(identity, names as (keyof DeviceIdentity)[]) };
    },
    getSupportedVersions: (_request, { device }) => ({
      apiVersions: servedVersions(BASIC_DEVICE_INFO_API, device.options.clone),
    }),
  },
});

function pick(identity: DeviceIdentity, names: readonly (keyof DeviceIdentity)[]): Partial<DeviceIdentity> {
  const propertyList: Partial<DeviceIdentity> = {};
  for (const name of names) propertyList[name] = identity[name];
  return propertyList;
}
