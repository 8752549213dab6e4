/**
 * `bwc-emu --devices N --address-range START` (issue 33): every device on the same port of its
 * own address, as cameras are reached. The ready file lists each device at its address and
 * each answers there with its own serial; --port defaults to 80 (443 with --tls) in address
 * mode, which an unprivileged user is told how to get past in one line; a bad START or a
 * range past IPv4 is one line and exit 2; the variable and the config file set it as the
 * flag does; a big fleet's banner stays short, and its start shows progress on a terminal only.
 */
import { execFile, execFileSync } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../src/cli/main';
import { PROGRESS_MIN_DEVICES } from '../../src/cli/start-progress';
import { capture } from '../helpers/cli-capture';
import { NODE, ROOT } from '../helpers/bwc-emu-process';

/** The ready document as the line and the file carry it (the part read here). */
interface Ready {
  devices: { serial: string; urls: { base: string; basicDeviceInfo: string }; control?: string }[];
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'bwc-emu-address-mode-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `bwc-emu args` in-process until its banner is out, hands the capture to `check`, then stops it. */
async function whileRunning(
  args: string[],
  check: (run: ReturnType<typeof capture>) => Promise<void> | void,
  io: Partial<ReturnType<typeof capture>['io']> = {},
): Promise<void> {
  const run = capture();
  const exit = main([...args, '--log-level', 'silent'], { ...run.io, ...io });
  const ended = await Promise.race([run.started.then(() => false), exit.then(() => true)]);
  if (ended) throw new Error(`exited with ${await exit}: ${run.err()}`);
  try {
    await check(run);
  } finally {
    run.stop('SIGTERM');
  }
  expect(await exit).toBe(0);
}

/** The ready document of the ready line in `out`. */
function readyOf(out: string): Ready {
  const line = /^bwc-emu ready (.*)$/m.exec(out)?.[1];
  if (!line) throw new Error(`no ready line in: ${out.slice(0, 200)}`);
  return JSON.parse(line) as Ready;
}

/** The serial basicdeviceinfo.cgi (anonymous by default) answers at `url`. */
async function serialAt(url: string): Promise<string> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ apiVersion: '1.0', method: 'getAllUnrestrictedProperties' }),
  });
  const body = (await res.json()) as { data: { propertyList: { SerialNumber: string } } };
  return body.data.propertyList.SerialNumber;
}

