/**
 * The command line mistakes a newcomer made (issue 31), each answered with one clear line:
 * `validate --help`, `--port abc`, `-s` with no value, `record` with a wrong password, an
 * option given to the wrong command; and `bwc-emu run` keeping its command's stdout clean.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDevice } from '../../src';
import { main } from '../../src/cli/main';
import { capture } from '../helpers/cli-capture';
import { NODE, runBwcEmu } from '../helpers/bwc-emu-process';

/** Runs `bwc-emu args` in-process to its end (a command that would start something is refused first). */
async function refused(args: string[]): Promise<{ code: number; err: string; out: string }> {
  const c = capture();
  c.io.env = {};
  const code = await main(args, c.io);
  return { code, err: c.err(), out: c.out() };
}

describe('bwc-emu trip-ups', () => {
  it('validate --help prints the help of validate, not "cannot read --help"', async () => {
    const help = await refused(['validate', '--help']);
    expect(help.code).toBe(0);
    expect(help.out).toContain('bwc-emu validate FILE...');
    expect(help.err).toBe('');
    const scenarios = await refused(['scenarios', '--help']);
    expect(scenarios.out).toContain('Lists the shipped scenarios');
  });

  it('--port abc names the option and the value, not NaN', async () => {
    for (const args of [
      ['--port', 'abc'],
      ['-p', 'abc'],
      ['destination', '--port', 'abc'],
    ]) {
      const run = await refused(args);
      expect(run.code).toBe(2);
      expect(run.err).toContain('--port must be a port number (0-65535), not "abc"');
      expect(run.err).not.toContain('NaN');
    }
    expect((await refused(['--port', '70000'])).err).toContain('not 70000');
    expect((await refused(['--speed', 'fast'])).err).toContain('--speed must be a number, not "fast"');
  });

  it('-s with no value is refused instead of playing the default scenario', async () => {
    for (const args of [['-s'], ['-s', '--port', '0'], ['--scenario=']]) {
      const run = await refused(args);
      expect(run.code).toBe(2);
      expect(run.err).toContain('-s/--scenario needs a file or a shipped scenario name');
      expect(run.out).not.toContain('bwc-emu ready');
    }
  });

  it('an option of another command says which command takes it', async () => {
    const device = await refused(['--data-dir', 'x']);
    expect(device.code).toBe(2);
    expect(device.err).toContain('bwc-emu: unknown option --data-dir: it is an option of bwc-emu destination\n');
    const destination = await refused(['destination', '--scenario', 'motion']);
    expect(destination.err).toContain(
      'bwc-emu destination: unknown option --scenario: it is an option of bwc-emu and bwc-emu run\n',
    );
    const run = await refused(['run', '--report-file', 'x', '--', NODE, '-e', '']);
    expect(run.err).toContain('bwc-emu run: unknown option --report-file\n');
    const upload = await refused(['upload', '--fail-on', 'error', '-c', 'x']);
    expect(upload.err).toContain('unknown option --fail-on: it is an option of bwc-emu run\n');
    expect((await refused(['scenarios', 'motion'])).err).toContain('unexpected argument "motion"');
  });

  it('record with a wrong password says so in one line, without the device 401 page', async () => {
    const device = await startDevice({ port: 0 });
    const dir = mkdtempSync(join(tmpdir(), 'bwc-emu-record-'));
    try {
      const url = `${device.url.replace('http', 'ws')}/svc/ws-data-stream?sources=events`;
      const out = join(dir, 'capture.yaml');
      for (const extra of [[], ['--token']]) {
        const c = capture();
        const args = ['record', '--url', url, '--out', out, '--password', 'wrong', ...extra];
        expect(await main(args, c.io)).toBe(1);
        const where = extra.length ? 'from /svc-cgi/wssession.cgi' : 'on the stream handshake';
        expect(c.err()).toBe(
          `bwc-emu record: the device refused the login for user root: wrong user name or password? (HTTP 401 ${where}; --user, --password)\n`,
        );
      }
    } finally {
      await device.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('bwc-emu run keeps stdout for the command', () => {
  it("writes only the command's output on stdout, the emulator's log lines on stderr or --log-file", async () => {
    const command = ['--', NODE, '-e', 'console.log("THE COMMAND")'];
    const run = await runBwcEmu(['run', '--port', '0', '--log-level', 'info', ...command]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('THE COMMAND\n');
    expect(run.stderr).toMatch(/^bwc-emu ready \{/m);
    expect(run.stderr).toMatch(/^\{"level":30,.*"msg":"/m);
    const dir = mkdtempSync(join(tmpdir(), 'bwc-emu-run-log-'));
    try {
      const logFile = join(dir, 'emulator.log');
      const logged = await runBwcEmu(['run', '--port', '0', '--log-file', logFile, ...command]);
      expect(logged.stdout).toBe('THE COMMAND\n');
      expect(logged.stderr).not.toMatch(/"level":30/);
      expect(readFileSync(logFile, 'utf8')).toMatch(/^\{"level":30,/m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
