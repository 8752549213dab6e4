/**
 * Interop with the OpenStack Swift command-line client, Debian's python3-swiftclient
 * (`/usr/bin/swift`, whose shebang is Debian's /usr/bin/python3), against the
 * reference content destination with v1 auth: `swift -A {authUrl} -U bws -K secret`.
 * Covers stat, upload with metadata (a subdirectory and a ~3 MB file among the
 * files), listings, container and object POST, download compared byte for byte,
 * delete, and the same over HTTPS with `--os-cacert`. Skipped, with a message
 * naming the package, when /usr/bin/swift is missing or cannot run.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readTree, runTool, sampleTree, toolVersion, treeDigests, type ToolRun, writeTree } from '../helpers/cli-tool';
import { destinationStarter } from '../helpers/destinations';
import type { DestinationHandle } from '../../src';

const SWIFT = '/usr/bin/swift';
const version = toolVersion(SWIFT, 'swift CLI', 'python3-swiftclient');
const describeWithSwift = version ? describe : describe.skip;

/** Several swift runs per test, each allowed 20 s. */
const TEST_TIMEOUT = 90_000;

describeWithSwift(`swift CLI (${version ?? 'not installed'})`, () => {
  const start = destinationStarter();
  let scratch: string;

  beforeEach(() => {
    scratch = mkdtempSync(join(tmpdir(), 'bwc-swift-cli-'));
  });
  afterEach(() => {
    rmSync(scratch, { recursive: true, force: true });
  });

  /** Runs `swift -A {authUrl} -U bws -K secret [--os-cacert file] args...`. */
  async function swift(
    destination: DestinationHandle,
    args: string[],
    options: { cwd?: string; key?: string } = {},
  ): Promise<ToolRun> {
    const tls: string[] = [];
    if (destination.certificate) {
      const caFile = join(scratch, 'ca.pem');
      writeFileSync(caFile, destination.certificate);
      tls.push('--os-cacert', caFile);
    }
    return runTool(SWIFT, ['-A', destination.authUrl, '-U', 'bws', '-K', options.key ?? 'secret', ...tls, ...args], {
      cwd: options.cwd,
    });
  }

  /** Runs swift and expects success, showing its stderr otherwise. */
  async function swiftOk(
    destination: DestinationHandle,
    args: string[],
    options: { cwd?: string } = {},
  ): Promise<string> {
    const run = await swift(destination, args, options);
    expect({ args, code: run.code, stderr: run.stderr }).toEqual({ args, code: 0, stderr: '' });
    return run.stdout;
  }

  /** `swift stat` output as a map of its "Key: value" lines. */
  function fields(stdout: string): Record<string, string> {
    const out: Record<string, string> = {};
    for (const line of stdout.split('\n')) {
      const match = /^\s*([^:]+?):\s?(.*)$/.exec(line);
      if (match) out[match[1]] = match[2].trim();
    }
    return out;
  }

  const lines = (stdout: string): string[] => stdout.split('\n').filter((l) => l !== '');

  /** Uploads the sample tree to `container` with `Color: blue`, from inside its directory. */
  async function uploadSample(
    destination: DestinationHandle,
    container: string,
  ): Promise<ReturnType<typeof sampleTree>> {
    const tree = sampleTree();
    const source = join(scratch, 'upload');
    writeTree(source, tree);
    const stdout = await swiftOk(destination, ['upload', '-m', 'Color: blue', container, '.'], { cwd: source });
    expect(lines(stdout).sort()).toEqual(Object.keys(tree).sort());
    return tree;
  }

  it(
    'stat shows the account; a wrong key is refused',
    async () => {
      const destination = await start();
      const account = fields(await swiftOk(destination, ['stat']));
      expect(account).toMatchObject({ Account: 'AUTH_bws', Containers: '1' });
      const refused = await swift(destination, ['stat'], { key: 'wrong' });
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toMatch(/Auth GET failed: .*401/);
    },
    TEST_TIMEOUT,
  );

  it(
    'upload -m, list, stat of an object with its metadata',
    async () => {
      const destination = await start();
      const tree = await uploadSample(destination, 'evidence');

      expect(lines(await swiftOk(destination, ['list']))).toEqual(['System', 'evidence']);
      expect(lines(await swiftOk(destination, ['list', 'evidence']))).toEqual([
        'clips/clip-0001.json',
        'hello.txt',
        'video.bin',
      ]);
      expect(lines(await swiftOk(destination, ['list', 'evidence', '--prefix', 'clips/']))).toEqual([
        'clips/clip-0001.json',
      ]);

      const object = fields(await swiftOk(destination, ['stat', 'evidence', 'video.bin']));
      expect(object).toMatchObject({
        Account: 'AUTH_bws',
        Container: 'evidence',
        Object: 'video.bin',
        'Content Length': String(tree['video.bin'].length),
        'Meta Color': 'blue',
      });
      expect(object['Meta Mtime']).toMatch(/^\d+(\.\d+)?$/);
      const container = fields(await swiftOk(destination, ['stat', 'evidence']));
      expect(container).toMatchObject({
        Container: 'evidence',
        Objects: '3',
        Bytes: String(Object.values(tree).reduce((n, b) => n + b.length, 0)),
      });
      const account = fields(await swiftOk(destination, ['stat']));
      expect(account).toMatchObject({ Containers: '2' });
    },
    TEST_TIMEOUT,
  );

  it(
    'download of the container compared byte for byte',
    async () => {
      const destination = await start();
      const tree = await uploadSample(destination, 'evidence');
      const target = join(scratch, 'download');
      await swiftOk(destination, ['download', 'evidence', '-D', target]);
      expect(treeDigests(readTree(target))).toEqual(treeDigests(tree));
    },
    TEST_TIMEOUT,
  );

  it(
    'post -m on a container and on an object',
    async () => {
      const destination = await start();
      await uploadSample(destination, 'evidence');

      expect(await swiftOk(destination, ['post', '-m', 'Owner: me', 'evidence'])).toBe('');
      expect(fields(await swiftOk(destination, ['stat', 'evidence']))).toMatchObject({
        'Meta Owner': 'me',
        Objects: '3',
      });

      expect(await swiftOk(destination, ['post', '-m', 'Shape: round', 'evidence', 'hello.txt'])).toBe('');
      const object = fields(await swiftOk(destination, ['stat', 'evidence', 'hello.txt']));
      expect(object).toMatchObject({
        'Meta Shape': 'round',
        'Content Length': String(Buffer.byteLength('hello from bwc-emu\n')),
      });
      // An object POST replaces the metadata, as in Swift.
      expect(object['Meta Color']).toBeUndefined();
      // The other objects keep theirs.
      expect(fields(await swiftOk(destination, ['stat', 'evidence', 'video.bin']))).toMatchObject({
        'Meta Color': 'blue',
      });
    },
    TEST_TIMEOUT,
  );

  it(
    'delete removes the objects and the container',
    async () => {
      const destination = await start();
      await uploadSample(destination, 'evidence');
      await swiftOk(destination, ['delete', 'evidence']);
      expect(lines(await swiftOk(destination, ['list']))).toEqual(['System']);
      const missing = await swift(destination, ['stat', 'evidence']);
      expect(missing.code).not.toBe(0);
      expect(missing.stderr).toMatch(/Container 'evidence' not found/);
    },
    TEST_TIMEOUT,
  );

  it(
    'works over HTTPS with --os-cacert',
    async () => {
      const destination = await start({ tls: true });
      expect(destination.authUrl).toMatch(/^https:/);
      await uploadSample(destination, 'secure');
      expect(lines(await swiftOk(destination, ['list', 'secure']))).toEqual([
        'clips/clip-0001.json',
        'hello.txt',
        'video.bin',
      ]);
      expect(fields(await swiftOk(destination, ['stat', 'secure', 'hello.txt']))).toMatchObject({
        'Meta Color': 'blue',
      });
      const refused = await runTool(SWIFT, ['-A', destination.authUrl, '-U', 'bws', '-K', 'secret', 'stat']);
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toMatch(/certificate verify failed|CERTIFICATE_VERIFY_FAILED/i);
    },
    TEST_TIMEOUT,
  );

  it(
    'downloads over HTTPS with --os-cacert',
    async () => {
      const destination = await start({ tls: true });
      const tree = await uploadSample(destination, 'secure');
      const target = join(scratch, 'download');
      await swiftOk(destination, ['download', 'secure', '-D', target]);
      expect(treeDigests(readTree(target))).toEqual(treeDigests(tree));
    },
    TEST_TIMEOUT,
  );

  /**
   * Runs a swift command the destination must refuse: exit 1, the 501 and the feature's
   * name in stderr. `--retries 0`: swift retries every 5xx (1+2+4+8+16 s by default)
   * before failing the same way.
   */
  async function swiftRefused(destination: DestinationHandle, args: string[], feature: string, cwd?: string) {
    const run = await swift(destination, ['--retries', '0', ...args], { cwd });
    expect({ args, code: run.code }).toEqual({ args, code: 1 });
    expect(run.stderr).toContain('501 Not Implemented');
    expect(run.stderr).toContain(feature);
  }

  /** Whether `swift stat container object` finds the object. */
  async function exists(destination: DestinationHandle, container: string, object: string): Promise<boolean> {
    return (await swift(destination, ['--retries', '0', 'stat', container, object])).code === 0;
  }

  it(
    'upload --segment-size (a dynamic large object manifest) is refused, not stored as a 0-byte object',
    async () => {
      const destination = await start();
      writeFileSync(join(scratch, 'big.bin'), Buffer.alloc(3000, 7));
      await swiftRefused(
        destination,
        ['upload', '--segment-size', '1000', 'evidence', 'big.bin'],
        'dynamic large objects',
        scratch,
      );
      expect(await exists(destination, 'evidence', 'big.bin')).toBe(false);
    },
    TEST_TIMEOUT,
  );

  it(
    'upload --use-slo (a static large object manifest) is refused, not stored as its JSON manifest',
    async () => {
      const destination = await start();
      writeFileSync(join(scratch, 'big.bin'), Buffer.alloc(3000, 7));
      await swiftRefused(
        destination,
        ['upload', '--use-slo', '--segment-size', '1000', 'evidence', 'big.bin'],
        'static large objects',
        scratch,
      );
      expect(await exists(destination, 'evidence', 'big.bin')).toBe(false);
    },
    TEST_TIMEOUT,
  );

  it(
    'copy, an ACL, an expiry and a quota are refused and change nothing',
    async () => {
      const destination = await start();
      await uploadSample(destination, 'evidence');
      await swiftRefused(
        destination,
        ['copy', '-d', '/evidence/copy.bin', 'evidence', 'video.bin'],
        'server-side copies',
      );
      expect(await exists(destination, 'evidence', 'copy.bin')).toBe(false);
      await swiftRefused(destination, ['post', '-r', '.r:*', 'evidence'], 'access control lists');
      await swiftRefused(destination, ['post', '-H', 'X-Delete-After: 100', 'evidence', 'video.bin'], 'object expiry');
      await swiftRefused(destination, ['post', '-m', 'Quota-Bytes:100', 'evidence'], 'quotas');
      const container = fields(await swiftOk(destination, ['stat', 'evidence']));
      expect(container['Read ACL']).toBe('');
      expect(container['Meta Quota-Bytes']).toBeUndefined();
      // The object POST was refused whole: its metadata is still there.
      expect(fields(await swiftOk(destination, ['stat', 'evidence', 'video.bin']))).toMatchObject({
        'Meta Color': 'blue',
      });
    },
    TEST_TIMEOUT,
  );

  it(
    'capabilities lists what is served and what is not; upload guesses the Content-Type from the name',
    async () => {
      const destination = await start();
      const capabilities = await swiftOk(destination, ['capabilities']);
      expect(capabilities).toMatch(/max_file_size: 5368709120/);
      expect(capabilities).toMatch(/Additional middleware: bwc_emu/);
      expect(capabilities).toMatch(/not_implemented: \[.*'static large objects'.*\]/);
      writeFileSync(join(scratch, 'clip.mkv'), 'not really a video');
      await swiftOk(destination, ['upload', 'evidence', 'clip.mkv'], { cwd: scratch });
      expect(fields(await swiftOk(destination, ['stat', 'evidence', 'clip.mkv']))).toMatchObject({
        'Content Type': 'video/x-matroska',
      });
    },
    TEST_TIMEOUT,
  );
});
