/**
 * `bwc-emu run --report --junit --fail-on` end to end: a real bin/bwc-emu process (dist/, so
 * `npm run build` first) runs a tiny faulty client (a digest login with a wrong password, on
 * node:http only), then prints the findings, writes the JSON and JUnit reports and picks its
 * exit code. The JUnit file is read back by a real JUnit XML parser (Debian's junitparser).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../src/cli/main';
import { GRADING_FAILED_EXIT } from '../../../src/cli/run';
import type { GradingReport } from '../../../src/grading/report';
import { NODE, type Outcome, runBwcEmu } from '../../helpers/bwc-emu-process';
import { capture } from '../../helpers/cli-capture';
import { PYTHON, pythonModules } from '../../helpers/python-script';

/** Runs `bwc-emu run ...args` to its end, on a free port, quietly. */
const run = (args: string[]): Promise<Outcome> => runBwcEmu(['run', '--port', '0', '--log-level', 'warn', ...args]);

/**
 * A client for `node -e` that answers the digest challenge of featureflag.cgi with a wrong
 * password (401 twice), then exits with `code`, whatever the device said.
 */
const faultyClient = (code: number): string => `
  const http = require('node:http');
  const crypto = require('node:crypto');
  const base = new URL(process.env.BWC_EMU_URL);
  const path = '/svc-cgi/featureflag.cgi';
  const body = JSON.stringify({ apiVersion: '1.0', method: 'listAll' });
  const post = (headers) => new Promise((resolve, reject) => {
    const req = http.request({ host: base.hostname, port: base.port, method: 'POST', path,
      headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), ...headers } },
      (res) => { res.resume(); res.on('end', () => resolve(res)); });
    req.on('error', reject);
    req.end(body);
  });
  const md5 = (s) => crypto.createHash('md5').update(s).digest('hex');
  (async () => {
    const first = await post({});
    const challenge = (first.headersDistinct['www-authenticate'] || []).find((c) => /^Digest /i.test(c));
    const param = (name) => (new RegExp(name + '="?([^",]+)"?').exec(challenge) || [])[1];
    const realm = param('realm'), nonce = param('nonce'), cnonce = '0a4f113b', nc = '00000001';
    const user = process.env.BWC_EMU_USER;
    const ha1 = md5(user + ':' + realm + ':not-the-password');
    const response = md5(ha1 + ':' + nonce + ':' + nc + ':' + cnonce + ':auth:' + md5('POST:' + path));
    const second = await post({ Authorization: 'Digest username="' + user + '", realm="' + realm +
      '", nonce="' + nonce + '", uri="' + path + '", algorithm=MD5, response="' + response +
      '", qop=auth, nc=' + nc + ', cnonce="' + cnonce + '"' });
    console.log('CLIENT ' + first.statusCode + ' ' + second.statusCode);
    process.exit(${code});
  })().catch((err) => { console.error(err); process.exit(9); });
`;

/** Reads a JUnit file with junitparser: every suite's cases, with their outcome. */
const READ_JUNIT = `
import json, sys
from junitparser import JUnitXml
xml = JUnitXml.fromfile(sys.argv[1])
cases = []
for suite in xml:
    for case in suite:
        results = case.result if isinstance(case.result, list) else ([case.result] if case.result else [])
        cases.append({
            "suite": suite.name, "classname": case.classname, "name": case.name, "passed": case.is_passed,
            "results": [{"tag": r._tag, "type": r.type, "message": r.message} for r in results],
        })
print(json.dumps({"tests": xml.tests, "failures": xml.failures, "cases": cases}))
`;

interface JunitCase {
  suite: string;
  classname: string;
  name: string;
  passed: boolean;
  results: { tag: string; type: string; message: string }[];
}

