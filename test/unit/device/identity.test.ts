import { DEFAULT_IDENTITY, resolveIdentity, socSerialNumber } from '../../../src/device/identity';

describe('resolveIdentity', () => {
  it('fills every field from the defaults and the serial', () => {
    const identity = resolveIdentity('ACCC8E000001');
    expect(identity).toMatchObject({ ...DEFAULT_IDENTITY, SerialNumber: 'ACCC8E000001' });
    expect(identity.SocSerialNumber).toBe(socSerialNumber('ACCC8E000001'));
  });

  it('renames the product after a brand or model given alone', () => {
    const identity = resolveIdentity('X1', { Brand: 'AXIS', ProdNbr: 'W800' });
    expect([identity.ProdShortName, identity.ProdFullName]).toEqual(['AXIS W800', 'AXIS W800 Body Worn Camera']);
    expect(resolveIdentity('X1', { ProdFullName: 'Mine' }).ProdFullName).toBe('Mine');
  });
});

describe('socSerialNumber', () => {
  it('looks like a real chip serial: four groups of eight hex digits', () => {
    expect(socSerialNumber('ACCC8E000001')).toMatch(/^[0-9A-F]{8}(-[0-9A-F]{8}){3}$/);
  });

  it('is stable for a serial and differs between serials', () => {
    expect(socSerialNumber('B8A44F000042')).toBe(socSerialNumber('B8A44F000042'));
    expect(socSerialNumber('B8A44F000042')).not.toBe(socSerialNumber('B8A44F000043'));
  });
});
