/**
 * The legacy parameter tree param.cgi lists (`root.Brand.*`, `root.Properties.*`, ...):
 * the groups public clients of real devices read, with values that follow from the
 * device's identity and I/O ports, so that every device of a fleet answers as itself.
 */
import { createHash } from 'node:crypto';
import type { ResolvedDeviceOptions } from './device-options';
import type { DeviceIdentity } from './identity';

/** One parameter: its path below `root.` (e.g. `Brand.ProdNbr`) and its value. */
export interface Parameter {
  readonly path: string;
  readonly value: string;
}

/** What the tree is made from. */
export type ParameterSource = Pick<ResolvedDeviceOptions, 'identity' | 'initialStates'>;

/** I/O ports of a device whose initial states name none (a scenario publishes its states later). */
export const DEFAULT_IO_PORTS = 2;

/** Firmware build number: real devices report one next to the version; ours has no builds. */
const FIRMWARE_BUILD_NUMBER = '26';

/** A stateful I/O port topic whatever its prefixes: `tns1:Device/tnsvendor:IO/Port`, `.../tnsaxis:IO/Port`. */
const IO_PORT_TOPIC = /(?:^|\/)(?:[\w.-]+:)?IO\/(?:[\w.-]+:)?Port$/;

/**
 * Every parameter of the device, groups in the order real devices list them (by name) and
 * within a group its own parameters before its subgroups.
 */
export function parameterTree(source: ParameterSource): Parameter[] {
  const { identity } = source;
  const ports = ioPortCount(source.initialStates);
  return [
    ...group('BasicDeviceInfo', { BasicDeviceInfo: 'yes' }),
    ...group('Brand', brand(identity)),
    ...group('Image', IMAGE),
    ...group('Input', { NbrOfInputs: String(ports) }),
    ...group('IOPort', ioPorts(ports)),
    ...group('Network', network(identity)),
    // Every port is configured as an input (its state is the IO/Port event); a configurable
    // port counts as an output only while its Direction says so.
    ...group('Output', { NbrOfOutputs: '0' }),
    ...group('Properties', properties(identity)),
    ...group('StreamProfile', STREAM_PROFILES),
  ];
}

/**
 * How many I/O ports the device has: one per distinct `port` of its initial I/O port states,
 * so that param.cgi agrees with the events; {@link DEFAULT_IO_PORTS} when they name none.
 */
export function ioPortCount(states: ParameterSource['initialStates']): number {
  const ports = new Set<string>();
  for (const state of states) {
    const port = state.message.source?.port;
    if (IO_PORT_TOPIC.test(state.topic) && port !== undefined) ports.add(port);
  }
  return ports.size > 0 ? ports.size : DEFAULT_IO_PORTS;
}

/** The host name a real device derives from its brand and serial (`axis-accc8e7ea36d`). */
export function hostName(identity: DeviceIdentity): string {
  const brandWord =
    identity.Brand.toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'device';
  return `${brandWord}-${identity.SerialNumber.toLowerCase().replace(/_/g, '-')}`;
}

/**
 * The MAC address: a real device's serial is its MAC; any other serial gets a stable,
 * locally administered one derived from it.
 */
export function macAddress(serial: string): string {
  const isMac = /^[0-9A-Fa-f]{12}$/.test(serial);
  const bytes = isMac
    ? Buffer.from(serial, 'hex')
    : createHash('sha256').update(`mac:${serial}`).digest().subarray(0, 6);
  if (!isMac) bytes[0] = (bytes[0] & 0xfe) | 0x02;
  return [...bytes].map((b) => b.toString(16).padStart(2, '0').toUpperCase()).join(':');
}

function group(name: string, values: Readonly<Record<string, string>>): Parameter[] {
  return Object.entries(values).map(([key, value]) => ({ path: `${name}.${key}`, value }));
}

function brand(identity: DeviceIdentity): Record<string, string> {
  return {
    Brand: identity.Brand,
    ProdFullName: identity.ProdFullName,
    ProdNbr: identity.ProdNbr,
    ProdShortName: identity.ProdShortName,
    ProdType: identity.ProdType,
    ProdVariant: identity.ProdVariant,
    WebURL: identity.WebURL,
  };
}

/** Configurable ports set as inputs, with the parameters of both directions as real devices list them. */
function ioPorts(count: number): Record<string, string> {
  const values: Record<string, string> = {};
  for (let i = 0; i < count; i++) {
    Object.assign(values, {
      [`I${i}.Configurable`]: 'yes',
      [`I${i}.Direction`]: 'input',
      [`I${i}.Usage`]: '',
      [`I${i}.Input.Name`]: `Input ${i + 1}`,
      [`I${i}.Input.Trig`]: 'closed',
      [`I${i}.Output.Active`]: 'closed',
      [`I${i}.Output.Button`]: 'none',
      [`I${i}.Output.DelayTime`]: '1',
      [`I${i}.Output.Mode`]: 'bistable',
      [`I${i}.Output.Name`]: `Output ${i + 1}`,
      [`I${i}.Output.PulseTime`]: '0',
    });
  }
  return values;
}

