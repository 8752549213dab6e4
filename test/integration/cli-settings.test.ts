/**
 * Settings from the environment and a config file (issue 31): `BWC_EMU_<OPTION>` variables
 * and `--config FILE` (JSON or YAML) for every command, a flag winning over a variable and a
 * variable over the file; variables that are no option of the command (a test's switch, the
 * names `bwc-emu run` hands out) are not read; the Docker image's defaults are variables.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../src/cli/main';
import { capture } from '../helpers/cli-capture';
import { NODE, ROOT } from '../helpers/bwc-emu-process';

const running: ChildProcessWithoutNullStreams[] = [];
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'bwc-emu-settings-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => {
  for (const child of running.splice(0)) child.kill('SIGKILL');
});

/** A port nobody listens on. */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The ready document's first device URL of `bin/bwc-emu args` run with `env` (and no other BWC_EMU_ variable). */
function readyBase(args: string[], env: Record<string, string>): Promise<string> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('BWC_EMU_')));
  const child = spawn(NODE, [join(ROOT, 'bin/bwc-emu'), ...args], { env: { ...clean, ...env }, stdio: 'pipe' });
  running.push(child);
  let out = '';
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = /^bwc-emu ready (.*)$/m.exec(out)?.[1];
      if (line) resolve((JSON.parse(line) as { devices: { urls: { base: string } }[] }).devices[0].urls.base);
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code}: ${err}`)));
  });
}

/** Runs `bwc-emu args` in-process with `env` as its environment until ready (or refused); stops it. */
async function inProcess(args: string[], env: Record<string, string>) {
  const run = capture();
  run.io.env = env;
  const exit = main(args, run.io);
  const ended = await Promise.race([run.started.then(() => false), exit.then(() => true)]);
  if (!ended) run.stop('SIGTERM');
  const code = await exit;
  const base = /^bwc-emu ready (.*)$/m.exec(run.out())?.[1];
  const ready = base ? (JSON.parse(base) as { devices: { urls: { base: string }; serial: string }[] }) : undefined;
  return { code, err: run.err(), out: run.out(), ready };
}

describe('settings from BWC_EMU_ variables', () => {
  it('BWC_EMU_PORT=P bwc-emu listens on P', async () => {
    const port = await freePort();
    const base = await readyBase(['--log-level', 'silent'], { BWC_EMU_PORT: String(port) });
    expect(base).toBe(`http://127.0.0.1:${port}`);
    expect((await fetch(`${base}/_emu/health`)).ok).toBe(true);
  });

  it('a flag wins over the variable', async () => {
    const port = await freePort();
    const base = await readyBase(['--port', String(port), '--log-level', 'silent'], { BWC_EMU_PORT: '1' });
    expect(base).toBe(`http://127.0.0.1:${port}`);
  });

  it('refuses a bad value naming the option, the value and the variable, as for the flag', async () => {
    const flag = await inProcess(['--port', 'abc'], {});
    expect(flag.code).toBe(2);
    expect(flag.err).toContain('bwc-emu: --port must be a port number (0-65535), not "abc"\n');
    const variable = await inProcess([], { BWC_EMU_PORT: 'abc' });
    expect(variable.code).toBe(2);
    expect(variable.err).toContain(
      'bwc-emu: --port must be a port number (0-65535), not "abc" (--port was set by BWC_EMU_PORT)\n',
    );
    const toggle = await inProcess([], { BWC_EMU_WATCH: 'maybe' });
    expect(toggle.err).toContain('BWC_EMU_WATCH must be true or false (for --watch), not "maybe"');
    const later = await inProcess(['--port', '0'], { BWC_EMU_TIMESTAMPS: 'soon' });
    expect(later.err).toContain('(--timestamps was set by BWC_EMU_TIMESTAMPS)');
  });

  it('ignores variables that are no option of the command, and never reads the ones bwc-emu hands out', async () => {
    const readyFile = join(dir, 'outer-ready.json');
    writeFileSync(readyFile, 'the outer emulator');
    const env = {
      BWC_EMU_REQUIRE_TOOLS: '1',
      BWC_EMU_CHECK_RESPONSES: '1',
      BWC_EMU_CHROMIUM: '/usr/bin/chromium',
      BWC_EMU_COMMAND: 'bwc-emu',
      BWC_EMU_DATA_DIR: dir, // an option of bwc-emu destination
      BWC_EMU_READY_FILE: readyFile,
      BWC_EMU_USER: 'outer',
      BWC_EMU_PORT: '0',
      BWC_EMU_LOG_LEVEL: 'silent',
      BWC_EMU_SERIAL: 'ACCC8E00BEEF',
    };
    const run = await inProcess([], env);
    expect(run.err).not.toMatch(/unknown|Unknown/);
    expect(run.code).toBe(0);
    expect(run.ready?.devices[0].serial).toBe('ACCC8E00BEEF');
    expect(readFileSync(readyFile, 'utf8')).toBe('the outer emulator');
  });

  it('applies to every command: destination, upload, record, validate, scenarios', async () => {
    const destination = await inProcess(['destination'], { BWC_EMU_PORT: 'x', BWC_EMU_SCENARIO: 'motion' });
    expect(destination.err).toContain(
      '--port must be a port number (0-65535), not "x" (--port was set by BWC_EMU_PORT)',
    );
    const upload = await inProcess(['upload', '-c', 'c.json'], { BWC_EMU_CONCURRENCY: 'many' });
    expect(upload.err).toContain(
      '--concurrency must be a whole number of 1 or more, not many (--concurrency was set by BWC_EMU_CONCURRENCY)',
    );
    const record = await inProcess(['record', '--url', 'ws://x/', '--out', 'x'], { BWC_EMU_MAX_EVENTS: 'all' });
    expect(record.err).toContain('(--max-events was set by BWC_EMU_MAX_EVENTS)');
    for (const command of ['validate', 'scenarios']) {
      const help = await inProcess([command, '--help'], { BWC_EMU_PORT: '1' });
      expect(help.code).toBe(0);
      expect(help.out).toContain('BWC_EMU_<OPTION>');
    }
  });
});