describe('bwc-emu run grading the client end to end', () => {
  let dir: string;
  let failOnError: Outcome;
  let failOnNever: Outcome;
  let commandFailed: Outcome;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bwc-emu-grading-'));
    const files = (name: string): string[] => [
      '--report',
      join(dir, `${name}.json`),
      '--junit',
      join(dir, `${name}.xml`),
    ];
    // The three runs are independent processes on free ports: run them together.
    [failOnError, failOnNever, commandFailed] = await Promise.all([
      run([...files('error'), '--fail-on', 'error', '--', NODE, '-e', faultyClient(0)]),
      run([...files('never'), '--fail-on', 'never', '--', NODE, '-e', faultyClient(0)]),
      run([...files('failed'), '--fail-on', 'error', '--', NODE, '-e', faultyClient(5)]),
    ]);
  }, 30_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('runs the faulty client, which gets 401 twice', () => {
    for (const outcome of [failOnError, failOnNever, commandFailed]) expect(outcome.stdout).toContain('CLIENT 401 401');
  });

  it(`exits ${GRADING_FAILED_EXIT} with --fail-on error when the command passed but the client has an error`, () => {
    expect(failOnError.code).toBe(GRADING_FAILED_EXIT);
  });

  it('exits 0 with --fail-on never', () => {
    expect(failOnNever.code).toBe(0);
  });

  it("exits with the command's own non-zero code, whatever the grading", () => {
    expect(commandFailed.code).toBe(5);
  });

  it('prints the table of findings with the rule id on stderr', () => {
    for (const outcome of [failOnError, failOnNever, commandFailed]) {
      expect(outcome.stderr).toContain('bwc-emu client report: 1 error, 0 warnings');
      expect(outcome.stderr).toMatch(/^ {2}severity +rule +device +client +finding$/m);
      expect(outcome.stderr).toMatch(
        /^ {2}error +auth-failed +ACCC8E000001 +\S+ root +1 request as "root" refused with WRONG_PASSWORD: wrong password for user "root"$/m,
      );
    }
  });

  it('writes the --report file as JSON with the finding', () => {
    const report = JSON.parse(readFileSync(join(dir, 'error.json'), 'utf8')) as GradingReport;
    expect(report.summary).toEqual({ errors: 1, warnings: 0, infos: 0, expectationsBroken: 0 });
    expect(report.findings).toHaveLength(1);
    const [finding] = report.findings;
    expect(finding).toMatchObject({
      rule: 'auth-failed',
      severity: 'error',
      message: '1 request as "root" refused with WRONG_PASSWORD: wrong password for user "root"',
      client: { users: ['root'] },
    });
    expect(finding.evidence).toEqual([
      expect.objectContaining({
        kind: 'auth-refused',
        code: 'WRONG_PASSWORD',
        scheme: 'digest',
        path: '/svc-cgi/featureflag.cgi',
      }),
    ]);
    expect(report.rules.find((r) => r.id === 'auth-failed')?.findings).toBe(1);
    expect(report.rules.filter((r) => r.findings > 0).map((r) => r.id)).toEqual(['auth-failed']);
  });

  const withJunitparser = pythonModules(['junitparser'], 'bwc-emu run --junit') ? it : it.skip;
  withJunitparser(
    'writes a --junit file that a JUnit XML parser reads: auth-failed failed, every other rule passed',
    () => {
      const read = JSON.parse(
        execFileSync(PYTHON, ['-c', READ_JUNIT, join(dir, 'error.xml')], { encoding: 'utf8' }),
      ) as { tests: number; failures: number; cases: JunitCase[] };
      const report = JSON.parse(readFileSync(join(dir, 'error.json'), 'utf8')) as GradingReport;
      expect(read.tests).toBe(report.rules.length);
      expect(read.failures).toBe(1);
      expect(read.cases).toHaveLength(report.rules.length);
      const failed = read.cases.filter((c) => !c.passed);
      expect(failed).toEqual([
        {
          // One segment (no reset): its suite and classname are its name.
          suite: 'segment 1',
          classname: 'segment 1',
          name: 'auth-failed: Requests were refused for their credentials',
          passed: false,
          results: [
            {
              tag: 'failure',
              type: 'error',
              message: '1 finding: 1 request as "root" refused with WRONG_PASSWORD: wrong password for user "root"',
            },
          ],
        },
      ]);
      const passed = read.cases.filter((c) => c.passed);
      expect(passed.map((c) => c.name.split(':')[0])).toEqual(
        report.rules.map((r) => r.id).filter((id) => id !== 'auth-failed'),
      );
      expect(passed.every((c) => c.results.length === 0)).toBe(true);
    },
  );
});

describe('bwc-emu run report flags, bad input', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'bwc-emu-grading-bad-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses an unknown --fail-on level with exit 2, running nothing', async () => {
    const outcome = await run(['--fail-on', 'sometimes', '--', NODE, '-e', 'console.log("RAN")']);
    expect(outcome.code).toBe(2);
    expect(outcome.stdout).not.toContain('RAN');
    expect(outcome.stderr).toContain('fail-on');
  });

  it('says which --report file it cannot write and exits 1, though the command passed', async () => {
    const blocked = join(dir, 'a-file');
    writeFileSync(blocked, 'not a directory');
    const report = join(blocked, 'report.json');
    const outcome = await run(['--report', report, '--', NODE, '-e', 'process.exit(0)']);
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain(`bwc-emu run: --report ${report}: cannot write it:`);
  });
});

/**
 * `bwc-emu run` in-process (main() with captured output) over a command that stands for a test
 * suite resetting before each test, as the pytest and Jest fixtures do: the first test's client
 * asks for an API version the device does not have; the next test's client is fine. The
 * report keeps the first test's finding, named after it, and `--fail-on error` fails the run.
 */
