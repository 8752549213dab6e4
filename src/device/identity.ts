/**
 * Who a device is: brand, product, serial, firmware. Answered by
 * basicdeviceinfo.cgi and param.cgi; every device of a fleet has its own.
 */

/** The identity fields a device reports (names as basicdeviceinfo.cgi uses them). */
export interface DeviceIdentity {
  Brand: string;
  ProdFullName: string;
  ProdNbr: string;
  ProdShortName: string;
  ProdType: string;
  ProdVariant: string;
  SerialNumber: string;
  HardwareID: string;
  /** Firmware version. */
  Version: string;
  BuildDate: string;
  Architecture: string;
  Soc: string;
  WebURL: string;
}

/** Identity fields a user may set; the serial comes from the device's `serial` option. */
export type IdentityOptions = Partial<Omit<DeviceIdentity, 'SerialNumber'>>;

/** A plausible body worn camera, so clients that show device details have something to show. */
export const DEFAULT_IDENTITY: Readonly<Omit<DeviceIdentity, 'SerialNumber'>> = {
  Brand: 'BWC-Emu',
  ProdFullName: 'BWC-Emu W110 Body Worn Camera',
  ProdNbr: 'W110',
  ProdShortName: 'BWC-Emu W110',
  ProdType: 'Body Worn Camera',
  ProdVariant: '',
  HardwareID: '9A1.1',
  Version: '11.11.73',
  BuildDate: 'Nov 02 2026 09:14',
  Architecture: 'aarch64',
  Soc: 'CV25',
  WebURL: 'https://bwc-emu.invalid/',
};

/** The full identity of a device with this serial. */
export function resolveIdentity(serial: string, options: IdentityOptions = {}): DeviceIdentity {
  // A model or brand given alone renames the product, so the names stay consistent.
  const brand = options.Brand ?? DEFAULT_IDENTITY.Brand;
  const model = options.ProdNbr ?? DEFAULT_IDENTITY.ProdNbr;
  const derived = {
    ProdShortName: `${brand} ${model}`,
    ProdFullName: `${brand} ${model} ${options.ProdType ?? DEFAULT_IDENTITY.ProdType}`,
  };
  return { ...DEFAULT_IDENTITY, ...derived, ...options, SerialNumber: serial };
}

/** The legacy parameter tree (`root.Brand.*`, `root.Properties.*`) param.cgi lists. */
export function parameterGroups(identity: DeviceIdentity): Record<string, Record<string, string>> {
  return {
    Brand: {
      Brand: identity.Brand,
      ProdFullName: identity.ProdFullName,
      ProdNbr: identity.ProdNbr,
      ProdShortName: identity.ProdShortName,
      ProdType: identity.ProdType,
      ProdVariant: identity.ProdVariant,
      WebURL: identity.WebURL,
    },
    Properties: {
      'API.HTTP.Version': '3',
      'API.WebSocket.RTSP.RTSP': 'no',
      'Firmware.BuildDate': identity.BuildDate,
      'Firmware.Version': identity.Version,
      'System.Architecture': identity.Architecture,
      'System.HardwareID': identity.HardwareID,
      'System.SerialNumber': identity.SerialNumber,
      'System.Soc': identity.Soc,
    },
  };
}