describe('--config FILE', () => {
  it('reads JSON and YAML; a variable wins over the file, a flag over both', async () => {
    const json = join(dir, 'settings.json');
    writeFileSync(json, JSON.stringify({ port: 0, serial: 'ACCC8E00F11E', 'log-level': 'silent', devices: 2 }));
    const fromFile = await inProcess(['--config', json], {});
    expect(fromFile.code).toBe(0);
    expect(fromFile.ready?.devices.map((d) => d.serial)).toEqual(['ACCC8E00F11E', 'ACCC8E00F11E-2']);
    const yaml = join(dir, 'settings.yaml');
    writeFileSync(yaml, 'port: 0\nserial: ACCC8E00F11E\nlogLevel: silent\nscenario: [motion]\n');
    const both = await inProcess(['--serial', 'ACCC8E0000AA'], {
      BWC_EMU_CONFIG: yaml,
      BWC_EMU_SERIAL: 'ACCC8E0000BB',
    });
    expect(both.ready?.devices[0].serial).toBe('ACCC8E0000AA');
    const variable = await inProcess(['--config', yaml], { BWC_EMU_SERIAL: 'ACCC8E0000BB' });
    expect(variable.ready?.devices[0].serial).toBe('ACCC8E0000BB');
  });

  it('refuses an unknown key, a bad value or a file it cannot read, naming the file', async () => {
    const file = join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify({ prot: 0 }));
    expect((await inProcess(['--config', file], {})).err).toContain(
      `unknown option --prot (--prot was set by the config file ${file})`,
    );
    writeFileSync(file, JSON.stringify({ port: 'abc' }));
    expect((await inProcess(['--config', file], {})).err).toContain(
      `--port must be a port number (0-65535), not "abc" (--port was set by the config file ${file})`,
    );
    const missing = await inProcess(['--config', join(dir, 'none.json')], {});
    expect(missing.code).toBe(2);
    expect(missing.err).toContain(`--config ${join(dir, 'none.json')}: cannot read it`);
  });
});

describe('the Docker image', () => {
  /** The `ENV NAME=value` lines of the Dockerfile's last stage. */
  const dockerEnv = (): Record<string, string> => {
    const text = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
    const last = text.slice(text.lastIndexOf('\nFROM '));
    return Object.fromEntries([...last.matchAll(/^ENV ([A-Z_]+)=(\S+)$/gm)].map((m) => [m[1], m[2]]));
  };

  it('gives its defaults as variables, so `docker run IMAGE --scenario x` still listens on 0.0.0.0', async () => {
    const env = dockerEnv();
    expect(env).toMatchObject({ BWC_EMU_HOST: '0.0.0.0', BWC_EMU_PORT: '8080' });
    expect(readFileSync(join(ROOT, 'Dockerfile'), 'utf8')).not.toMatch(/^CMD /m);
    // 8080 may be taken here: the port is the one value changed.
    const port = await freePort();
    const base = await readyBase(['--scenario', 'motion', '--log-level', 'silent'], {
      ...env,
      BWC_EMU_PORT: String(port),
    });
    expect(base).toBe(`http://0.0.0.0:${port}`);
    // Every interface: an address other than loopback answers too, when this machine has one.
    const outside = Object.values(networkInterfaces())
      .flat()
      .find((i) => i && !i.internal && i.family === 'IPv4');
    if (outside) expect((await fetch(`http://${outside.address}:${port}/`)).status).toBeGreaterThan(0);
  });
});