describe('bwc-emu --address-range', () => {
  it('puts --devices 3 at 127.3.0.1..3 on one port: the ready file lists each, each answers with its own serial', async () => {
    const readyFile = join(dir, 'ready.json');
    await whileRunning(
      ['--devices', '3', '--address-range', '127.3.0.1', '--port', '0', '--ready-file', readyFile],
      async () => {
        const ready = JSON.parse(readFileSync(readyFile, 'utf8')) as Ready;
        const bases = ready.devices.map((d) => new URL(d.urls.base));
        expect(bases.map((u) => u.hostname)).toEqual(['127.3.0.1', '127.3.0.2', '127.3.0.3']);
        const port = bases[0].port;
        expect(Number(port)).toBeGreaterThan(0);
        expect(bases.map((u) => u.port)).toEqual([port, port, port]);
        expect(ready.devices.map((d) => d.serial)).toEqual(['ACCC8E000001', 'ACCC8E000002', 'ACCC8E000003']);
        for (const device of ready.devices) {
          expect(device.urls.basicDeviceInfo.startsWith(`${device.urls.base}/`)).toBe(true);
          expect(await serialAt(device.urls.basicDeviceInfo)).toBe(device.serial);
        }
        // By address, on the shared port, as a client that knows only the address reaches it.
        expect(await serialAt(`http://127.3.0.2:${port}/svc-cgi/basicdeviceinfo.cgi`)).toBe('ACCC8E000002');
      },
    );
  });

  it('--address-range without --devices is one device at that address', async () => {
    await whileRunning(['--address-range', '127.3.0.9', '--port', '0'], (run) => {
      const ready = readyOf(run.out());
      expect(ready.devices.map((d) => new URL(d.urls.base).hostname)).toEqual(['127.3.0.9']);
      expect(run.err()).toContain('bwc-emu: device ACCC8E000001 is running');
    });
  });

  it('is set by BWC_EMU_ADDRESS_RANGE and by --config as by the flag', async () => {
    const env = { BWC_EMU_ADDRESS_RANGE: '127.3.1.1', BWC_EMU_DEVICES: '2', BWC_EMU_PORT: '0' };
    await whileRunning(
      [],
      (run) => {
        const hosts = readyOf(run.out()).devices.map((d) => new URL(d.urls.base).hostname);
        expect(hosts).toEqual(['127.3.1.1', '127.3.1.2']);
      },
      { env },
    );
    const config = join(dir, 'fleet.json');
    writeFileSync(config, JSON.stringify({ 'address-range': '127.3.2.1', devices: 2, port: 0 }));
    await whileRunning(
      ['--config', config],
      (run) => {
        const hosts = readyOf(run.out()).devices.map((d) => new URL(d.urls.base).hostname);
        expect(hosts).toEqual(['127.3.2.1', '127.3.2.2']);
      },
      { env: {} },
    );
  });

  it('refuses a bad START and a range past IPv4 in one line, exit 2, naming the flag (or the variable)', async () => {
    const cases: [string[], Record<string, string>, string][] = [
      [
        ['--address-range', '127.1.0.300'],
        {},
        'bwc-emu: --address-range "127.1.0.300" must be an IPv4 address, the first device\'s (e.g. --address-range 127.1.0.1)\n',
      ],
      [['--address-range', 'cameras'], {}, 'bwc-emu: --address-range "cameras" must be an IPv4 address'],
      [
        ['--address-range', '255.255.255.250', '--devices', '10'],
        {},
        'bwc-emu: --address-range 255.255.255.250 with 10 devices goes past 255.255.255.255 (the last IPv4 address); start lower (e.g. --address-range 127.1.0.1)\n',
      ],
      [[], { BWC_EMU_ADDRESS_RANGE: '::1' }, '(--address-range was set by BWC_EMU_ADDRESS_RANGE)\n'],
    ];
    for (const [args, env, message] of cases) {
      const run = capture();
      expect(await main([...args, '--port', '0'], { ...run.io, env })).toBe(2);
      expect(run.err()).toContain(message);
      expect(run.err().trim().split('\n')).toHaveLength(1);
      expect(run.out()).toBe('');
    }
  });

  it('lists the two modes in --help', async () => {
    const run = capture();
    expect(await main(['--help'], { ...run.io, env: {} })).toBe(0);
    const help = run.out().replace(/\s+/g, ' ');
    expect(help).toContain('--address-range');
    expect(help).toContain(
      'on --port, --port + 1, ...; with --address-range, every device on --port of its own address',
    );
    expect(help).toContain('(default: 8080; with --address-range 80, or 443 with --tls)');
  });
});

describe('the banner of a fleet', () => {
  it('names the addresses and the shared port, and lists the first 10 devices and the last of a big fleet', async () => {
    await whileRunning(['--devices', '25', '--address-range', '127.4.1.1', '--port', '0'], (run) => {
      const err = run.err();
      const port = new URL(readyOf(run.out()).devices[0].urls.base).port;
      expect(err).toContain(
        `bwc-emu: 25 devices are running, each with this login at its own address, all on port ${port}\n`,
      );
      expect(err).toContain('  addresses      127.4.1.1 to 127.4.1.25\n');
      const rows = err.match(/^ {2}ACCC8E\d{6} {2}\S+$/gm) ?? [];
      expect(rows).toEqual([
        ...Array.from(
          { length: 10 },
          (_, i) => `  ACCC8E0000${String(i + 1).padStart(2, '0')}  http://127.4.1.${i + 1}:${port}`,
        ),
        `  ACCC8E000025  http://127.4.1.25:${port}`,
      ]);
      expect(err).toContain('\n  ... 14 more ...\n');
      expect(err).toContain(
        `  every device: the ready file (--ready-file FILE) or GET http://127.4.1.1:${port}/_emu/devices\n`,
      );
    });
  });

  it('lists every device of a fleet of 20, and says each has its own port in ports mode', async () => {
    await whileRunning(['--devices', '20', '--port', '0', '--no-control'], (run) => {
      const err = run.err();
      expect(err).toContain('bwc-emu: 20 devices are running, each with this login and its own port\n');
      expect(err).not.toContain('addresses ');
      expect(err.match(/^ {2}ACCC8E\d{6} {2}http:\/\/127\.0\.0\.1:\d+$/gm)).toHaveLength(20);
      expect(err).not.toContain('more ...');
    });
  });
});

