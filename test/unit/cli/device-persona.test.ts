/** `--persona`, `--namespace`, `--realm` and the prefixes on the command line: parsed, precedence kept, errors one line. */
import { main } from '../../../src/cli/main';
import type { ReadyDocument } from '../../../src/cli/ready';
import { capture } from '../../helpers/cli-capture';

/** Runs `bwc-emu ARGV` until the banner, returns the ready document, stops it. */
async function readyWith(argv: string[]): Promise<ReadyDocument> {
  const c = capture();
  const exit = main(['--port', '0', '--log-level', 'silent', '--no-control', ...argv], c.io);
  try {
    await Promise.race([c.started, exit.then((code) => Promise.reject(new Error(`exit ${code}: ${c.err()}`)))]);
  } finally {
    c.stop();
  }
  expect(await exit).toBe(0);
  const line = c.out().split('\n')[0];
  expect(line.startsWith('bwc-emu ready ')).toBe(true);
  return JSON.parse(line.slice('bwc-emu ready '.length)) as ReadyDocument;
}

/** The paths of a device's URLs: `{ featureFlags: '/axis-cgi/featureflag.cgi', ... }`. */
function paths(device: ReadyDocument['devices'][number]): Record<string, string> {
  const urls: Readonly<Record<string, string>> = { ...device.urls };
  return Object.fromEntries(Object.entries(urls).map(([k, v]) => [k, new URL(v).pathname]));
}

describe('bwc-emu --persona', () => {
  it('axis: /axis-cgi, /vapix and realm AXIS_<serial>', async () => {
    const [device] = (await readyWith(['--persona', 'axis'])).devices;
    expect(paths(device)).toMatchObject({
      featureFlags: '/axis-cgi/featureflag.cgi',
      sessionToken: '/axis-cgi/wssession.cgi',
      eventStream: '/vapix/ws-data-stream',
    });
    expect(device.realm).toBe('AXIS_ACCC8E000001');
  });

  it('explicit --cgi-prefix, --ws-prefix and --realm win over the persona', async () => {
    const [device] = (
      await readyWith(['--persona', 'axis', '--cgi-prefix', '/svc-cgi', '--ws-prefix', '/ws', '--realm', 'Cam 1'])
    ).devices;
    expect(paths(device)).toMatchObject({
      featureFlags: '/svc-cgi/featureflag.cgi',
      eventStream: '/ws/ws-data-stream',
    });
    expect(device.realm).toBe('Cam 1');
  });

  it('without it, the spec words, and --cgi-prefix alone still names the realm', async () => {
    const [plain] = (await readyWith([])).devices;
    expect(paths(plain)).toMatchObject({
      featureFlags: '/svc-cgi/featureflag.cgi',
      eventStream: '/svc/ws-data-stream',
    });
    expect(plain.realm).toBe('SVC_ACCC8E000001');
    const [prefixed] = (await readyWith(['--cgi-prefix', '/axis-cgi'])).devices;
    expect(prefixed.realm).toBe('AXIS_ACCC8E000001');
  });

  it.each([
    [
      ['--persona', 'acme'],
      /--persona "acme" is neither a persona \(svc, axis\) nor a persona file: acme:1:1: cannot read/,
    ],
    [['--namespace', 'tns axis'], /^bwc-emu: namespace "tns axis" must be a topic prefix like tnsaxis/],
    [['--namespace', 'tns1'], /namespace "tns1" is the ONVIF topic namespace/],
    [['--realm', ''], /realm "" must be 1-128 characters on one line/],
  ])('refuses %j with a one-line error and exit code 2', async (argv, message) => {
    const c = capture();
    expect(await main([...argv, '--port', '0', '--log-level', 'silent'], c.io)).toBe(2);
    expect(c.err()).toMatch(message);
    expect(c.err().trim().split('\n').length).toBeLessThanOrEqual(2);
  });

  it('--help lists the presets and the new flags', async () => {
    const c = capture();
    expect(await main(['--help'], c.io)).toBe(0);
    const help = c.out().replace(/\s+/g, ' ');
    for (const text of ['--persona', '--namespace', '--realm', 'axis (/axis-cgi, /vapix, AXIS_<serial>, tnsaxis)'])
      expect(help).toContain(text);
  });
});
