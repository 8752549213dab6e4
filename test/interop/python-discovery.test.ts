/**
 * Interop with Debian's python3-requests for discovery and identity
 * (test/interop/python-discovery-client.py): basicdeviceinfo.cgi without credentials
 * (getAllUnrestrictedProperties, apiVersion 1.3) and with digest (getAllProperties), and
 * param.cgi as form POSTs with digest and as a GET with a comma list of groups. Against a
 * device with the real-device prefix /axis-cgi. Skipped, with a message, when
 * /usr/bin/python3 or its requests module is missing.
 */
import { join } from 'node:path';
import { realPrefixDevice } from './real-prefix-device';
import { pythonModules, runPythonScript } from '../helpers/python-script';
import { socSerialNumber } from '../../src/device/identity';

const SCRIPT = join(__dirname, 'python-discovery-client.py');
const versions = pythonModules(['requests'], 'python-discovery');
const describeWithPython = versions ? describe : describe.skip;

describeWithPython(`python3-requests discovery client (${versions ?? 'not installed'})`, () => {
  const start = realPrefixDevice();

  it('reads the unrestricted properties anonymously, the rest and param.cgi with digest', async () => {
    const started = await start();
    const run = await runPythonScript(SCRIPT, [started.url, 'root', 'pass']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.lines).toHaveLength(1);
    const summary = run.lines[0].summary as Record<string, unknown>;
    expect(summary).toEqual({
      unrestricted: {
        status: 200,
        apiVersion: '1.3',
        context: 'py',
        propertyList: {
          Brand: 'AXIS',
          BuildDate: 'Nov 02 2026 09:14',
          HardwareID: '9A1.1',
          ProdFullName: 'AXIS W110 Body Worn Camera',
          ProdNbr: 'W110',
          ProdShortName: 'AXIS W110',
          ProdType: 'Body Worn Camera',
          ProdVariant: '',
          SerialNumber: 'ACCC8E00ABCD',
          Version: '11.11.73',
          WebURL: 'https://bwc-emu.invalid/',
        },
      },
      anonymousGetAllProperties: 401,
      all: {
        status: 200,
        apiVersion: '1.3',
        context: 'py',
        propertyList: expect.objectContaining({
          Architecture: 'aarch64',
          Soc: 'CV25',
          SocSerialNumber: socSerialNumber('ACCC8E00ABCD'),
          SerialNumber: 'ACCC8E00ABCD',
        }) as object,
      },
      paramForm: {
        contentType: expect.stringMatching(/^text\/plain/) as string,
        params: {
          'root.Brand.Brand': 'AXIS',
          'root.Brand.ProdFullName': 'AXIS W110 Body Worn Camera',
          'root.Brand.ProdNbr': 'W110',
          'root.Brand.ProdShortName': 'AXIS W110',
          'root.Brand.ProdType': 'Body Worn Camera',
          'root.Brand.ProdVariant': '',
          'root.Brand.WebURL': 'https://bwc-emu.invalid/',
          'root.Properties.Firmware.Version': '11.11.73',
          'root.Properties.System.SerialNumber': 'ACCC8E00ABCD',
        },
      },
      paramTextPlain: { 'root.Brand.ProdNbr': 'W110' },
      paramList: {
        params: {
          'root.Input.NbrOfInputs': '2',
          'root.Output.NbrOfOutputs': '0',
          'root.IOPort.I0.Direction': 'input',
          'root.IOPort.I1.Direction': 'input',
        },
        errors: ["# Error: Error -1 getting param in group 'Nope'"],
      },
    });
  });

  it('with discoveryAuth required, even the unrestricted properties need credentials', async () => {
    const started = await start({ discoveryAuth: 'required' });
    const run = await runPythonScript(SCRIPT, [started.url, 'root', 'pass']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.lines[0].summary).toMatchObject({
      unrestricted: { status: 401 },
      anonymousGetAllProperties: 401,
      all: { status: 200, apiVersion: '1.3' },
    });
    expect(run.lines[0].summary).not.toHaveProperty('unrestricted.propertyList');
  });

  it('with SHA-256 digest only, the digest requests still pass', async () => {
    const started = await start({ digestAlgorithms: ['SHA-256'], auth: 'digest' });
    const run = await runPythonScript(SCRIPT, [started.url, 'root', 'pass']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.lines[0].summary).toMatchObject({
      all: { status: 200 },
      paramTextPlain: { 'root.Brand.ProdNbr': 'W110' },
    });
  });
});
