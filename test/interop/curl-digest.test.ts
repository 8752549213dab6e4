/**
 * Interop with curl, the client most people try first: `curl --digest` (MD5 and
 * SHA-256), `--anyauth`, and HTTPS with the device's certificate. Skipped, with a
 * message, only when curl is not installed (failed where the tools are required).
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { deviceStarter } from '../helpers/devices';
import { toolMissing } from '../helpers/required-tools';
import type { DeviceHandle, RpcResponse } from '../../src';
import type { ListAllResponse } from '../helpers/rpc-client';

const run = promisify(execFile);

function curlVersion(): string | undefined {
  try {
    return execFileSync('curl', ['--version'], { encoding: 'utf8' }).split(' ').slice(0, 2).join(' ');
  } catch {
    return undefined;
  }
}

const version = curlVersion();
const describeWithCurl = version ? describe : describe.skip;
if (!version) toolMissing('curl interop tests skipped: curl is not installed (apt-get install curl)');

const LIST_ALL = JSON.stringify({ apiVersion: '1.0', context: 'curl', method: 'listAll' });
const STATUS_MARK = '\n__HTTP_STATUS__';

/** Runs curl with `args` and splits its output into body and status. */
async function curl(args: string[]): Promise<{ status: number; body: string }> {
  const { stdout } = await run(
    'curl',
    ['--silent', '--show-error', '--max-time', '10', '--write-out', `${STATUS_MARK}%{http_code}`, ...args],
    { timeout: 15_000 },
  );
  const at = stdout.lastIndexOf(STATUS_MARK);
  return { body: stdout.slice(0, at), status: Number(stdout.slice(at + STATUS_MARK.length)) };
}

function listAllArgs(device: DeviceHandle, auth: string[]): string[] {
  return [
    ...auth,
    '-H',
    'Content-Type: application/json',
    '--data-binary',
    LIST_ALL,
    `${device.url}/svc-cgi/featureflag.cgi`,
  ];
}

describeWithCurl(`curl (${version ?? 'not installed'})`, () => {
  const start = deviceStarter();

  describe('--digest with MD5 (the default device)', () => {
    it('lists the feature flags', async () => {
      const device = await start();
      const answer = await curl(listAllArgs(device, ['--digest', '-u', 'root:pass']));
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toMatchObject({
        apiVersion: '1.0',
        context: 'curl',
        method: 'listAll',
        data: { flags: expect.any(Array) as unknown[] },
      });
    });

    it('sets a flag', async () => {
      const device = await start();
      const body = JSON.stringify({
        apiVersion: '1.0',
        method: 'set',
        params: { flagValues: { graphics_udvd: true } },
      });
      const answer = await curl([
        '--digest',
        '-u',
        'root:pass',
        '-H',
        'Content-Type: application/json',
        '--data-binary',
        body,
        `${device.url}/svc-cgi/featureflag.cgi`,
      ]);
      expect((JSON.parse(answer.body) as RpcResponse).data).toEqual({ result: 'Success' });
      expect(device.flags().find((f) => f.name === 'graphics_udvd')?.value).toBe(true);
    });

    it('gets a session token from wssession.cgi', async () => {
      const device = await start();
      const answer = await curl(['--digest', '-u', 'root:pass', `${device.url}/svc-cgi/wssession.cgi`]);
      expect(answer.status).toBe(200);
      expect(answer.body).toMatch(/^\d{19}$/);
      expect(device.consumeToken(answer.body)).toEqual({ ok: true, value: 'root' });
    });

    it('with a wrong password ends with 401', async () => {
      const device = await start();
      expect((await curl(['--digest', '-u', 'root:wrong', `${device.url}/svc-cgi/wssession.cgi`])).status).toBe(401);
    });

    it('works with a strict-replay device', async () => {
      const device = await start({ digestReplay: 'strict', auth: 'digest' });
      expect((await curl(listAllArgs(device, ['--digest', '-u', 'root:pass']))).status).toBe(200);
    });
  });

  describe('--digest with SHA-256 (a device offering only SHA-256)', () => {
    it('lists the feature flags', async () => {
      const device = await start({ digestAlgorithms: ['SHA-256'] });
      const answer = await curl(listAllArgs(device, ['--digest', '-u', 'root:pass']));
      expect(answer.status).toBe(200);
      expect((JSON.parse(answer.body) as ListAllResponse).data.flags.length).toBeGreaterThan(0);
    });

    it('gets a session token from wssession.cgi', async () => {
      const device = await start({ digestAlgorithms: ['SHA-256'] });
      const answer = await curl(['--digest', '-u', 'root:pass', `${device.url}/svc-cgi/wssession.cgi`]);
      expect(answer.status).toBe(200);
      expect(device.consumeToken(answer.body).ok).toBe(true);
    });
  });

  describe('other ways of authenticating', () => {
    it('--anyauth picks a scheme by itself', async () => {
      const device = await start();
      expect((await curl(listAllArgs(device, ['--anyauth', '-u', 'root:pass']))).status).toBe(200);
    });

    it('--basic works on plain HTTP with auth "both" once asked for (basicOverHttp), else and with "digest" is refused', async () => {
      const asked = await start({ basicOverHttp: true });
      const both = await start();
      const digestOnly = await start({ auth: 'digest' });
      expect((await curl(listAllArgs(asked, ['--basic', '-u', 'root:pass']))).status).toBe(200);
      expect((await curl(listAllArgs(both, ['--basic', '-u', 'root:pass']))).status).toBe(401);
      expect((await curl(listAllArgs(digestOnly, ['--basic', '-u', 'root:pass']))).status).toBe(401);
    });

    it('--digest over HTTPS, trusting the device certificate with --cacert', async () => {
      const device = await start({ tls: true });
      const dir = mkdtempSync(join(tmpdir(), 'bwc-curl-'));
      try {
        const caFile = join(dir, 'device.pem');
        writeFileSync(caFile, device.certificate as string);
        const answer = await curl(['--cacert', caFile, ...listAllArgs(device, ['--digest', '-u', 'root:pass'])]);
        expect(answer.status).toBe(200);
        expect((JSON.parse(answer.body) as ListAllResponse).data.flags.length).toBeGreaterThan(0);
        // Over TLS Basic is on with auth "both", unasked.
        expect((await curl(['--cacert', caFile, ...listAllArgs(device, ['--basic', '-u', 'root:pass'])])).status).toBe(
          200,
        );
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
});
