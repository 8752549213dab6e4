/**
 * `bwc-emu upload` as a newcomer meets it: --help, one-line refusals, every problem
 * of a bad connection file or plan at once, a plan to start from, a run against the
 * reference destination with its table and JSON report, a run that a fault breaks,
 * an unreachable destination, and `--check`.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { type ConformanceResult, DEFAULT_PLAN, loadPlanFile, PlanSchema, type UploadReport } from '../../src';
import { PLAN_SCHEMA_FILE } from '../../src/bws/plan';
import { main } from '../../src/cli/main';
import { capture } from '../helpers/cli-capture';
import { destinationStarter } from '../helpers/destinations';

const start = destinationStarter();

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'bwc-cli-upload-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A connection file that parses, pointing at `authUrl`. */
const validConnection = (authUrl: string) => ({
  ConnectionFileVersion: '1.0',
  SiteName: 'Test site',
  ApplicationName: 'bwc-emu tests',
  ApplicationVersion: '1.0',
  AuthenticationTokenURI: [authUrl],
  BlobAPIUserName: 'bws',
  BlobAPIKey: 'secret',
});

function writeJson(name: string, value: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(value, null, 2));
  return path;
}

/** What `--report` writes: the upload report, and after `--check` the conformance verdict and findings. */
type ReportFile = UploadReport & { conformance?: Pick<ConformanceResult, 'passed' | 'findings'> };

function readReport(path: string): ReportFile {
  return JSON.parse(readFileSync(path, 'utf8')) as ReportFile;
}