function network(identity: DeviceIdentity): Record<string, string> {
  const host = hostName(identity);
  const friendlyName = `${identity.ProdShortName} - ${identity.SerialNumber}`;
  return {
    BootProto: 'dhcp',
    HostName: host,
    InterfaceSelectMode: 'auto',
    'Bonjour.Enabled': 'yes',
    'Bonjour.FriendlyName': friendlyName,
    'eth0.MACAddress': macAddress(identity.SerialNumber),
    'RTSP.AllowClientTransportSettings': 'no',
    'RTSP.AuthenticateOverHTTP': 'no',
    'RTSP.AuthenticateRTSPOverHTTP': 'yes',
    'RTSP.Enabled': 'yes',
    'RTSP.Port': '554',
    'RTSP.ProtViewer': 'password',
    'RTSP.Timeout': '60',
    'UPnP.Enabled': 'yes',
    'UPnP.FriendlyName': friendlyName,
    'VolatileHostName.HostName': host,
    'VolatileHostName.ObtainFromDHCP': 'yes',
  };
}

function properties(identity: DeviceIdentity): Record<string, string> {
  return {
    'API.HTTP.AdminPath': '/',
    'API.HTTP.Version': '3',
    'API.Metadata.Metadata': 'yes',
    'API.Metadata.Version': '1.0',
    'API.RTSP.RTSPAuth': 'yes',
    'API.RTSP.Version': '2.01',
    'API.WebSocket.RTSP.RTSP': 'no',
    'ApiDiscovery.ApiDiscovery': 'yes',
    'Firmware.BuildDate': identity.BuildDate,
    'Firmware.BuildNumber': FIRMWARE_BUILD_NUMBER,
    'Firmware.Version': identity.Version,
    'Image.Format': 'jpeg,mjpeg,h264',
    'Image.NbrOfViews': '1',
    'Image.Resolution': RESOLUTIONS,
    'Image.Rotation': '0,180',
    'LocalStorage.LocalStorage': 'yes',
    'System.Architecture': identity.Architecture,
    'System.HardwareID': identity.HardwareID,
    'System.Language': 'English',
    'System.LanguageType': 'default',
    'System.SerialNumber': identity.SerialNumber,
    'System.Soc': identity.Soc,
    'System.SocSerialNumber': identity.SocSerialNumber,
    'VirtualInput.VirtualInput': 'yes',
  };
}

const RESOLUTIONS = '1920x1080,1280x720,1024x576,800x450,640x360,480x270,320x180';

/** One 1080p sensor, one view area: a body worn camera. */
const IMAGE: Readonly<Record<string, string>> = {
  DateFormat: 'YYYY-MM-DD',
  MaxViewers: '20',
  MotionDetection: 'no',
  NbrOfConfigs: '1',
  TimeFormat: '24',
  'I0.Enabled': 'yes',
  'I0.Name': 'Camera 1',
  'I0.Source': '0',
  'I0.Appearance.ColorEnabled': 'yes',
  'I0.Appearance.Compression': '30',
  'I0.Appearance.MirrorEnabled': 'no',
  'I0.Appearance.Resolution': '1920x1080',
  'I0.Appearance.Rotation': '0',
  'I0.MPEG.H264.Profile': 'high',
  'I0.RateControl.MaxBitrate': '0',
  'I0.RateControl.Mode': 'vbr',
  'I0.Stream.FPS': '0',
  'I0.Text.DateEnabled': 'no',
  'I0.Text.TextEnabled': 'no',
};

/** The four profiles real devices ship with. */
const STREAM_PROFILES: Readonly<Record<string, string>> = {
  MaxGroups: '26',
  ...profile(0, 'Quality', 'Best image quality and full frame rate', '1920x1080', 20, 0),
  ...profile(1, 'Balanced', 'Medium image quality and frame rate', '1280x720', 30, 0),
  ...profile(2, 'Bandwidth', 'Low bandwidth with medium image quality', '800x450', 50, 15),
  ...profile(3, 'Mobile', 'Mobile device settings', '480x270', 60, 15),
};

function profile(
  index: number,
  name: string,
  description: string,
  resolution: string,
  compression: number,
  fps: number,
): Record<string, string> {
  return {
    [`S${index}.Description`]: description,
    [`S${index}.Name`]: name,
    [`S${index}.Parameters`]: `videocodec=h264&resolution=${resolution}&compression=${compression}&fps=${fps}`,
  };
}
