/** The persona file: what counts as a secret, param.cgi's lines read back, and load errors with positions. */
import { parseParameters } from '../../../src/device/clone-device';
import { isSecretParameter, PERSONA_FILE_FORMAT, type PersonaFile } from '../../../src/device/persona-file';
import { loadPersona, personaYaml } from '../../../src/device/persona-file-yaml';
import { resolveDeviceOptions } from '../../../src/device/device-options';

const IDENTITY = {
  Brand: 'Acme',
  ProdFullName: 'Acme W900',
  ProdNbr: 'W900',
  ProdShortName: 'Acme W900',
  ProdType: 'Body Worn Camera',
  ProdVariant: '',
  SerialNumber: 'B8A44F0C1D2E',
  HardwareID: '9A1',
  Version: '12.4.1',
  BuildDate: 'Jan 01 2026',
  Architecture: 'aarch64',
  Soc: 'CV5',
  SocSerialNumber: '1-2-3-4',
  WebURL: 'https://acme.invalid/',
};

const FILE: PersonaFile = {
  format: PERSONA_FILE_FORMAT,
  cgiPrefix: '/axis-cgi',
  wsPrefix: '/vapix',
  namespace: 'tnsaxis',
  realm: 'AXIS_B8A44F0C1D2E',
  identity: IDENTITY,
  unrestrictedProperties: ['Brand', 'SerialNumber'],
  flags: [{ name: 'night', value: true, description: 'Night', defaultValue: false }],
  apiList: [{ id: 'param-cgi', version: '1.0', name: 'Legacy Parameter Handling', docLink: 'https://x.invalid/' }],
  parameters: { 'Brand.ProdNbr': 'W900', 'Network.RTSP.Port': '554' },
};

describe('persona file', () => {
  it.each([
    ['Network.WLAN.PSK', true],
    ['SNMP.V1ReadCommunity', true],
    ['Network.eth0.WPAKey', true],
    ['Users.root.Password', true],
    ['Network.RTSP.ProtViewer', false],
    ['Network.eth0.MACAddress', false],
    ['Properties.API.HTTP.AdminPath', false],
    ['Properties.System.SerialNumber', false],
  ])('counts %s as a secret: %s', (path, secret) => {
    expect(isSecretParameter(path)).toBe(secret);
  });

  it('reads param.cgi lines back in order, = in values kept, secrets by name apart, comments skipped', () => {
    const text = 'root.B.X=a=b\n# Error: no\nroot.Net.WLAN.PSK=hunter2\r\nroot.A.Y=\n';
    expect(parseParameters(text)).toEqual({ parameters: { 'B.X': 'a=b', 'A.Y': '' }, leftOut: ['Net.WLAN.PSK'] });
  });

  it('round-trips through YAML with every value a string, key order kept', () => {
    const loaded = loadPersona(personaYaml(FILE), 'p.yaml');
    expect(loaded.ok && Object.keys(loaded.value.parameters)).toEqual(['Brand.ProdNbr', 'Network.RTSP.Port']);
    expect(loaded.ok && loaded.value).toEqual(FILE);
  });

  it('names a missing identity field and an unknown key with their place', () => {
    const { SocSerialNumber: _, ...identity } = IDENTITY;
    const loaded = loadPersona(personaYaml({ ...FILE, identity, extra: 1 } as PersonaFile), 'p.yaml');
    expect(!loaded.ok && loaded.error.message).toMatch(/p\.yaml:\d+:\d+: .*identity\.SocSerialNumber is missing/);
    expect(!loaded.ok && loaded.error.message).toMatch(/extra/);
  });

  it('makes a device with its words, realm and identity; explicit options win, a fleet serial renames the realm', () => {
    const r = resolveDeviceOptions({ persona: FILE });
    expect(r).toMatchObject({ cgiPrefix: '/axis-cgi', wsPrefix: '/vapix', namespace: 'tnsaxis', realm: FILE.realm });
    expect(Object.keys(r.identity)).toEqual(Object.keys(IDENTITY));
    const other = resolveDeviceOptions({ persona: FILE, serial: 'B8A44F0C1D2F', identity: { Version: '13' } });
    expect(other).toMatchObject({
      realm: 'AXIS_B8A44F0C1D2F',
      identity: { SerialNumber: 'B8A44F0C1D2F', Version: '13' },
    });
    expect(() => resolveDeviceOptions({ persona: { ...FILE, realm: '' } })).toThrow(
      /persona is not a persona file: realm/,
    );
  });
});