describe('bwc-emu run over tests that reset between them', () => {
  /** A "test suite" for `node -e`: two tests, each reset first with its name (query, then JSON body). */
  const SUITE = `
    const control = process.env.BWC_EMU_CONTROL_URL;
    const cgi = process.env.BWC_EMU_URL + '/svc-cgi/featureflag.cgi';
    const call = (apiVersion) => fetch(cgi, { method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ apiVersion, method: 'listAll' }) }).then((r) => r.json());
    const reset = (init) => fetch(control + '/reset' + init.query, { method: 'POST', ...init.request })
      .then((r) => { if (r.status !== 204) throw new Error('reset answered ' + r.status); });
    (async () => {
      await reset({ query: '?segment=test_old_api_version', request: {} });
      const old = await call('9.9');
      await reset({ query: '', request: { headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ segment: 'test_list_flags' }) } });
      const listed = await call('1.0');
      console.log('SUITE ' + JSON.stringify([old.error && old.error.code, listed.error]));
    })().catch((err) => { console.error(err); process.exit(9); });
  `;
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'bwc-emu-segments-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Runs `bwc-emu run` in-process with `flags` over the suite: the exit code, stderr, the JSON and JUnit files. */
  async function runSuite(name: string, flags: string[]) {
    const c = capture();
    const files = { report: join(dir, `${name}.json`), junit: join(dir, `${name}.xml`) };
    const argv = ['run', '--port', '0', '--auth', 'none', '--log-level', 'warn', ...flags];
    const code = await main([...argv, '--report', files.report, '--junit', files.junit, '--', NODE, '-e', SUITE], c.io);
    const report = JSON.parse(readFileSync(files.report, 'utf8')) as GradingReport;
    return { code, err: c.err(), report, junit: readFileSync(files.junit, 'utf8') };
  }

  it(`reports the first test's finding after the resets, named after the test, and exits ${GRADING_FAILED_EXIT}`, async () => {
    const run = await runSuite('failing', ['--fail-on', 'error']);
    expect(run.code).toBe(GRADING_FAILED_EXIT);
    expect(run.report.findings.map((f) => [f.rule, f.segment])).toEqual([
      ['unsupported-api-version', { index: 2, name: 'test_old_api_version' }],
    ]);
    // Segment 1 (before the first test: nothing, no name) is not listed.
    expect(run.report.segments.map((s) => [s.index, s.name, s.ended, s.summary.errors])).toEqual([
      [2, 'test_old_api_version', true, 1],
      [3, 'test_list_flags', false, 0],
    ]);
    expect(run.report.summary.errors).toBe(1);
    expect(run.err).toContain('bwc-emu client report: 1 error, 0 warnings in 2 segments');
    expect(run.err).toMatch(/^ {2}segment +severity +rule +device +client +finding$/m);
    expect(run.err).toMatch(/^ {2}test_old_api_version +error +unsupported-api-version +ACCC8E000001 /m);
    // JUnit: a suite per test, its cases' classname the test's name; the first test's rule case fails.
    const suites = [...run.junit.matchAll(/<testsuite name="([^"]*)" tests="(\d+)" failures="(\d+)"/g)];
    expect(suites.map((m) => [m[1], Number(m[2]), Number(m[3])])).toEqual([
      ['test_old_api_version', run.report.rules.length, 1],
      ['test_list_flags', run.report.rules.length, 0],
    ]);
    expect(run.junit).toMatch(
      /<testcase classname="test_old_api_version" name="unsupported-api-version: [^"]*" time="0"><failure type="error"/,
    );
  });

  it('takes --skip-rules and --threshold: the run passes, and the report says what it applied', async () => {
    const run = await runSuite('skipping', [
      '--fail-on',
      'error',
      '--skip-rules',
      'unsupported-api-version',
      '--threshold',
      'configureWithinMs=20000',
    ]);
    expect(run.code).toBe(0);
    expect(run.report.findings).toEqual([]);
    expect(run.report.skippedRules).toEqual(['unsupported-api-version']);
    expect(run.report.thresholds.configureWithinMs).toBe(20_000);
    expect(run.report.segments.map((s) => s.thresholds.configureWithinMs)).toEqual([20_000, 20_000]);
    expect(run.err).toContain('(rules not applied: unsupported-api-version)');
  });

  it('refuses a bad grading flag with exit 2 and one line, running nothing', async () => {
    const c = capture();
    const argv = ['run', '--threshold', 'reconnectWithinMs=soon', '--', NODE, '-e', 'console.log("RAN")'];
    expect(await main(argv, c.io)).toBe(2);
    expect(c.err()).toBe(
      'bwc-emu: grading threshold reconnectWithinMs must be a number of milliseconds, 0 or more, not "soon"\n',
    );
    expect(c.out()).toBe('');
  });
});
