/**
 * What the start-up banners may print of a secret: the built-in defaults (root / pass,
 * bws / secret) only at a terminal with readable logs; anything else, and everything in
 * JSON log mode, is named by where it comes from, and the commands to try read it from an
 * environment variable. Runs `main()` in-process with the terminal switched on and off.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDestination } from '../../src';
import { main } from '../../src/cli/main';
import { type Captured, capture } from '../helpers/cli-capture';

/** A chosen device password, an extra account's password and a destination key. */
const PASSWORD = 'Dev1ce-Passw0rd';
const VIEWER_PASSWORD = 'V1ewer-Passw0rd';
const KEY = 'Dest1nation-K3y';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'bwc-cli-secrets-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Runs `argv` until its banner is out (and `until` holds of the output), stops it, and
 * returns everything it printed (stdout + stderr).
 */
async function printed(
  argv: string[],
  isTty: boolean,
  until: (all: string) => boolean = () => true,
): Promise<{ c: Captured; all: string }> {
  const c = capture({ isTty });
  const exit = main(argv, c.io);
  await Promise.race([c.started, exit.then((code) => Promise.reject(new Error(`exited ${code}: ${c.err()}`)))]);
  while (!until(`${c.out()}${c.err()}`)) await new Promise((resolve) => setTimeout(resolve, 10));
  c.stop();
  expect(await exit).toBe(0);
  return { c, all: `${c.out()}${c.err()}` };
}

