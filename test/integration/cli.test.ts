/**
 * The command line as a newcomer meets it: --help, one-line errors for bad flags,
 * the ready line, the start-up banner (on stderr: the capture is not a terminal), a
 * clean stop. Runs `main()` in-process with captured output, plus one real process
 * through bin/bwc-emu to prove the built entry point works (more in cli-process.test.ts).
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDevice } from '../../src';
import type { GradingReport } from '../../src/grading/report';
import { main } from '../../src/cli/main';
import { capture } from '../helpers/cli-capture';
import { openStream, refusedHandshake } from '../helpers/event-stream-client';

describe('bwc-emu command line', () => {
  it('prints the options with --help and exits 0', async () => {
    const c = capture();
    expect(await main(['--help'], c.io)).toBe(0);
    for (const flag of [
      '--port',
      '--host',
      '--user',
      '--password',
      '--auth',
      '--digest-algorithms',
      '--tls',
      '--cgi-prefix',
      '--ws-prefix',
      '--state-dir',
      '--log-level',
      '--devices',
      '--device-index-base',
      '--control-token',
      '--ready-file',
      '--limit',
    ]) {
      expect(c.out()).toContain(flag);
    }
  });

  it.each([
    [['--bogus'], /unknown option --bogus/],
    [['--auth', 'kerberos'], /auth.*kerberos/i],
    [['--digest-algorithms', 'SHA-1'], /digest algorithm "SHA-1" is not one of MD5/],
    [['--port', '70000'], /--port must be a port number \(0-65535\), not 70000/],
    [['--cgi-prefix', 'no slash'], /cgiPrefix "no slash" must be a path/],
    [['--cert', 'c.pem'], /--cert and --key go together/],
    [['--account', 'nopassword'], /--account: account "nopassword" is not name:password/],
    [['--timestamps', 'local:x'], /--timestamps "local:x" must be utc, none or local:\+HH:MM/],
    [['--devices', '0'], /devices must be a whole number from 1 to 100000, not 0/],
    [['--devices', '2.5'], /devices must be a whole number from 1 to 100000, not 2.5/],
    [['--devices', 'many'], /--devices must be a number, not "many"/],
    [['--devices', '100001'], /devices must be a whole number from 1 to 100000, not 100001/],
    [['--devices', '3', '-s', 'motion', '-s', 'io-port'], /devices is 3 but 2 scenarios were given/],
    [['--port', '65535', '--devices', '2'], /devices 2 from port 65535 would go past port 65535/],
    [['--device-index-base', '-1'], /deviceIndexBase must be a whole number from 0 to 1000000000, not -1/],
    [['--control-token', 'two words'], /control token must be one or more visible ASCII characters/],
    [['--control-token', ''], /control token must be one or more visible ASCII characters/],
    [['--no-control', '--control-token', 'abc'], /--control-token has no use with --no-control/],
    [['--ready-file', ''], /--ready-file needs one file name/],
    [['--limit', 'maxSessions'], /--limit "maxSessions" must be name=whole-number/],
    [['--limit', 'maxSesions=3'], /unknown limit\(s\) maxSesions; known: maxSessions, /],
    [['--limit', 'maxFilterNesting=65'], /limits.maxFilterNesting must be a whole number from 1 to 64, not 65/],
    [['--threshold', 'configureWithinMs'], /--threshold "configureWithinMs" must be name=value, e.g. --threshold /],
    [['--threshold', 'retryMs=5'], /no grading threshold "retryMs"; thresholds: minRetryIntervalMs, minRetryRun, /],
    [
      ['--threshold', 'configureWithinMs=soon'],
      /threshold configureWithinMs must be a number of milliseconds, 0 or more, not "soon"/,
    ],
    [['--threshold', 'minRetryRun=0'], /grading threshold minRetryRun must be a whole number of 1 or more, not 0/],
    [['--rules', 'token-reused,nope'], /--rules: no rule "nope"; the rules: token-expired, token-reused, /],
    [['--rules', 'auth-failed', '--skip-rules', 'token-reused'], /give --rules \(only these\) or --skip-rules/],
  ])('refuses %j with a one-line error and exit code 2', async (argv, message) => {
    const c = capture();
    expect(await main(argv, c.io)).toBe(2);
    expect(c.err()).toMatch(message);
    expect(c.err().trim().split('\n').length).toBeLessThanOrEqual(2);
  });

  it('says clearly when the port is taken', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const c = capture();
      expect(await main(['--port', String(port), '--log-level', 'silent'], c.io)).toBe(2);
      expect(c.err()).toBe(
        `bwc-emu: port ${port} on 127.0.0.1 is already in use; choose another with --port (0 picks a free one)\n`,
      );
    } finally {
      blocker.close();
    }
  });

  it('says on stderr what --connection-file ignores (an unknown field), as upload does, and runs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bwc-cli-cf-'));
    try {
      const file = join(dir, 'cd.json');
      writeFileSync(
        file,
        JSON.stringify({
          ConnectionFileVersion: '1.0',
          SiteName: 'Site',
          ApplicationName: 'App',
          ApplicationVersion: '1.0',
          AuthenticationTokenURI: ['http://127.0.0.1:9/auth/v1.0'],
          BlobAPI: 'Swift',
          BlobAPIUserName: 'bws',
          BlobAPIKey: 'secret',
        }),
      );
      const c = capture();
      const exit = main(['--port', '0', '--log-level', 'silent', '--connection-file', file], c.io);
      await c.started;
      expect(c.err()).toContain(`bwc-emu: warning: --connection-file ${file}: unknown field(s) ignored: BlobAPI`);
      c.stop('SIGTERM');
      expect(await exit).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('prints URLs, credentials and commands to try, serves, and stops on a signal', async () => {
    const c = capture();
    const exit = main(['--port', '0', '--log-level', 'silent'], c.io);
    await c.started;
    const url = /url +(http:\/\/127\.0\.0\.1:\d+)/.exec(c.err())?.[1];
    expect(url).toBeDefined();
    // Not a terminal: even the default password is not printed, only where it comes from.
    expect(c.err()).toContain('credentials    root (admin), password: the default one, shown by bwc-emu --help');
    expect(c.err()).toContain(`curl --digest -u "root:$BWC_EMU_PASSWORD" -H 'Content-Type: application/json'`);
    expect(c.err()).toContain(`${url?.replace('http', 'ws')}/svc/ws-data-stream?sources=events`);
    const answer = await fetch(`${url}/svc-cgi/apidiscovery.cgi`, {
      method: 'POST',
      body: '{"apiVersion":"1.0","method":"getApiList"}',
    });
    expect(answer.status).toBe(200);
    c.stop('SIGTERM');
    expect(await exit).toBe(0);
    expect(c.err()).toContain('SIGTERM: stopping');
    await expect(fetch(`${url}/svc-cgi/apidiscovery.cgi`, { method: 'POST' })).rejects.toThrow();
  });

  it('warns loudly when authentication is off', async () => {
    const c = capture();
    const exit = main(['--port', '0', '--auth', 'none', '--log-level', 'silent'], c.io);
    try {
      await c.started;
      expect(c.err()).toContain('WARNING: authentication is OFF');
      expect(c.err()).not.toContain('credentials');
    } finally {
      c.stop();
    }
    expect(await exit).toBe(0);
  });

  it('applies --limit to the device it runs: a second session of the address is refused with 429', async () => {
    const c = capture();
    const argv = ['--port', '0', '--auth', 'none', '--log-level', 'silent', '--limit', 'maxSessionsPerAccount=1'];
    const exit = main(argv, c.io);
    try {
      await c.started;
      const stream = /event stream +(ws:\S+)/.exec(c.err())?.[1] ?? '';
      const first = await openStream(stream);
      const second = await refusedHandshake(stream);
      expect({ status: second.status, body: second.body }).toEqual({
        status: 429,
        body: 'Too many event stream sessions for address 127.0.0.1: at most 1 at once\n',
      });
      await first.close();
    } finally {
      c.stop();
    }
    expect(await exit).toBe(0);
  });

  it("applies --threshold and --skip-rules to the device's report, under a report's own query", async () => {
    const c = capture();
    const grading = ['--threshold', 'configureWithinMs=20000', '--skip-rules', 'nonce-not-reused'];
    const exit = main(['--port', '0', '--log-level', 'silent', ...grading], c.io);
    try {
      await c.started;
      const control = (JSON.parse(c.out().split('\n')[0].slice('bwc-emu ready '.length)) as { control: string })
        .control;
      const read = async (query: string) => (await (await fetch(`${control}/report${query}`)).json()) as GradingReport;
      const standing = await read('');
      expect(standing.thresholds.configureWithinMs).toBe(20_000);
      expect(standing.skippedRules).toEqual(['nonce-not-reused']);
      const asked = await read('?minRetryRun=2&rules=token-reused');
      expect([asked.thresholds.configureWithinMs, asked.thresholds.minRetryRun]).toEqual([20_000, 2]);
      expect(asked.rules.map((r) => r.id)).toEqual(['token-reused']);
    } finally {
      c.stop();
    }
    expect(await exit).toBe(0);
  });

  it('says it is ready in the first stdout line, logs after it, whatever the control flags', async () => {
    for (const [flags, control] of [
      [['--control-token', 's3cret'], true],
      [['--no-control'], false],
    ] as const) {
      const c = capture();
      const exit = main(['--port', '0', '--log-format', 'json', ...flags], c.io);
      try {
        await c.started;
        const [first, ...rest] = c.out().split('\n');
        expect(first).toMatch(/^bwc-emu ready \{/);
        const ready = JSON.parse(first.slice('bwc-emu ready '.length)) as {
          devices: { serial: string; urls: { base: string }; control?: string }[];
          control: string | null;
        };
        expect(ready.devices).toEqual([expect.objectContaining({ serial: 'ACCC8E000001', user: 'root' })]);
        expect(ready.control).toBe(ready.devices[0].control ?? null);
        if (!control) expect(ready.control).toBeNull();
        expect(rest.join('\n')).toContain('"msg":"device listening"');
      } finally {
        c.stop();
      }
      expect(await exit).toBe(0);
    }
  });

  it('runs a fleet with --devices: one table of serials and URLs, the commands to try once', async () => {
    const c = capture();
    const argv = ['--port', '0', '--devices', '5', '--serial', 'ACCC8E000100', '--device-index-base', '10'];
    const exit = main([...argv, '--log-level', 'silent'], c.io);
    try {
      await c.started;
      const serials = ['ACCC8E000110', 'ACCC8E000111', 'ACCC8E000112', 'ACCC8E000113', 'ACCC8E000114'];
      const ready = JSON.parse(c.out().slice('bwc-emu ready '.length)) as { devices: { serial: string }[] };
      expect(ready.devices.map((d) => d.serial)).toEqual(serials);
      expect(c.err()).toContain('bwc-emu: 5 devices are running');
      for (const serial of serials)
        expect(c.err()).toMatch(new RegExp(`^  ${serial}  http://127\\.0\\.0\\.1:\\d+$`, 'm'));
      expect(c.err().split('Press Ctrl+C to stop.')).toHaveLength(2);
      expect(c.err().split('Try the feature flags')).toHaveLength(2);
    } finally {
      c.stop();
    }
    expect(await exit).toBe(0);
  });

  it('runs as a real process from bin/bwc-emu and exits 0 on SIGINT', async () => {
    const child = spawn(
      process.execPath,
      [join(__dirname, '../../bin/bwc-emu'), '--port', '0', '--log-format', 'json'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    await new Promise<void>((resolve, reject) => {
      const check = (): void => {
        if (err.includes('Press Ctrl+C to stop.') && out.includes('"msg":"device listening"')) resolve();
      };
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        check();
      });
      child.stderr.on('data', (chunk: Buffer) => {
        err += chunk.toString();
        check();
      });
      child.once('exit', (code) => reject(new Error(`exited early with ${code}: ${err}`)));
    });
    expect(out).toContain('"msg":"device listening"');
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGINT');
    expect(await exited).toBe(0);
  });

  describe('scenarios', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bwc-cli-'));
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, 'timeline:\n  - { at: 2x, run: nope }\n');
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('validate: ok lines and exit 0 for the shipped scenarios', async () => {
      const c = capture();
      expect(await main(['validate', 'default', 'motion', 'io-port'], c.io)).toBe(0);
      expect(c.out()).toBe('default: ok (default)\nmotion: ok (motion)\nio-port: ok (io-port)\n');
    });

    it('validate: every error as file:line:col and exit 1; no file is exit 2', async () => {
      const c = capture();
      expect(await main(['validate', 'default', bad], c.io)).toBe(1);
      expect(c.err()).toContain(`${bad}:2:11: duration "2x" is not a duration`);
      expect(c.err()).toContain(`${bad}:2:20: unknown group "nope"`);
      expect(c.err()).toContain('1 of 2 scenario file(s) have errors');
      expect(await main(['validate'], capture().io)).toBe(2);
    });

    it('scenarios lists the shipped ones with their descriptions', async () => {
      const c = capture();
      expect(await main(['scenarios'], c.io)).toBe(0);
      expect(c.out()).toMatch(/default +System ready, periodic motion/);
      expect(c.out()).toMatch(/motion +Motion bursts/);
    });

    it('--scenario with errors does not start and exits 2 with the errors', async () => {
      const c = capture();
      expect(await main(['--port', '0', '--scenario', bad, '--log-level', 'silent'], c.io)).toBe(2);
      expect(c.err()).toContain(`scenario ${bad} has errors:\n  ${bad}:2:11:`);
    });

    it('two --scenario files run two devices, each with its scenario, the second serial next', async () => {
      const c = capture();
      const exit = main(
        [
          '--port',
          '0',
          '--scenario',
          'motion',
          '--scenario',
          'io-port',
          '--serial',
          'ACCC8E000010',
          '--log-level',
          'silent',
        ],
        c.io,
      );
      try {
        await c.started;
        await new Promise<void>((resolve) => {
          const check = (): void =>
            c.err().split('Press Ctrl+C to stop.').length === 3 ? resolve() : void setImmediate(check);
          check();
        });
        expect(c.err()).toMatch(/device ACCC8E000010 is running[\s\S]*scenario +motion/);
        expect(c.err()).toMatch(/device ACCC8E000011 is running[\s\S]*scenario +io-port/);
      } finally {
        c.stop();
      }
      expect(await exit).toBe(0);
    });

    it('reloads a --scenario file when it is saved: errors keep the last good one, a fix restarts it', async () => {
      const file = join(dir, 'live.yaml');
      writeFileSync(file, 'name: first\ntimeline:\n  - { at: 1h, emit: { topic: tns1:A/B } }\n');
      const c = capture();
      const exit = main(['--port', '0', '--scenario', file, '--log-format', 'json'], c.io);
      const until = (test: () => boolean, what: string): Promise<void> =>
        new Promise((resolve, reject) => {
          const deadline = Date.now() + 5000;
          const check = (): void => {
            if (test()) resolve();
            else if (Date.now() > deadline) reject(new Error(`timed out waiting for ${what}`));
            else setTimeout(check, 20);
          };
          check();
        });
      try {
        await c.started;
        writeFileSync(file, 'name: broken\ntimeline:\n  - { at: 2x, emit: { topic: tns1:A/B } }\n');
        await until(() => c.err().includes('the last good version keeps running'), 'the errors of the broken save');
        expect(c.err()).toContain(`${file}:3:11: duration "2x"`);
        writeFileSync(file, 'name: fixed\ntimeline:\n  - { at: 1h, emit: { topic: tns1:A/C } }\n');
        await until(() => c.out().includes('scenario changed: restarted with the new version'), 'the reload');
      } finally {
        c.stop();
      }
      expect(await exit).toBe(0);
    });

    it('record writes what a device sent as a scenario that validates', async () => {
      const device = await startDevice({ port: 0 }); // system ready and two ports, sent right after configure
      try {
        const out = join(dir, 'capture.yaml');
        const c = capture();
        const url = `${device.url.replace('http', 'ws')}/svc/ws-data-stream?sources=events`;
        expect(
          await main(['record', '--url', url, '--out', out, '--max-events', '3', '--filter', 'tns1:Device//.'], c.io),
        ).toBe(0);
        expect(c.out()).toContain(`3 events written to ${out}; replay with: bwc-emu --scenario ${out}`);
        const v = capture();
        expect(await main(['validate', out], v.io)).toBe(0);
        expect(readFileSync(out, 'utf8')).toContain('topic: tns1:Device/tnsvendor:Status/SystemReady');
        const bad = capture();
        expect(await main(['record', '--url', url, '--out', out, '--duration', '5'], bad.io)).toBe(2);
        expect(bad.err()).toContain('--duration: duration "5" has no unit; write 5ms or 5s');
      } finally {
        await device.close();
      }
    });

    it('--speed must be positive', async () => {
      const c = capture();
      expect(await main(['--speed', '0'], c.io)).toBe(2);
      expect(c.err()).toContain('--speed must be a positive number');
    });
  });
});