describe('a big fleet at a terminal', () => {
  const fleet = ['--devices', String(PROGRESS_MIN_DEVICES + 1), '--address-range', '127.4.0.1', '--port', '0'];

  it('shows the start on stderr, redrawn with \\r and cleared before the banner, when stderr is a terminal', async () => {
    await whileRunning(
      fleet,
      (run) => {
        const err = run.err();
        expect(err).toContain('\rstarting devices: 1,001 / 1,001 (100%)\x1b[K\r\x1b[K');
        expect(err.match(/\rstarting devices: /g)?.length).toBeGreaterThanOrEqual(2);
        // Cleared before the banner: no progress after it, and the banner starts on a clean line.
        expect(err.lastIndexOf('starting devices')).toBeLessThan(err.indexOf('devices are running'));
        expect(run.out()).not.toContain('starting devices');
      },
      { errIsTty: true },
    );
  });

  it('shows nothing when stderr is no terminal (CI logs, pipes), nor for 1,000 devices', async () => {
    await whileRunning(fleet, (run) => expect(run.err()).not.toContain('starting devices'), { errIsTty: false });
    const thousand = ['--devices', String(PROGRESS_MIN_DEVICES), '--address-range', '127.4.8.1', '--port', '0'];
    await whileRunning(thousand, (run) => expect(run.err()).not.toContain('starting devices'), { errIsTty: true });
  });
});

/**
 * How to run Node.js without the right to bind ports below 1024: as this user when it is not
 * root, else as nobody through setpriv; or why that cannot be done here.
 */
function unprivileged(): string[] | string {
  try {
    const start = Number(readFileSync('/proc/sys/net/ipv4/ip_unprivileged_port_start', 'utf8'));
    if (start < 1024) return `any user may bind ports from ${start} here (net.ipv4.ip_unprivileged_port_start)`;
  } catch {
    // Not Linux, or no such setting: ports below 1024 need the right.
  }
  try {
    accessSync(join(ROOT, 'dist/cli/main.js'), constants.R_OK);
  } catch {
    return 'dist/ is not built (npx tsc -p tsconfig.build.json)';
  }
  if (process.getuid?.() !== 0) return [NODE];
  const prefix = ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', NODE];
  try {
    execFileSync(prefix[0], [...prefix.slice(1), '-e', '0'], { stdio: 'ignore' });
  } catch (err) {
    return `setpriv cannot run Node.js as nobody here: ${(err as Error).message.split('\n')[0]}`;
  }
  return prefix;
}

/** Runs `bin/bwc-emu args` behind `prefix` (see {@link unprivileged}) to its end (killed after 20 s). */
function runUnprivileged(
  prefix: string[],
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const [command, ...rest] = prefix;
    execFile(command, [...rest, join(ROOT, 'bin/bwc-emu'), ...args], { timeout: 20_000 }, (err, stdout, stderr) => {
      const code = err ? (err as { code?: number | string }).code : 0;
      resolve({ code: typeof code === 'number' ? code : null, stdout, stderr });
    });
  });
}

describe('bwc-emu --address-range without the right to ports below 1024', () => {
  const prefix = unprivileged();
  const itUnprivileged = typeof prefix === 'string' ? it.skip : it;
  if (typeof prefix === 'string') process.stderr.write(`skipping the test of --address-range below 1024: ${prefix}\n`);

  itUnprivileged('defaults --port to 80 (443 with --tls) and says in one line how to get past it, exit 2', async () => {
    for (const [flags, port] of [
      [[], 80],
      [['--tls'], 443],
    ] as const) {
      const run = await runUnprivileged(prefix as string[], [
        '--address-range',
        '127.3.3.1',
        '--devices',
        '2',
        ...flags,
      ]);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      const lines = run.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(new RegExp(`^bwc-emu: port ${port} on .* is below 1024`));
      expect(lines[0]).toContain('--port 8080');
      expect(lines[0]).toContain('cap_net_bind_service');
    }
  });
});
