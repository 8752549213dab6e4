/**
 * `bwc-emu run [options] -- COMMAND`: a real process through bin/bwc-emu runs a command
 * (here a small Node script, standing for a test suite in any language) once the emulator
 * is ready, with its addresses in the environment, and exits with the command's code.
 */
import { createServer } from 'node:net';
import { NODE, type Outcome, runBwcEmu } from '../helpers/bwc-emu-process';

/** Runs `bwc-emu run ...args` to its end. */
const run = (args: string[]): Promise<Outcome> => runBwcEmu(['run', ...args]);

/** A script for `node -e` that checks the environment and the emulator, then exits with `code`. */
const script = (code: number) => `
  const env = process.env;
  const names = ['BWC_EMU_URL','BWC_EMU_WS_URL','BWC_EMU_USER','BWC_EMU_PASSWORD','BWC_EMU_CONTROL_URL','BWC_EMU_READY_FILE'];
  const ready = JSON.parse(require('fs').readFileSync(env.BWC_EMU_READY_FILE, 'utf8'));
  fetch(env.BWC_EMU_CONTROL_URL + '/health').then((r) => r.json()).then((health) => {
    console.log('CHILD ' + JSON.stringify({ vars: names.filter((n) => env[n]), health, devices: ready.devices.length, ws: env.BWC_EMU_WS_URL }));
    process.exit(${code});
  });
`;

describe('bwc-emu run', () => {
  it('runs the command with the emulator ready and its addresses in the environment, and exits with its code', async () => {
    const outcome = await run(['--port', '0', '--devices', '2', '--log-level', 'warn', '--', NODE, '-e', script(3)]);
    expect(outcome.code).toBe(3);
    const child = JSON.parse(/^CHILD (.*)$/m.exec(outcome.stdout)?.[1] ?? 'null') as {
      vars: string[];
      health: { status: string };
      devices: number;
      ws: string;
    };
    expect(child.vars).toHaveLength(6);
    expect(child.health.status).toBe('ready');
    expect(child.devices).toBe(2);
    expect(child.ws).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/svc\/ws-data-stream\?sources=events$/);
  });

  it('exits 0 when the command passes, and the emulator is stopped afterwards', async () => {
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = server.address() as { port: number };
        server.close(() => resolve(free));
      });
    });
    const outcome = await run(['--port', String(port), '--', NODE, '-e', 'process.exit(0)']);
    expect(outcome.code).toBe(0);
    const free = await new Promise<boolean>((resolve) => {
      const server = createServer().once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
    });
    expect(free).toBe(true);
  });

  it('says what is wrong without a command (2) or with one that does not exist (127)', async () => {
    const none = await run(['--port', '0']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('name the command to run after --');
    const missing = await run(['--port', '0', '--log-level', 'silent', '--', 'no-such-command-bwc-emu']);
    expect(missing.code).toBe(127);
    expect(missing.stderr).toContain('cannot run no-such-command-bwc-emu: command not found');
  });

  it('refuses a bad option with exit 2 before running anything', async () => {
    const outcome = await run(['--devices', '0', '--', NODE, '-e', 'console.log("RAN")']);
    expect(outcome.code).toBe(2);
    expect(outcome.stdout).not.toContain('RAN');
  });
});