function writeText(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

async function upload(args: string[], isTty = false) {
  const c = capture();
  c.io.isTty = isTty;
  const code = await main(['upload', ...args], c.io);
  return { code, out: c.out(), err: c.err() };
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

const ONE_RECORDING_PLAN = [
  'users: [ { id: u1, name: User One } ]',
  'devices: [ { serial: CAM1, name: Camera One } ]',
  'recordings:',
  '  - { user: u1, device: CAM1, trigger-on: 2025-01-02T03:04:05Z, clips: 2, clip-size: 20KB, clip-duration: 5s }',
  '',
].join('\n');
const ONE_RECORDING_CONTAINER = 'u1_CAM1_20250102T030405Z';

describe('bwc-emu upload', () => {
  it('prints its options with --help', async () => {
    const { code, out } = await upload(['--help']);
    expect(code).toBe(0);
    for (const flag of [
      '--connection-file',
      '--plan',
      '--concurrency',
      '--check',
      '--report',
      '--retries',
      '--retry-budget',
      '--retry-base',
      '--retry-max',
      '--log-level',
      '--generate-plan',
    ])
      expect(out).toContain(flag);
  });

  it('is listed in the main usage', async () => {
    const c = capture();
    expect(await main(['--help'], c.io)).toBe(0);
    expect(c.out()).toContain('upload --connection-file FILE');
  });

  it.each([
    [[], /Missing required argument: connection-file/],
    [['--connection-file', 'cd.json', '--concurrency', '0'], /--concurrency must be a whole number of 1 or more/],
    [['--connection-file', 'cd.json', '--retries', '-1'], /--retries must be a whole number of 0 or more/],
    [['--connection-file', 'cd.json', '--retry-base', '500'], /--retry-base: duration "500" has no unit/],
    [['--connection-file', 'cd.json', '--retry-budget', 'long'], /--retry-budget: duration "long" is not a duration/],
    [['--connection-file', 'cd.json', '--retry-max=-1s'], /--retry-max: duration "-1s" is negative/],
    [['--connection-file', 'cd.json', '--retries', '1.5'], /--retries must be a whole number of 0 or more/],
    [['--connection-file', 'cd.json', '--retries', '1000000'], /--retries must be at most 999999, not 1000000/],
    [['--connection-file', 'cd.json', '--colour', 'red'], /unknown option --colour/],
  ])('refuses %j in one line with exit 2', async (args, message) => {
    const { code, err } = await upload(args);
    expect(code).toBe(2);
    expect(err).toMatch(message);
    expect(err.trim().split('\n')[0]).toMatch(/^bwc-emu upload: /);
  });

  it('lists every problem of a connection file, one per line, each naming its field', async () => {
    const file = writeJson('bad.json', {
      ConnectionFileVersion: '2.0',
      SiteName: '',
      AuthenticationTokenURI: ['ftp://example.com'],
      BlobAPIUserName: 'bws',
      Colour: 'red',
    });
    const { code, err, out } = await upload(['--connection-file', file]);
    expect(code).toBe(2);
    expect(out).toBe('');
    const lines = err.trim().split('\n');
    expect(lines.length).toBeGreaterThanOrEqual(6);
    for (const line of lines)
      expect(line).toMatch(
        new RegExp(`^bwc-emu upload: (warning: )?--connection-file ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: `),
      );
    // An unknown field is no error, but it is named: it may be a misspelt one.
    expect(lines.at(-1)).toMatch(/^bwc-emu upload: warning: .*: unknown field\(s\) ignored: Colour$/);
    for (const field of [
      'ConnectionFileVersion',
      'SiteName',
      'ApplicationName',
      'ApplicationVersion',
      'AuthenticationTokenURI',
      'BlobAPIKey',
      'Colour',
    ])
      expect(err).toContain(field);
  });

  it("uploads with the vendor example installer's connection file: BlobAPI and empty keys are warnings, not errors", async () => {
    const destination = await start();
    const connection = writeJson('cd.json', {
      ...destination.connectionFile(),
      BlobAPI: 'Swift',
      WantEncryption: false,
      PublicKey: '',
      PublicKeyId: '',
    });
    const plan = writeText('plan.yaml', ONE_RECORDING_PLAN);
    const { code, err, out } = await upload(['--connection-file', connection, '--plan', plan]);
    expect(err).toBe(`bwc-emu upload: warning: --connection-file ${connection}: unknown field(s) ignored: BlobAPI\n`);
    expect(out).toContain('Total: 1 recording: 1 transferred');
    expect(code).toBe(0);
  });

  it('says so in one line when the connection file cannot be read or is not JSON', async () => {
    const missing = await upload(['--connection-file', join(dir, 'nope.json')]);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/^bwc-emu upload: --connection-file \S+nope\.json: cannot read it: .*ENOENT/);
    const notJson = await upload(['--connection-file', writeText('cd.json', '{ "SiteName": ')]);
    expect(notJson.code).toBe(2);
    expect(notJson.err.trim().split('\n')).toHaveLength(1);
    expect(notJson.err).toMatch(/cd\.json: not JSON/);
  });

  it('reports plan errors as file:line:col, every one, before anything is uploaded', async () => {
    const connection = writeJson('cd.json', validConnection('http://127.0.0.1:9/auth/v1.0'));
    const plan = writeText(
      'plan.yaml',
      [
        'users: [ { id: u1, name: User One } ]',
        'devices: [ { serial: CAM1, name: Camera One } ]',
        'recordings:',
        '  - { user: u1, device: CAM1, clips: 0, clip-size: lots }',
        '  - { user: u1, device: CAM1, colour: red }',
        '',
      ].join('\n'),
    );
    const { code, err, out } = await upload(['--connection-file', connection, '--plan', plan]);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err.split('\n')).toEqual([
      `${plan}:4:38: Too small: expected number to be >=1`,
      `${plan}:4:52: "lots" is not a size (e.g. 500MB, 2GiB, 1048576)`,
      `${plan}:5:31: unknown key "colour" in recordings.1`,
      `bwc-emu upload: --plan ${plan} has 3 errors`,
      '',
    ]);
  });

  it('reports recordings of users and cameras the plan does not have at their line and column', async () => {
    const connection = writeJson('cd.json', validConnection('http://127.0.0.1:9/auth/v1.0'));
    const plan = writeText(
      'plan.yaml',
      [
        'users: [ { id: u1, name: User One } ]',
        'devices: []',
        'recordings:',
        '  - { user: u2, device: CAM9 }',
        '',
      ].join('\n'),
    );
    const { code, err } = await upload(['--connection-file', connection, '--plan', plan]);
    expect(code).toBe(2);
    expect(err).toContain(`${plan}:4:13: user "u2" is not in users: (u1)`);
    expect(err).toContain(`${plan}:4:25: device "CAM9" is not in devices: (none)`);
  });

  it('reports a bad connection file and a bad plan together', async () => {
    const connection = writeJson('cd.json', {
      ...validConnection('http://127.0.0.1:9/auth/v1.0'),
      ContainerType: 'avi',
    });
    const plan = writeText('plan.yaml', 'colour: red\n');
    const { code, err } = await upload(['--connection-file', connection, '--plan', plan]);
    expect(code).toBe(2);
    expect(err).toContain('ContainerType must be "mkv" or "mp4"');
    expect(err).toMatch(/plan\.yaml:1:1: .*colour/);
  });

  it('writes the built-in plan with a schema line; it loads back as the built-in plan and is not overwritten', async () => {
    const file = join(dir, 'plans', 'my-plan.yaml');
    mkdirSync(dirname(file));
    const { code, out } = await upload(['--generate-plan', file]);
    expect(code).toBe(0);
    expect(out).toContain(`--plan ${file}`);
    const text = readFileSync(file, 'utf8');
    const schemaLine = /^# yaml-language-server: \$schema=(\S+)\n/.exec(text);
    expect(schemaLine).not.toBeNull();
    expect(resolve(dirname(file), schemaLine?.[1] ?? '')).toBe(PLAN_SCHEMA_FILE.path);
    const loaded = await loadPlanFile(file);
    expect(loaded.ok ? loaded.value : loaded.error.errors).toEqual(PlanSchema.parse(DEFAULT_PLAN));

    writeFileSync(file, 'users: []\n');
    const again = await upload(['--generate-plan', file]);
    expect(again.code).toBe(2);
    expect(again.err).toMatch(/^bwc-emu upload: --generate-plan \S+: the file exists; it is not overwritten/);
    expect(readFileSync(file, 'utf8')).toBe('users: []\n');
  });

  it('uploads the built-in plan, prints a line per recording and the table, writes the JSON report, exits 0', async () => {
    const destination = await start();
    const connection = writeJson('cd.json', destination.connectionFile());
    const reportFile = join(dir, 'out', 'report.json');
    const { code, out, err } = await upload(['--connection-file', connection, '--report', reportFile]);
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(out).toMatch(/^Uploading 3 recordings \(10 MB\)\n/);
    expect(out.match(/^\S+ -> transferred, \d+\.\d MB, \d+\.\d\d s$/gm)).toHaveLength(3);
    expect(out).toMatch(/^RECORDING +STATUS +CLIPS +BYTES +SECONDS$/m);
    expect(out).toMatch(/^officer_1_AABBCCDD1234_\d{8}T\d{6}Z +transferred +2 +4\.0 MB +\d+\.\d\d$/m);
    expect(out).toMatch(/^officer_2_AABBCCDD1235_\d{8}T\d{6}Z +transferred +1 +3\.0 MB +\d+\.\d\d$/m);
    expect(out).toMatch(
      /^Total: 3 recordings: 3 transferred, 0 not transferred, 0 failed\n {7}10 MB in \d+\.\d\d s \(\d+\.\d\d MB\/s\), \d+ requests \(0 retried\)\n {7}2 users and 2 cameras registered\n/m,
    );
    expect(out).toContain(`Report written to ${reportFile}`);
    const report = readReport(reportFile);
    expect(report.totals).toMatchObject({
      recordings: 3,
      transferred: 3,
      notTransferred: 0,
      failed: 0,
      bytes: 10_000_000,
    });
    expect(report.recordings.map((r) => r.status)).toEqual(['transferred', 'transferred', 'transferred']);
    expect(report.registrationFailures).toEqual([]);
    expect(report.conformance).toBeUndefined();
    expect(destination.recordings()).toHaveLength(3);
  });

  it('on a terminal redraws one progress line, then prints the table', async () => {
    const destination = await start();
    const connection = writeJson('cd.json', destination.connectionFile());
    const { code, out } = await upload(
      ['--connection-file', connection, '--plan', writeText('plan.yaml', ONE_RECORDING_PLAN)],
      true,
    );
    expect(code).toBe(0);
    const [progress, table] = [out.slice(0, out.indexOf('\n')), out.slice(out.indexOf('\n') + 1)];
    expect(progress).toMatch(/^\r\[[#-]+\] +\d+% {2}0\/1 recordings/);
    // The last redraw ends with ESC [ K (erase to the end of the line), spelled \x1b in the pattern.
    expect(progress).toMatch(
      new RegExp(String.raw`\r\[#+\] {2}100% {2}1\/1 recordings {2}40 kB \/ 40 kB {2}\d+\.\d\d MB\/s\x1b\[K$`),
    );
    expect(out).not.toContain(' -> transferred');
    expect(table).toMatch(new RegExp(`^${ONE_RECORDING_CONTAINER} +transferred +2 +40 kB`, 'm'));
  });

  it('logs to stderr at --log-level, and still prints a line per recording', async () => {
    const destination = await start();
    const connection = writeJson('cd.json', destination.connectionFile());
    const { code, out, err } = await upload([
      '--connection-file',
      connection,
      '--plan',
      writeText('plan.yaml', ONE_RECORDING_PLAN),
      '--log-level',
      'info',
    ]);
    expect(code).toBe(0);
    const entries = err
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { msg: string; recording?: string });
    expect(entries.find((e) => e.msg === 'recording')).toMatchObject({
      recording: ONE_RECORDING_CONTAINER,
      status: 'transferred',
    });
    expect(out).toMatch(new RegExp(`^${ONE_RECORDING_CONTAINER} -> transferred, 40 kB, \\d+\\.\\d\\d s$`, 'm'));
  });

  it('exits 1 when a fault fails a recording, and shows the request that failed it', async () => {
    const destination = await start();
    destination.faults.add({ status: 507, pathPrefix: `/v1/AUTH_bws/${ONE_RECORDING_CONTAINER}/`, methods: ['PUT'] });
    const connection = writeJson('cd.json', destination.connectionFile());
    const plan = writeText('plan.yaml', ONE_RECORDING_PLAN);
    const reportFile = join(dir, 'report.json');
    const { code, out } = await upload([
      '--connection-file',
      connection,
      '--plan',
      plan,
      '--report',
      reportFile,
      '--retries',
      '0',
    ]);
    expect(code).toBe(1);
    expect(out).toMatch(
      new RegExp(
        `^${ONE_RECORDING_CONTAINER} -> failed, 0 B, \\d+\\.\\d\\d s \\(PUT /${ONE_RECORDING_CONTAINER}/\\S+ -> 507 `,
        'm',
      ),
    );
    expect(out).toMatch(new RegExp(`^${ONE_RECORDING_CONTAINER} +failed +0 +0 B +\\d+\\.\\d\\d$`, 'm'));
    expect(out).toMatch(new RegExp(`^ {4}PUT /${ONE_RECORDING_CONTAINER}/\\S+\\.mkv -> 507 \\S`, 'm'));
    expect(out).toContain('Total: 1 recording: 0 transferred, 0 not transferred, 1 failed');
    const report = readReport(reportFile);
    expect(report.recordings[0]).toMatchObject({ status: 'failed', request: { method: 'PUT', status: 507 } });
  });

  it('exits 1 when a recording is refused with 400 (not transferred) and names the request', async () => {
    const destination = await start();
    const connection = writeJson('cd.json', destination.connectionFile());
    // The camera is in the plan but its registration is refused, so the destination does not know it.
    destination.faults.add({ status: 507, pathPrefix: '/v1/AUTH_bws/Devices/', methods: ['PUT'] });
    const plan = writeText('plan.yaml', ONE_RECORDING_PLAN);
    const { code, out } = await upload(['--connection-file', connection, '--plan', plan]);
    expect(code).toBe(1);
    expect(out).toMatch(new RegExp(`^${ONE_RECORDING_CONTAINER} +not transferred `, 'm'));
    expect(out).toMatch(/^ {4}PUT \/\S+ -> 400 /m);
    expect(out).toMatch(/Registration failures \(1\):\n {2}device CAM1: PUT \/Devices\/CAM1 -> 507 /);
  });

  it('gives a one-line error and exit 1 when the destination cannot be reached', async () => {
    const connection = writeJson('cd.json', validConnection(`http://127.0.0.1:${await closedPort()}/auth/v1.0`));
    const { code, err } = await upload(['--connection-file', connection, '--retries', '0']);
    expect(code).toBe(1);
    expect(err).toMatch(
      /^bwc-emu upload: no AuthenticationTokenURI answered \(1 round in \d+\.\d s\): http:\/\/127\.0\.0\.1:\d+\/auth\/v1\.0: .*ECONNREFUSED.*\n$/,
    );
    expect(err.split('\n')).toHaveLength(2);
  });

  it('--check uploads, lists the findings after the table and exits 0 against the reference destination', async () => {
    const destination = await start();
    const connection = writeJson('cd.json', destination.connectionFile());
    const reportFile = join(dir, 'report.json');
    const { code, out, err } = await upload(['--connection-file', connection, '--check', '--report', reportFile]);
    expect(err).toBe('');
    expect(out).toMatch(/^ {4}--check probe \(unknown-user\): meant to be refused with 400$/m);
    // The probes are never counted as the user's recordings.
    expect(out).toMatch(/^bwc-emu-check_unknown-user_\S+ +probe: refused /m);
    expect(out).toMatch(
      /^Total: 3 recordings: 3 transferred, 0 not transferred, 0 failed; and 3 --check probes, not counted$/m,
    );
    expect(out).not.toContain('left behind:');
    expect(out).toContain('Conformance of the content destination:');
    expect(out).toMatch(/^PASS {2}auth\.status /m);
    expect(out).toMatch(/^PASS: \d+ passed, 0 failed/m);
    expect(code).toBe(0);
    const report = readReport(reportFile);
    expect(report.conformance?.passed).toBe(true);
    expect(report.conformance?.findings.length).toBeGreaterThan(10);
  });

  it('--check exits 1 when the destination breaks a rule', async () => {
    const destination = await start();
    destination.faults.add({ status: 507, pathPrefix: '/v1/AUTH_bws/', methods: ['POST'] });
    const connection = writeJson('cd.json', destination.connectionFile());
    const { code, out } = await upload(['--connection-file', connection, '--check', '--retries', '0']);
    expect(code).toBe(1);
    expect(out).toMatch(/^FAIL {2}container\.post /m);
  });
});
