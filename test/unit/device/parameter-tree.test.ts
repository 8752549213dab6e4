import {
  DEFAULT_IO_PORTS,
  hostName,
  ioPortCount,
  macAddress,
  type Parameter,
  parameterTree,
} from '../../../src/device/parameter-tree';
import { DEFAULT_INITIAL_STATES, type InitialState } from '../../../src/device/initial-states';
import { resolveIdentity, socSerialNumber } from '../../../src/device/identity';

const identity = resolveIdentity('ACCC8E00BEEF', { Version: '12.1.5' });
const tree = parameterTree({ identity, initialStates: [...DEFAULT_INITIAL_STATES] });
const value = (path: string): string | undefined => tree.find((p) => p.path === path)?.value;
const groupOf = (p: Parameter): string => p.path.split('.')[0];

function port(id: string, topic = 'tns1:Device/tnsvendor:IO/Port'): InitialState {
  return { topic, message: { source: { port: id }, key: {}, data: { state: '0' } } };
}

describe('parameterTree', () => {
  it('has the groups clients of real devices read, in name order', () => {
    expect([...new Set(tree.map(groupOf))]).toEqual([
      'BasicDeviceInfo',
      'Brand',
      'Image',
      'Input',
      'IOPort',
      'Network',
      'Output',
      'Properties',
      'StreamProfile',
    ]);
  });

  it('takes Brand and Properties from the identity', () => {
    expect(tree.filter((p) => groupOf(p) === 'Brand').map((p) => [p.path, p.value])).toEqual([
      ['Brand.Brand', 'BWC-Emu'],
      ['Brand.ProdFullName', 'BWC-Emu W110 Body Worn Camera'],
      ['Brand.ProdNbr', 'W110'],
      ['Brand.ProdShortName', 'BWC-Emu W110'],
      ['Brand.ProdType', 'Body Worn Camera'],
      ['Brand.ProdVariant', ''],
      ['Brand.WebURL', 'https://bwc-emu.invalid/'],
    ]);
    expect(value('Properties.Firmware.Version')).toBe('12.1.5');
    expect(value('Properties.Firmware.BuildDate')).toBe(identity.BuildDate);
    expect(value('Properties.Firmware.BuildNumber')).toMatch(/^\d+$/);
    expect(value('Properties.System.SerialNumber')).toBe('ACCC8E00BEEF');
    expect(value('Properties.System.SocSerialNumber')).toBe(socSerialNumber('ACCC8E00BEEF'));
    expect(value('Properties.System.Architecture')).toBe('aarch64');
    expect(value('Properties.API.HTTP.Version')).toBe('3');
  });

  it('names the host and the network after the serial, as real devices do', () => {
    expect(value('Network.HostName')).toBe('bwc-emu-accc8e00beef');
    expect(value('Network.VolatileHostName.HostName')).toBe('bwc-emu-accc8e00beef');
    expect(value('Network.eth0.MACAddress')).toBe('AC:CC:8E:00:BE:EF');
    expect(value('Network.Bonjour.FriendlyName')).toBe('BWC-Emu W110 - ACCC8E00BEEF');
    expect(tree.filter((p) => p.path.startsWith('Network.RTSP.')).map((p) => p.path)).toContain('Network.RTSP.Port');
  });

  it('agrees with the I/O port states: one input port each, no outputs', () => {
    expect(value('Input.NbrOfInputs')).toBe('2');
    expect(value('Output.NbrOfOutputs')).toBe('0');
    expect(tree.filter((p) => p.path.endsWith('.Direction')).map((p) => [p.path, p.value])).toEqual([
      ['IOPort.I0.Direction', 'input'],
      ['IOPort.I1.Direction', 'input'],
    ]);
    expect(value('IOPort.I0.Configurable')).toBe('yes');
    expect(value('IOPort.I0.Input.Name')).toBe('Input 1');
    expect(value('IOPort.I1.Input.Trig')).toBe('closed');
    expect(value('IOPort.I1.Output.Name')).toBe('Output 2');
    const four = parameterTree({ identity, initialStates: ['1', '2', '3', '4'].map((id) => port(id)) });
    expect(four.find((p) => p.path === 'Input.NbrOfInputs')?.value).toBe('4');
    expect(four.some((p) => p.path === 'IOPort.I3.Direction')).toBe(true);
    expect(four.some((p) => p.path === 'IOPort.I4.Direction')).toBe(false);
  });

  it('has unique paths, and no parameter is also a group', () => {
    const paths = tree.map((p) => p.path);
    expect(new Set(paths).size).toBe(paths.length);
    for (const path of paths) expect(paths.some((other) => other.startsWith(`${path}.`))).toBe(false);
    for (const p of tree) expect(p.value).not.toMatch(/[\r\n]/);
  });
});

describe('ioPortCount', () => {
  it('counts the distinct ports of I/O port states, whatever the prefixes', () => {
    expect(ioPortCount([port('1'), port('2'), port('1')])).toBe(2);
    expect(ioPortCount([port('0', 'tns1:Device/tnsaxis:IO/Port'), port('5', 'onvif:Device/IO/Port')])).toBe(2);
  });

  it('ignores other topics and states without a port, and falls back to the default', () => {
    const virtualInput = port('7', 'tns1:Device/tnsvendor:IO/VirtualInput');
    const noPort: InitialState = { topic: 'tns1:Device/tnsvendor:IO/Port', message: { data: { state: '1' } } };
    expect(ioPortCount([virtualInput, noPort])).toBe(DEFAULT_IO_PORTS);
    expect(ioPortCount([])).toBe(DEFAULT_IO_PORTS);
  });
});

describe('hostName and macAddress', () => {
  it('derive a host name from brand and serial', () => {
    expect(hostName(resolveIdentity('ACCC8E7EA36D', { Brand: 'AXIS' }))).toBe('axis-accc8e7ea36d');
    expect(hostName(resolveIdentity('unit_7', { Brand: '  ' }))).toBe('device-unit-7');
  });

  it('use a hex serial as the MAC, and derive a locally administered one from any other', () => {
    expect(macAddress('ACCC8E000001')).toBe('AC:CC:8E:00:00:01');
    const derived = macAddress('BWC-0042');
    expect(derived).toMatch(/^([0-9A-F]{2}:){5}[0-9A-F]{2}$/);
    expect(parseInt(derived.slice(0, 2), 16) & 0x03).toBe(0x02);
    expect(macAddress('BWC-0042')).toBe(derived);
    expect(macAddress('BWC-0043')).not.toBe(derived);
  });
});
