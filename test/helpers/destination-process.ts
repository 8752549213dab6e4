/**
 * `bwc-emu destination` as a child process (the real `bin/bwc-emu`, from dist/: run
 * `npm run build` first), for tests that kill it the hard way and start it again.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { NODE, ROOT } from './bwc-emu-process';

/** A running destination process. */
export interface DestinationProcess {
  /** Base URL from its banner. */
  url: string;
  child: ChildProcess;
  /** Resolves when it has exited, with its signal (`SIGKILL` after a kill). */
  exited: Promise<NodeJS.Signals | null>;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
}

/**
 * Starts `bwc-emu destination --port 0 ...args` and resolves once its banner names its URL
 * (within 15 s); fails with what it printed if it exits first.
 */
export function spawnDestination(args: string[]): Promise<DestinationProcess> {
  if (!existsSync(join(ROOT, 'dist/cli/main.js')))
    return Promise.reject(new Error('dist/ is missing: run `npm run build` before this test'));
  const child = spawn(NODE, [join(ROOT, 'bin/bwc-emu'), 'destination', '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let printed = '';
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.once('exit', (_code, signal) => resolve(signal)),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no banner within 15 s:\n${printed}`));
    }, 15_000);
    const onData = (chunk: Buffer): void => {
      printed += chunk.toString();
      const url = /url {12}(\S+)/.exec(printed)?.[1];
      if (!url) return;
      clearTimeout(timer);
      resolve({ url, child, exited, output: () => printed });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`exited before its banner:\n${printed}`));
    });
  });
}
