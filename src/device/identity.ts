/**
 * Who a device is: brand, product, serial, firmware. Answered by
 * basicdeviceinfo.cgi and param.cgi; every device of a fleet has its own.
 */
import { createHash } from 'node:crypto';

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
  /** The chip's own serial, derived from the device serial (real devices: `AEA03B5C-B1384AD6-...`). */
  SocSerialNumber: string;
  WebURL: string;
}

/**
 * Every field of {@link DeviceIdentity}, in the order devices list them: what a persona file
 * must hold. Complete by construction: a field added to the interface and not here does not compile.
 */
export const IDENTITY_FIELDS = [
  'Brand',
  'ProdFullName',
  'ProdNbr',
  'ProdShortName',
  'ProdType',
  'ProdVariant',
  'SerialNumber',
  'HardwareID',
  'Version',
  'BuildDate',
  'Architecture',
  'Soc',
  'SocSerialNumber',
  'WebURL',
] as const satisfies readonly (keyof DeviceIdentity)[];
/** Compile-time check that {@link IDENTITY_FIELDS} names every field (never when one is missing). */
const IDENTITY_FIELDS_COMPLETE: Exclude<keyof DeviceIdentity, (typeof IDENTITY_FIELDS)[number]> extends never
  ? true
  : never = true;
void IDENTITY_FIELDS_COMPLETE;

/** Fields that follow from the serial instead of being set. */
type SerialFields = 'SerialNumber' | 'SocSerialNumber';

/** Identity fields a user may set; the serials come from the device's `serial` option. */
export type IdentityOptions = Partial<Omit<DeviceIdentity, SerialFields>>;

/** A plausible body worn camera, so clients that show device details have something to show. */
export const DEFAULT_IDENTITY: Readonly<Omit<DeviceIdentity, SerialFields>> = {
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
  const d = DEFAULT_IDENTITY;
  // A model or brand given alone renames the product, so the names stay consistent.
  const brand = options.Brand ?? d.Brand;
  const model = options.ProdNbr ?? d.ProdNbr;
  const type = options.ProdType ?? d.ProdType;
  // Names made of the default words are the defaults' own strings: a fleet shares them.
  const named = brand === d.Brand && model === d.ProdNbr;
  const shortName = named ? d.ProdShortName : `${brand} ${model}`;
  const fullName = named && type === d.ProdType ? d.ProdFullName : `${brand} ${model} ${type}`;
  // Every field in one literal, in the order the CGIs list them: an object built by
  // spreading would keep its fields out of line, in a larger form, on every device.
  return {
    Brand: brand,
    ProdFullName: options.ProdFullName ?? fullName,
    ProdNbr: model,
    ProdShortName: options.ProdShortName ?? shortName,
    ProdType: type,
    ProdVariant: options.ProdVariant ?? d.ProdVariant,
    HardwareID: options.HardwareID ?? d.HardwareID,
    Version: options.Version ?? d.Version,
    BuildDate: options.BuildDate ?? d.BuildDate,
    Architecture: options.Architecture ?? d.Architecture,
    Soc: options.Soc ?? d.Soc,
    WebURL: options.WebURL ?? d.WebURL,
    SerialNumber: serial,
    SocSerialNumber: socSerialNumber(serial),
  };
}

/**
 * Four groups of eight hex digits, as real chips report it: stable for a serial (clients key
 * devices on it) and different between the devices of a fleet.
 */
export function socSerialNumber(serial: string): string {
  const hex = createHash('sha256').update(`soc:${serial}`).digest('hex').slice(0, 32).toUpperCase();
  return (hex.match(/.{8}/g) ?? []).join('-');
}
