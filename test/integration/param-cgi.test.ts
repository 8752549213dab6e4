/**
 * param.cgi over real sockets, as the clients of real devices call it: GET with a query,
 * POST with a form body (also sent as text/plain by one library), comma lists of groups
 * with and without `root.`, `*` wildcards, and the error lines of real devices.
 */
import { digestRequest, type DigestResult } from '../helpers/digest-request';
import { deviceStarter } from '../helpers/devices';
import { sendRequest } from '../helpers/http';
import type { DeviceHandle } from '../../src';

const device = deviceStarter();

const FORM = 'application/x-www-form-urlencoded';

/** GET param.cgi with this query, with digest credentials. */
function get(d: DeviceHandle, query: string): Promise<DigestResult> {
  return digestRequest(d.url, { path: `${d.options.cgiPrefix}/param.cgi?${query}` });
}

/** POST param.cgi with this body (and query), with digest credentials. */
function post(d: DeviceHandle, body: string, contentType = FORM, query = ''): Promise<DigestResult> {
  return digestRequest(d.url, {
    method: 'POST',
    path: `${d.options.cgiPrefix}/param.cgi${query === '' ? '' : `?${query}`}`,
    headers: { 'Content-Type': contentType },
    body,
  });
}

/** The `root.X=value` lines of an answer as a map. */
function params(text: string): Record<string, string> {
  return Object.fromEntries(
    text
      .split('\n')
      .filter((l) => l.startsWith('root.'))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
}

describe('param.cgi', () => {
  it('lists groups as root.Group.Key=value lines behind auth', async () => {
    const d = await device({ serial: 'ACCC8E00BEEF' });
    const anonymous = await sendRequest(d.url, { path: '/svc-cgi/param.cgi?action=list&group=Brand' });
    expect(anonymous.status).toBe(401);
    const brand = await get(d, 'action=list&group=Brand');
    expect(brand.status).toBe(200);
    expect(brand.headers['content-type']).toMatch(/^text\/plain/);
    expect(brand.body.split('\n')).toEqual(
      expect.arrayContaining([
        'root.Brand.Brand=BWC-Emu',
        'root.Brand.ProdNbr=W110',
        'root.Brand.ProdType=Body Worn Camera',
      ]),
    );
    const props = await get(d, 'action=list&group=Properties');
    expect(props.body).toContain('root.Properties.System.SerialNumber=ACCC8E00BEEF\n');
    const sub = await get(d, 'action=list&group=root.Properties.Firmware');
    expect(sub.body).toBe(
      'root.Properties.Firmware.BuildDate=Nov 02 2026 09:14\nroot.Properties.Firmware.BuildNumber=26\n' +
        'root.Properties.Firmware.Version=11.11.73\n',
    );
  });

  it('takes a form body on POST, also one sent as text/plain, and merges it with the query', async () => {
    const d = await device({ identity: { Version: '12.0.1' } });
    const form = await post(d, 'action=list&group=Brand.ProdNbr');
    expect([form.status, form.body]).toEqual([200, 'root.Brand.ProdNbr=W110\n']);
    const textPlain = await post(d, 'action=list&group=root.Properties.Firmware.Version', 'text/plain');
    expect(textPlain.body).toBe('root.Properties.Firmware.Version=12.0.1\n');
    const split = await post(d, 'group=Input', FORM, 'action=list');
    expect(split.body).toBe('root.Input.NbrOfInputs=2\n');
    const encoded = await post(d, 'action=list&group=IOPort.%2A.Direction%2Croot.Output');
    expect(encoded.body).toBe(
      'root.IOPort.I0.Direction=input\nroot.IOPort.I1.Direction=input\nroot.Output.NbrOfOutputs=0\n',
    );
  });

  it('answers comma lists of groups with and without root., in the order asked', async () => {
    const d = await device({ serial: 'ACCC8E00ABCD', identity: { Brand: 'AXIS', ProdNbr: 'W110' } });
    const answer = await get(
      d,
      'action=list&group=root.Brand.ProdShortName,Properties.System.SerialNumber,root.Input.NbrOfInputs,' +
        'Output.NbrOfOutputs,Network.HostName',
    );
    expect(answer.body).toBe(
      [
        'root.Brand.ProdShortName=AXIS W110',
        'root.Properties.System.SerialNumber=ACCC8E00ABCD',
        'root.Input.NbrOfInputs=2',
        'root.Output.NbrOfOutputs=0',
        'root.Network.HostName=axis-accc8e00abcd',
        '',
      ].join('\n'),
    );
  });

  it('expands * wildcards one name at a time', async () => {
    const d = await device();
    const configurable = await get(d, 'action=list&group=Brand.ProdShortName,IOPort.*.Configurable');
    expect(configurable.body).toBe(
      'root.Brand.ProdShortName=BWC-Emu W110\nroot.IOPort.I0.Configurable=yes\nroot.IOPort.I1.Configurable=yes\n',
    );
    const rtsp = params((await get(d, 'action=list&group=Network.RTSP.*')).body);
    expect(rtsp).toMatchObject({ 'root.Network.RTSP.Enabled': 'yes', 'root.Network.RTSP.Port': '554' });
    expect(Object.keys(rtsp).every((k) => k.startsWith('root.Network.RTSP.'))).toBe(true);
    const star = (await get(d, 'action=list&group=Properties.*')).body;
    expect(star).toBe((await get(d, 'action=list&group=root.Properties')).body);
    expect((await get(d, 'action=list&group=Image.*.Name')).body).toBe('root.Image.I0.Name=Camera 1\n');
    const ports = params((await get(d, 'action=list&group=IOPort')).body);
    expect(ports).toMatchObject({
      'root.IOPort.I0.Direction': 'input',
      'root.IOPort.I0.Input.Name': 'Input 1',
      'root.IOPort.I0.Input.Trig': 'closed',
      'root.IOPort.I1.Output.Name': 'Output 2',
    });
  });

  it('reports as many I/O ports as its initial I/O port states name', async () => {
    const port = (id: string) => ({
      topic: 'tns1:Device/tnsvendor:IO/Port',
      message: { source: { port: id }, key: {}, data: { state: '0' } },
    });
    const d = await device({ initialStates: ['1', '2', '3'].map(port) });
    const answer = params((await get(d, 'action=list&group=Input,IOPort.*.Direction')).body);
    expect(answer).toEqual({
      'root.Input.NbrOfInputs': '3',
      'root.IOPort.I0.Direction': 'input',
      'root.IOPort.I1.Direction': 'input',
      'root.IOPort.I2.Direction': 'input',
    });
  });

  it('lists every group without a group argument', async () => {
    const d = await device();
    const groups = new Set(Object.keys(params((await get(d, 'action=list')).body)).map((k) => k.split('.')[1]));
    expect([...groups]).toEqual(
      expect.arrayContaining(['Brand', 'Image', 'Input', 'IOPort', 'Network', 'Output', 'Properties', 'StreamProfile']),
    );
  });

  it('answers an unknown group with the error text of a real device and HTTP 200', async () => {
    const d = await device();
    const answer = await get(d, 'action=list&group=Nope');
    expect(answer.status).toBe(200);
    expect(answer.body).toBe("# Error: Error -1 getting param in group 'Nope'\n");
    const mixed = await get(d, 'action=list&group=Brand.ProdNbr,Nope,root.Network.Filter');
    expect(mixed.body).toBe(
      "root.Brand.ProdNbr=W110\n# Error: Error -1 getting param in group 'Nope'\n" +
        "# Error: Error -1 getting param in group 'root.Network.Filter'\n",
    );
    expect((await get(d, 'action=list&group=Brand..ProdNbr')).body).toBe(
      "# Error: Error -1 getting param in group 'Brand..ProdNbr'\n",
    );
  });

  it('answers other actions with an error line and HTTP 200', async () => {
    const d = await device();
    expect((await get(d, 'group=Brand')).body).toBe('# Error: action must be list\n');
    expect((await get(d, 'action=update&Brand.ProdNbr=X')).body).toBe("# Error: action must be list (got 'update')\n");
    expect((await post(d, '{"action":"list"}', 'application/json')).body).toBe('# Error: action must be list\n');
  });

  it('refuses a too large form body with 413 and closes the connection', async () => {
    const d = await device({ maxBodyBytes: 1024 });
    const answer = await post(d, `action=list&group=${'Brand,'.repeat(300)}Brand`);
    expect(answer.status).toBe(413);
    expect(answer.headers.connection).toBe('close');
    expect(answer.body).toBe('# Error: Request too large: the limit is 1024 bytes\n');
  });

  it('answers 405 for other HTTP methods', async () => {
    const d = await device();
    const put = await sendRequest(d.url, { method: 'PUT', path: '/svc-cgi/param.cgi', body: 'action=list' });
    expect(put.status).toBe(405);
    expect(put.headers.allow).toBe('GET, POST');
  });
});
