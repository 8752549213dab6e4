/**
 * Issue 32's "Done when": a device cloned from an emulator started with another persona
 * answers every discovery, identity, flag and parameter request byte for byte as the
 * original. The clone keeps the serial (not a secret: anonymous getAllUnrestrictedProperties
 * answers it) and so the realm; what differs by design is each challenge's nonce.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../src/cli/main';
import { DEFAULT_FLAGS, type DeviceHandle, loadPersonaFile, startDevice } from '../../src';
import { capture } from '../helpers/cli-capture';
import { digestRequest } from '../helpers/digest-request';
import { challengesOf, type HttpRequestOptions, sendRequest } from '../helpers/http';

/** One request: anonymous or with digest. */
interface Ask {
  what: string;
  request: HttpRequestOptions;
  anonymous?: boolean;
}

const rpc = (cgi: string, method: string, params: Record<string, unknown> = {}, anonymous = false): Ask => ({
  what: `${cgi} ${method} ${JSON.stringify(params)}`,
  anonymous,
  request: {
    method: 'POST',
    path: `/axis-cgi/${cgi}`,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ apiVersion: '1.0', context: 'cmp', method, params }),
  },
});
const param = (query: string): Ask => ({
  what: `param.cgi?${query}`,
  request: { path: `/axis-cgi/param.cgi?${query}` },
});

/** Every discovery, identity, flag and parameter request a client makes. */
const ASKS: Ask[] = [
  rpc('apidiscovery.cgi', 'getApiList', {}, true),
  rpc('apidiscovery.cgi', 'getApiList', { id: 'feature-flag' }, true),
  rpc('apidiscovery.cgi', 'getSupportedVersions', {}, true),
  rpc('basicdeviceinfo.cgi', 'getAllUnrestrictedProperties', {}, true),
  rpc('basicdeviceinfo.cgi', 'getAllProperties'),
  rpc('basicdeviceinfo.cgi', 'getProperties', { propertyList: ['SerialNumber', 'ProdNbr', 'SocSerialNumber'] }),
  rpc('basicdeviceinfo.cgi', 'getProperties', { propertyList: ['NoSuchField'] }),
  rpc('basicdeviceinfo.cgi', 'getSupportedVersions'),
  rpc('featureflag.cgi', 'listAll'),
  rpc('featureflag.cgi', 'get', { names: ['bwc_gnss_track_upload', 'acme_night_mode'] }),
  rpc('featureflag.cgi', 'get', { names: ['missing_flag'] }),
  rpc('featureflag.cgi', 'getSupportedVersions'),
  param('action=list'),
  param('action=list&group=Brand'),
  param('action=list&group=root.Properties.System,Network.eth0'),
  param('action=list&group=IOPort.*.Input'),
  param('action=list&group=NoSuchGroup'),
];

/** Status, type and body of every ask, plus the realm of a challenge. */
async function answers(url: string): Promise<string[]> {
  const out: string[] = [];
  for (const ask of ASKS) {
    const answer = ask.anonymous ? await sendRequest(url, ask.request) : await digestRequest(url, ask.request);
    out.push(`${ask.what} -> ${answer.status} ${String(answer.headers['content-type'])}\n${answer.body}`);
  }
  const challenge = await sendRequest(url, { path: '/axis-cgi/param.cgi?action=list' });
  out.push(`realm ${/realm="([^"]*)"/.exec(challengesOf(challenge).join(' '))?.[1] ?? 'none'}`);
  return out;
}

describe('bwc-emu clone (issue 32)', () => {
  let dir: string;
  let original: DeviceHandle;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bwc-clone-'));
    original = await startDevice({
      persona: 'axis',
      serial: 'B8A44F0C1D2E',
      identity: { Brand: 'Acme', ProdNbr: 'W900', Version: '12.4.1', Soc: 'Ambarella CV5' },
      flags: [
        ...DEFAULT_FLAGS,
        { name: 'acme_night_mode', description: 'Night mode, = and # in the text', defaultValue: false, value: true },
      ],
    });
    // A value set at run time is what the clone must start with.
    await original.setFlags({ bwc_gnss_track_upload: false });
  });

  afterAll(async () => {
    await original.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('clones a device into a persona file that --persona FILE and the API serve byte for byte', async () => {
    const file = join(dir, 'w900.yaml');
    const c = capture();
    expect(await main(['clone', '--url', original.url, '--user', 'root', '--password', 'pass', '-o', file], c.io)).toBe(
      0,
    );
    expect(c.out()).toContain(`written to ${file}`);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain('pass\n');
    expect(text).toContain('format: bwc-emu-persona/1');
    const expected = await answers(original.url);

    // The command line: bwc-emu --persona FILE.
    const run = capture();
    const exit = main(['--persona', file, '--port', '0', '--no-control', '--log-level', 'silent'], run.io);
    await run.started;
    const ready = JSON.parse(run.out().split('\n')[0].slice('bwc-emu ready '.length)) as {
      devices: { urls: { base: string } }[];
    };
    expect(await answers(ready.devices[0].urls.base)).toEqual(expected);
    run.stop();
    expect(await exit).toBe(0);

    // The API: device: { persona: <a loaded persona file> }.
    const loaded = loadPersonaFile(file);
    if (!loaded.ok) throw new Error(loaded.error.message);
    const clone = await startDevice({ persona: loaded.value });
    try {
      expect(await answers(clone.url)).toEqual(expected);
    } finally {
      await clone.close();
    }
  });

  it('serves the versions a cloned device names, and refuses a version it does not', async () => {
    const file = join(dir, 'versions.yaml');
    expect(await main(['clone', '--url', original.url, '-o', file], capture().io)).toBe(0);
    const loaded = loadPersonaFile(file);
    if (!loaded.ok) throw new Error(loaded.error.message);
    expect(loaded.value.apiVersions).toEqual({
      'api-discovery': ['1.0'],
      'basic-device-info': ['1.0', '1.1', '1.2', '1.3'],
      'feature-flag': ['1.0'],
    });
    const apiVersions = { ...loaded.value.apiVersions, 'feature-flag': ['1.0', '1.1'] };
    const clone = await startDevice({ persona: { ...loaded.value, apiVersions } });
    try {
      const ask = (apiVersion: string, method: string) =>
        digestRequest(clone.url, {
          method: 'POST',
          path: '/axis-cgi/featureflag.cgi',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ apiVersion, method, params: {} }),
        });
      expect((await ask('1.0', 'getSupportedVersions')).body).toContain('"apiVersions":["1.0","1.1"]');
      expect((await ask('1.1', 'listAll')).body).toContain('"flags":');
      expect((await ask('1.2', 'listAll')).body).toContain('API version not supported: 1.2 (supported: 1.0, 1.1)');
    } finally {
      await clone.close();
    }
  });

  it('refuses a --persona that is neither a name nor a persona file, naming the file', async () => {
    const c = capture();
    expect(await main(['--persona', join(dir, 'none.yaml'), '--port', '0', '--log-level', 'silent'], c.io)).toBe(2);
    expect(c.err()).toMatch(
      /--persona ".*none\.yaml" is neither a persona \(svc, axis\) nor a persona file: .*cannot read/,
    );
  });
});
