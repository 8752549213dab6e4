/**
 * Interop with rclone (Debian's /usr/bin/rclone) through its Swift backend with v1
 * auth, against the reference content destination: a temporary rclone config
 * (`type = swift`, `auth_version = 1`) given with RCLONE_CONFIG, `rclone copy` of a
 * directory with a subdirectory and a ~3 MB random file, `rclone ls` / `lsd`,
 * `rclone check` (MD5s from the listing against the local files), a second copy that
 * finds nothing to do, copying back and comparing bytes, and the same over HTTPS
 * with `--ca-cert`. Skipped, with a message, when /usr/bin/rclone is missing.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  readTree,
  runTool,
  sampleTree,
  toolEnv,
  toolVersion,
  treeDigests,
  type ToolRun,
  writeTree,
} from '../helpers/cli-tool';
import { destinationStarter } from '../helpers/destinations';
import type { DestinationHandle } from '../../src';

const RCLONE = '/usr/bin/rclone';
const version = toolVersion(RCLONE, 'rclone', 'rclone', ['version']);
const describeWithRclone = version ? describe : describe.skip;

/** Several rclone runs per test, each allowed 20 s. */
const TEST_TIMEOUT = 90_000;

describeWithRclone(`rclone (${version ?? 'not installed'})`, () => {
  const start = destinationStarter();
  let scratch: string;

  beforeEach(() => {
    scratch = mkdtempSync(join(tmpdir(), 'bwc-rclone-'));
  });
  afterEach(() => {
    rmSync(scratch, { recursive: true, force: true });
  });

  /** Writes the config of remote `emu:` for `destination` (and its CA file for HTTPS). */
  function configure(destination: DestinationHandle, key = 'secret'): string[] {
    const config = join(scratch, 'rclone.conf');
    writeFileSync(
      config,
      [
        '[emu]',
        'type = swift',
        'user = bws',
        `key = ${key}`,
        `auth = ${destination.authUrl}`,
        'auth_version = 1',
        '',
      ].join('\n'),
    );
    if (!destination.certificate) return [];
    const caFile = join(scratch, 'ca.pem');
    writeFileSync(caFile, destination.certificate);
    return ['--ca-cert', caFile];
  }

  /** Runs rclone with the config written by `configure()`; one attempt, no retries. */
  function rclone(args: string[], extra: string[] = []): Promise<ToolRun> {
    const env = toolEnv({
      RCLONE_CONFIG: join(scratch, 'rclone.conf'),
      HOME: scratch,
      XDG_CACHE_HOME: join(scratch, 'cache'),
    });
    return runTool(RCLONE, [...args, ...extra, '--retries', '1', '--low-level-retries', '1'], { env });
  }

  async function rcloneOk(args: string[], extra: string[] = []): Promise<ToolRun> {
    const run = await rclone(args, extra);
    expect({ args, code: run.code, stderr: run.code === 0 ? '' : run.stderr }).toEqual({ args, code: 0, stderr: '' });
    return run;
  }

  /** `rclone ls` output as path -> size. */
  function sizes(stdout: string): Record<string, number> {
    const out: Record<string, number> = {};
    for (const line of stdout.split('\n')) {
      const match = /^\s*(\d+) (.+)$/.exec(line);
      if (match) out[match[2]] = Number(match[1]);
    }
    return out;
  }

  /** Copy up, ls, lsd, check, a second copy with nothing to do. */
  async function upAndCheck(destination: DestinationHandle): Promise<ReturnType<typeof sampleTree>> {
    const tls = configure(destination);
    const tree = sampleTree();
    const source = join(scratch, 'up');
    writeTree(source, tree);

    await rcloneOk(['copy', source, 'emu:evidence'], tls);

    const listed = await rcloneOk(['ls', 'emu:evidence'], tls);
    expect(sizes(listed.stdout)).toEqual(
      Object.fromEntries(Object.entries(tree).map(([path, content]) => [path, content.length])),
    );
    const containers = await rcloneOk(['lsd', 'emu:'], tls);
    expect(containers.stdout).toMatch(/ 3 evidence\n/);
    expect(containers.stdout).toMatch(/ System\n/);

    const check = await rclone(['check', source, 'emu:evidence'], tls);
    expect({ code: check.code, stderr: check.stderr }).toEqual({
      code: 0,
      stderr: expect.stringContaining('0 differences found') as string,
    });
    expect(check.stderr).toContain('3 matching files');

    // Sizes, MD5s and the modification times rclone stored as metadata all match: nothing to copy.
    const again = await rcloneOk(['copy', '-v', source, 'emu:evidence'], tls);
    expect(again.stderr).not.toMatch(/Copied/);
    return tree;
  }

  it(
    'copy up, ls, lsd, check with 0 differences, a second copy with nothing to do',
    async () => {
      const destination = await start();
      await upAndCheck(destination);
    },
    TEST_TIMEOUT,
  );

  it(
    'check finds a changed file',
    async () => {
      const destination = await start();
      const tls = configure(destination);
      const source = join(scratch, 'up');
      writeTree(source, sampleTree());
      await rcloneOk(['copy', source, 'emu:evidence'], tls);
      writeFileSync(join(source, 'hello.txt'), 'changed, same len\n!');
      const check = await rclone(['check', source, 'emu:evidence'], tls);
      expect(check.code).not.toBe(0);
      expect(check.stderr).toMatch(/1 differences found/);
    },
    TEST_TIMEOUT,
  );

  it(
    'a wrong key is refused',
    async () => {
      const destination = await start();
      const tls = configure(destination, 'wrong');
      const run = await rclone(['lsd', 'emu:'], tls);
      expect(run.code).not.toBe(0);
      expect(run.stderr).toMatch(/401|Unauthorized|Authorization Failed/i);
    },
    TEST_TIMEOUT,
  );

  it(
    'copy back compares byte for byte',
    async () => {
      const destination = await start();
      const tree = await upAndCheck(destination);
      const target = join(scratch, 'down');
      await rcloneOk(['copy', 'emu:evidence', target], configure(destination));
      expect(treeDigests(readTree(target))).toEqual(treeDigests(tree));
    },
    TEST_TIMEOUT,
  );

  it(
    'over HTTPS with --ca-cert: copy up, ls, check with 0 differences',
    async () => {
      const destination = await start({ tls: true });
      expect(destination.authUrl).toMatch(/^https:/);
      await upAndCheck(destination);
      // Without the certificate the self-signed server is not trusted.
      const untrusted = await rclone(['lsd', 'emu:']);
      expect(untrusted.code).not.toBe(0);
      expect(untrusted.stderr).toMatch(/certificate/i);
    },
    TEST_TIMEOUT,
  );

  it(
    'over HTTPS with --ca-cert: copy back compares byte for byte',
    async () => {
      const destination = await start({ tls: true });
      const tree = await upAndCheck(destination);
      const target = join(scratch, 'down');
      await rcloneOk(['copy', 'emu:evidence', target], configure(destination));
      expect(treeDigests(readTree(target))).toEqual(treeDigests(tree));
    },
    TEST_TIMEOUT,
  );

  it(
    'cat --offset/--count and a negative offset print the right bytes (Range requests, 206)',
    async () => {
      const destination = await start();
      const tls = configure(destination);
      const source = join(scratch, 'digits.txt');
      writeFileSync(source, '0123456789abcdefghij');
      await rcloneOk(['copyto', source, 'emu:evidence/digits.txt'], tls);
      expect((await rcloneOk(['cat', '--offset', '5', '--count', '10', 'emu:evidence/digits.txt'], tls)).stdout).toBe(
        '56789abcde',
      );
      expect((await rcloneOk(['cat', '--offset', '-4', 'emu:evidence/digits.txt'], tls)).stdout).toBe('ghij');
      expect((await rcloneOk(['cat', '--offset', '15', 'emu:evidence/digits.txt'], tls)).stdout).toBe('fghij');
    },
    TEST_TIMEOUT,
  );

  it(
    'a multi-threaded download (4 ranged streams) equals the upload byte for byte',
    async () => {
      const destination = await start();
      const tls = configure(destination);
      // Not a multiple of the stream size, so the last stream is a short one.
      const content = randomBytes(6 * 1024 * 1024 + 12_345);
      const source = join(scratch, 'clip.mkv');
      writeFileSync(source, content);
      await rcloneOk(['copyto', source, 'emu:evidence/clip.mkv'], tls);
      const target = join(scratch, 'down.mkv');
      const run = await rcloneOk(
        [
          'copyto',
          '-vv',
          '--multi-thread-cutoff',
          '1M',
          '--multi-thread-streams',
          '4',
          'emu:evidence/clip.mkv',
          target,
        ],
        tls,
      );
      expect(run.stderr).toMatch(/Starting multi-thread copy with 4 parts/);
      expect(createHash('md5').update(readFileSync(target)).digest('hex')).toBe(
        createHash('md5').update(content).digest('hex'),
      );
    },
    TEST_TIMEOUT,
  );
});
