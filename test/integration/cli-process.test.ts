/**
 * `bwc-emu` as a fixture for a harness in any language: a real process through
 * bin/bwc-emu with its stdout and stderr piped. The ready line comes first on stdout,
 * the ready file is written, the banner goes to stderr, and the process exits within a
 * second of SIGTERM even when nobody ever reads its stdout.
 */
import { type ChildProcessWithoutNullStreams, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '../..');
const READY = 'bwc-emu ready ';

/** The ready document, as the line and the file carry it. */
interface Ready {
  devices: { serial: string; urls: { base: string; apiDiscovery: string }; user?: string; control?: string }[];
  control: string | null;
}

/** A running `bwc-emu`, with how it ended once it has. */
interface Running {
  child: ChildProcessWithoutNullStreams;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  /** Everything on stderr so far. */
  stderr: () => string;
}

const running: ChildProcessWithoutNullStreams[] = [];

/** Starts `bin/bwc-emu args` with piped stdio; stdout is left alone (not read) unless the test reads it. */
function start(args: string[]): Running {
  const child = spawn(process.execPath, [join(ROOT, 'bin/bwc-emu'), ...args], { stdio: 'pipe' });
  running.push(child);
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal, at: performance.now() })),
  );
  return { child, exited, stderr: () => err };
}

/** Resolves when `test` holds of stderr; fails if the process exits first. */
function stderrUntil(run: Running, test: (err: string) => boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    const check = (): void => {
      if (test(run.stderr())) resolve(run.stderr());
    };
    run.child.stderr.on('data', check);
    void run.exited.then(({ code }) => reject(new Error(`exited with ${code} first: ${run.stderr()}`)));
    check();
  });
}

/** Reads stdout up to the first newline: the first line. */
function firstLine(run: Running): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (chunk: Buffer): void => {
      out += chunk.toString();
      const end = out.indexOf('\n');
      if (end < 0) return;
      run.child.stdout.off('data', onData);
      resolve(out.slice(0, end));
    };
    run.child.stdout.on('data', onData);
    void run.exited.then(({ code }) => reject(new Error(`exited with ${code} first: ${run.stderr()}`)));
  });
}

/** All of stdout, once the process has ended. */
function allOutput(run: Running): Promise<string> {
  let out = '';
  run.child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve) => run.child.stdout.once('close', () => resolve(out)));
}

/** The ready document of a ready line. */
function parseReady(line: string): Ready {
  expect(line.startsWith(READY)).toBe(true);
  return JSON.parse(line.slice(READY.length)) as Ready;
}

/** Stops the process with SIGINT and waits for its exit code. */
async function stop(run: Running): Promise<number | null> {
  run.child.kill('SIGINT');
  return (await run.exited).code;
}

beforeAll(() => {
  // CI builds at `npm ci`; a fresh clone without dist/ builds it here.
  if (!existsSync(join(ROOT, 'dist/cli/main.js')))
    execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'ignore' });
}, 120_000);

afterEach(() => {
  for (const child of running.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

describe('bwc-emu as a process', () => {
  it('exits within 1 s of SIGTERM while megabytes of log wait unread on its stdout', async () => {
    const run = start(['--port', '0', '--log-level', 'debug', '--log-format', 'json']);
    // stdout is never read: the URL comes from the banner, on stderr since stdout is a pipe.
    const banner = await stderrUntil(run, (err) => err.includes('Press Ctrl+C to stop.'));
    const url = /url +(http:\/\/127\.0\.0\.1:\d+)/.exec(banner)?.[1];
    expect(url).toBeDefined();
    // Each request logs a line of about 4 KB (the URL is in it): 400 of them are far more
    // than a pipe holds (64 KiB), and more than the 1 MiB after which log lines are dropped.
    const pad = 'x'.repeat(4000);
    let answered = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let i = 0; i < 50; i++) {
          const answer = await fetch(`${url}/svc-cgi/apidiscovery.cgi?pad=${pad}`, {
            method: 'POST',
            body: '{"apiVersion":"1.0","method":"getApiList"}',
            signal: AbortSignal.timeout(5000),
          });
          await answer.text();
          answered++;
        }
      }),
    );
    expect(answered).toBe(400); // the event loop was never stuck on a write
    const sent = performance.now();
    run.child.kill('SIGTERM');
    // The exit event says when; 3 s only bounds how long the test waits for it.
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<{ code: null; at: number }>((resolve) => {
      timer = setTimeout(() => resolve({ code: null, at: Infinity }), 3000);
    });
    const { code, at } = await Promise.race([run.exited, gaveUp]);
    clearTimeout(timer);
    expect(at - sent).toBeLessThan(1000);
    expect(code).toBe(0);
  }, 15_000);

  it('prints the ready line first on stdout, with every device URL, before any log line', async () => {
    const run = start(['--port', '0', '--devices', '2', '--log-level', 'debug', '--log-format', 'json']);
    const ready = parseReady(await firstLine(run));
    expect(ready.devices.map((d) => d.serial)).toEqual(['ACCC8E000001', 'ACCC8E000002']);
    expect(ready.devices[0].user).toBe('root');
    expect(ready.control).toBe(ready.devices[0].control ?? null);
    const answer = await fetch(ready.devices[1].urls.apiDiscovery, {
      method: 'POST',
      body: '{"apiVersion":"1.0","method":"getApiList"}',
    });
    expect(answer.status).toBe(200);
    expect(await stop(run)).toBe(0);
  });

  it('writes --ready-file with the same document once ready, and removes it at the end', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bwc-ready-'));
    try {
      const file = join(dir, 'sub', 'ready.json');
      const run = start(['--port', '0', '--ready-file', file, '--no-control', '--log-level', 'silent']);
      const ready = parseReady(await firstLine(run));
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(ready);
      expect(ready.control).toBeNull();
      expect(ready.devices[0].control).toBeUndefined();
      expect(await stop(run)).toBe(0);
      expect(existsSync(file)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('puts the banner on stderr and only the ready line on stdout with --log-level silent', async () => {
    const run = start(['--port', '0', '--log-level', 'silent']);
    const output = allOutput(run);
    const banner = await stderrUntil(run, (err) => err.includes('Press Ctrl+C to stop.'));
    expect(banner).toContain('bwc-emu: device ACCC8E000001 is running');
    expect(await stop(run)).toBe(0);
    const lines = (await output).split('\n');
    expect(lines).toHaveLength(2); // the ready line and the empty rest after its newline
    expect(parseReady(lines[0]).devices).toHaveLength(1);
    expect(lines[1]).toBe('');
    expect(run.stderr()).toContain('SIGINT: stopping');
  });

  it('refuses a bad flag with one line on stderr and exit code 2', async () => {
    const run = start(['--devices', '0']);
    const output = allOutput(run);
    expect((await run.exited).code).toBe(2);
    expect(run.stderr()).toBe('bwc-emu: devices must be a whole number from 1 to 100000, not 0\n');
    expect(await output).toBe('');
  });
});