describe('the device banner', () => {
  it('shows the default login and a curl line with it at a terminal (npm start)', async () => {
    const { c } = await printed(['--port', '0', '--log-level', 'silent'], true);
    expect(c.out()).toContain('credentials    root / pass (admin)');
    expect(c.out()).toContain(`curl --digest -u root:pass -H 'Content-Type: application/json'`);
    expect(c.out()).not.toContain('BWC_EMU_PASSWORD');
  });

  it('never prints a chosen password, also at a terminal: it says where it comes from, curl reads a variable', async () => {
    const argv = [
      '--port',
      '0',
      '--log-level',
      'debug',
      '--password',
      PASSWORD,
      '--account',
      `v:${VIEWER_PASSWORD}:viewer`,
    ];
    const { c, all } = await printed(argv, true);
    expect(all).not.toContain(PASSWORD);
    expect(all).not.toContain(VIEWER_PASSWORD);
    expect(c.out()).toContain(
      'credentials    root (admin), password: as given by --password; and 1 more account(s) (--account)',
    );
    expect(c.out()).toContain(
      'The password is not printed here (as given by --password); the commands below read it from BWC_EMU_PASSWORD:',
    );
    expect(c.out()).toContain(`  export BWC_EMU_PASSWORD='<the password>'`);
    expect(c.out()).toContain(`curl --digest -u "root:$BWC_EMU_PASSWORD" -H 'Content-Type: application/json'`);
    expect(c.out()).toMatch(/wssession=\$\(curl -s --digest -u "root:\$BWC_EMU_PASSWORD" http:\/\/127\.0\.0\.1:\d+\//);
  });

  it('does not print even the default password when stdout is not a terminal', async () => {
    const { c, all } = await printed(['--port', '0', '--log-level', 'debug'], false);
    expect(all).not.toMatch(/root \/ pass|root:pass/);
    expect(c.err()).toContain('credentials    root (admin), password: the default one, shown by bwc-emu --help');
    expect(c.err()).toContain('The password is not printed here (the default one, shown by bwc-emu --help)');
  });

  it('does not print the default password in JSON log mode, at a terminal either', async () => {
    const { c } = await printed(['--port', '0', '--log-level', 'debug', '--log-format', 'json'], true);
    const banner = c.out().slice(c.out().indexOf('bwc-emu: device'));
    expect(banner).not.toMatch(/root \/ pass|root:pass/);
    expect(banner).toContain('curl --digest -u "root:$BWC_EMU_PASSWORD"');
  });

  it('leaves a chosen password out of the ready line; the ready file has it', async () => {
    const file = join(dir, 'ready.json');
    const c = capture();
    const exit = main(['--port', '0', '--log-level', 'silent', '--password', PASSWORD, '--ready-file', file], c.io);
    await c.started;
    const line = c.out().split('\n')[0];
    expect(line).toMatch(/^bwc-emu ready \{/);
    expect(line).not.toContain(PASSWORD);
    const ready = JSON.parse(line.slice('bwc-emu ready '.length)) as { devices: Record<string, unknown>[] };
    expect(ready.devices[0]).toMatchObject({ user: 'root' });
    expect(ready.devices[0]).not.toHaveProperty('password');
    const inFile = JSON.parse(readFileSync(file, 'utf8')) as { devices: Record<string, unknown>[] };
    expect(inFile.devices[0]).toMatchObject({ user: 'root', password: PASSWORD });
    c.stop();
    expect(await exit).toBe(0);
  });

  it('names the connection file as where the destination key is, never the key', async () => {
    const destination = await startDestination({ port: 0, users: [{ user: 'bws', key: KEY }] });
    try {
      const connectionFile = join(dir, 'cd.json');
      writeFileSync(connectionFile, JSON.stringify(destination.connectionFile()));
      const argv = [
        '--port',
        '0',
        '--log-level',
        'debug',
        '-s',
        'body-worn-shift',
        '--connection-file',
        connectionFile,
      ];
      // Stopped once connected: a stop while it connects leaves its sockets to close late.
      const { c, all } = await printed(argv, true, (out) => out.includes('body worn system connected'));
      expect(all).not.toContain(KEY);
      expect(c.out()).toContain(`(as bws, key: in connection file ${connectionFile})`);
    } finally {
      await destination.close();
    }
  });
});

describe('the destination banner', () => {
  it('shows the default login and key at a terminal', async () => {
    const { c } = await printed(['destination', '--port', '0', '--log-level', 'silent'], true);
    expect(c.out()).toContain('login          bws / secret -> ');
    expect(c.out()).toContain('"BlobAPIKey": "secret"');
    expect(c.out()).toContain(`-H 'X-Auth-User: bws' -H 'X-Auth-Key: secret'`);
  });

  it('never prints a chosen key: says it is in the connection file, and how to put it in a variable', async () => {
    const connectionFile = join(dir, 'cd.json');
    const argv = ['destination', '--port', '0', '--log-level', 'debug', '--user', 'team:alice', '--key', KEY];
    const { c, all } = await printed([...argv, '--connection-file', connectionFile], true);
    expect(all).not.toContain(KEY);
    expect(c.out()).toContain(`team:alice, key: as given by --key; also in connection file ${connectionFile} -> `);
    expect(c.out()).toContain(`Connection file written to ${connectionFile} (its key is not printed here):`);
    expect(c.out()).toContain('"BlobAPIKey": "<not printed: as given by --key;');
    expect(c.out()).toContain(
      `  export BWC_EMU_KEY="$(node -p 'JSON.parse(require("fs").readFileSync(process.argv[1])).BlobAPIKey' ${connectionFile})"`,
    );
    expect(c.out()).toContain(`curl -i -H 'X-Auth-User: team:alice' -H "X-Auth-Key: $BWC_EMU_KEY" `);
    expect(c.out()).toContain(`-U team:alice -K "$BWC_EMU_KEY" stat`);
    // The file itself has the key: it is what a body worn system is given.
    expect(JSON.parse(readFileSync(connectionFile, 'utf8'))).toMatchObject({ BlobAPIKey: KEY });
  });

  it('does not print the default key when stdout is not a terminal, nor in JSON log mode', async () => {
    for (const [flags, isTty] of [
      [[], false],
      [['--log-format', 'json'], true],
    ] as const) {
      const { all } = await printed(['destination', '--port', '0', '--log-level', 'debug', ...flags], isTty);
      expect(all).not.toMatch(/bws \/ secret|"BlobAPIKey": "secret"|X-Auth-Key: secret|-K secret/);
      expect(all).toContain("export BWC_EMU_KEY='<the key of bws>'");
    }
  });
});
