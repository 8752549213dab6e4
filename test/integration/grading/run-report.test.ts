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
import { GRADING_FAILED_EXIT } from '../../../src/cli/run';
import type { GradingReport } from '../../../src/grading/report';
import { NODE, type Outcome, runBwcEmu } from '../../helpers/bwc-emu-process';
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
          suite: 'bwc-emu client grading',
          classname: 'bwc-emu.rules',
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
