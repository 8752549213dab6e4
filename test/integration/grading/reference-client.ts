/**
 * The reference well-behaved clients (examples/reference-clients) as child processes of the
 * matrix: each started against one device with the matrix's shortened timings, its JSON
 * lines kept as they come, and stopped with SIGTERM as a service manager stops it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { toolEnv } from '../../helpers/cli-tool';
import { PYTHON } from '../../helpers/python-script';

/** The clients, by the language they are written in. */
export const CLIENT_KINDS = ['python', 'node'] as const;

/** One of {@link CLIENT_KINDS}. */
export type ClientKind = (typeof CLIENT_KINDS)[number];

/** What each client is built on, as docs/grading.md lists them. */
export const CLIENT_LIBRARIES: Record<ClientKind, string> = {
  python:
    'Python (`python/well_behaved_client.py`): requests with `HTTPDigestAuth` on one `Session`, websocket-client (`WebSocketApp`)',
  node: 'Node (`node/well-behaved-client.js`): `ws`, and `node:http` with a digest helper that keeps its nonce',
};

/** One line a client logged: seconds since its start, the event, and the event's fields. */
export interface ClientLine {
  readonly t: number;
  readonly event: string;
  readonly [field: string]: unknown;
}

/** How a client ended: its exit code (null when killed) and the signal that killed it. */
export interface ClientExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

const EXAMPLES = join(__dirname, '../../../examples/reference-clients');

/** The interpreter and script of each client. */
const COMMANDS: Record<ClientKind, readonly [string, string]> = {
  python: [PYTHON, join(EXAMPLES, 'python/well_behaved_client.py')],
  node: [process.execPath, join(EXAMPLES, 'node/well-behaved-client.js')],
};

/** How long a client may take to stop after SIGTERM before it is killed (and fails its case). */
const STOP_MS = 15_000;

/** A running reference client and what it has logged so far. */
export class ReferenceClient {
  readonly lines: ClientLine[] = [];
  /** Its stderr, and stdout that was not a JSON line. */
  output = '';
  private readonly child: ChildProcess;
  private readonly exited: Promise<ClientExit>;
  private pending = '';
  /** Waits of {@link waitFor}, each told every new line; true once it is met. */
  private readonly waiters = new Set<(line: ClientLine) => boolean>();

  /**
   * Starts the `kind` client with `args` (the base URL and options); it runs until {@link stop}.
   * `script` runs another client of that language instead (one built on the reference client).
   */
  constructor(
    readonly kind: ClientKind,
    args: readonly string[],
    script?: string,
  ) {
    const [file, reference] = COMMANDS[kind];
    this.child = spawn(file, [script ?? reference, ...args], { env: toolEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    this.child.stdout?.setEncoding('utf8').on('data', (chunk: string) => this.take(chunk));
    this.child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (this.output += chunk));
    this.exited = new Promise((resolve) => this.child.once('exit', (code, signal) => resolve({ code, signal })));
  }

  /** The lines of `event` (and matching `where`, when given). */
  events(event: string, where: (line: ClientLine) => boolean = () => true): ClientLine[] {
    return this.lines.filter((line) => line.event === event && where(line));
  }

  /**
   * Resolves once `count` lines of `event` (matching `where`) were logged; fails after `timeoutMs`.
   * Checked as lines come, not polled: fifty clients polled every few ms starve the emulator.
   */
  waitFor(
    event: string,
    count = 1,
    where: (line: ClientLine) => boolean = () => true,
    timeoutMs = 15_000,
  ): Promise<void> {
    let seen = this.events(event, where).length;
    if (seen >= count) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const waiter = (line: ClientLine): boolean => {
        if (line.event !== event || !where(line) || ++seen < count) return false;
        clearTimeout(timer);
        resolve();
        return true;
      };
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${count} "${event}" of the ${this.kind} client`));
      }, timeoutMs);
      this.waiters.add(waiter);
    });
  }

  /** Sends SIGTERM and resolves with the exit (a SIGKILL after {@link STOP_MS} shows as signal SIGKILL). */
  async stop(): Promise<ClientExit> {
    this.child.kill('SIGTERM');
    const killer = setTimeout(() => this.child.kill('SIGKILL'), STOP_MS);
    try {
      return await this.exited;
    } finally {
      clearTimeout(killer);
    }
  }

  /** Splits stdout into JSON lines; anything else is kept in {@link output}. */
  private take(chunk: string): void {
    this.pending += chunk;
    let end: number;
    while ((end = this.pending.indexOf('\n')) >= 0) {
      const text = this.pending.slice(0, end);
      this.pending = this.pending.slice(end + 1);
      let line: ClientLine;
      try {
        line = JSON.parse(text) as ClientLine;
      } catch {
        this.output += `${text}\n`;
        continue;
      }
      this.lines.push(line);
      for (const waiter of this.waiters) if (waiter(line)) this.waiters.delete(waiter);
    }
  }
}

/**
 * A start queue: runs at most `limit` of the tasks given at once, the others in turn. Fifty
 * interpreters starting together on two cores starve the emulator's event loop for seconds.
 */
export function startQueue(limit: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    if (running < limit) running++;
    else await new Promise<void>((resolve) => waiting.push(resolve)); // handed a slot by a task that ended
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}
