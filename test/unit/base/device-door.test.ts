/**
 * Device doors over real loopback sockets: doors sharing a port each answer at their own
 * address, a stray address is reset and logged once (a bounded number of addresses), an address
 * taken twice is refused, the last door out closes the shared port; suspend resets (or, on an
 * own port, refuses) and spares what it is told to, resume takes connections again.
 */
import { connect, type Socket } from 'node:net';
import { type DeviceDoor, type DoorEndpoint, openDoor } from '../../../src/base/device-door';
import { EmulatorError } from '../../../src/base/errors';
import { createLogger } from '../../../src/base/log';

/** An endpoint answering every request with `text` and refusing upgrades. */
function answering(text: string): DoorEndpoint {
  return { request: (_req, res) => res.end(text), upgrade: (_req, socket) => socket.destroy() };
}

/** A logger that keeps its lines, parsed. */
function recordingLog(): { log: ReturnType<typeof createLogger>; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const log = createLogger({ level: 'info', write: (line) => lines.push(JSON.parse(line) as Record<string, unknown>) });
  return { log, lines };
}

const doors: DeviceDoor[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(doors.splice(0).map((door) => door.close()));
});

/** Opens a door (closed after the test). */
async function open(text: string, host: string, port: number, log = recordingLog().log, sharePort = true) {
  const door = await openDoor(answering(text), { host, port, tls: undefined, log, sharePort });
  doors.push(door);
  return door;
}

/** A keep-alive connection to `host`:`port` (destroyed after the test). */
function dial(host: string, port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port });
    sockets.push(socket);
    socket.once('connect', () => {
      socket.off('error', reject);
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

/** Sends one request on `socket`: the body of its answer, or the error code that ended it. */
function ask(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let got = '';
    const onData = (chunk: Buffer): void => {
      got += chunk.toString('latin1');
      const end = got.indexOf('\r\n\r\n');
      if (end < 0) return;
      const length = Number(/content-length: (\d+)/i.exec(got)?.[1] ?? 0);
      if (got.length < end + 4 + length) return;
      finish(got.slice(end + 4, end + 4 + length));
    };
    const onError = (err: NodeJS.ErrnoException): void => finish(err.code ?? err.message);
    const onClose = (): void => finish('closed');
    const finish = (outcome: string): void => {
      socket.off('data', onData).off('error', onError).off('close', onClose);
      resolve(outcome);
    };
    socket.on('data', onData).on('error', onError).on('close', onClose);
    socket.write('GET / HTTP/1.1\r\nHost: device\r\n\r\n');
  });
}

/** One request on a new connection: the answer's body, or the error code (ECONNREFUSED, ECONNRESET). */
async function fetchAt(host: string, port: number): Promise<string> {
  let socket: Socket;
  try {
    socket = await dial(host, port);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code ?? String(err);
  }
  return ask(socket);
}

/** Resolves with the error code that ends `socket` ('closed' when it just closes). */
function ended(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    socket.once('close', () => resolve('closed'));
  });
}

const strays = (lines: Record<string, unknown>[]): unknown[] =>
  lines.filter((line) => line.msg === 'connection to an address without a device: reset').map((line) => line.address);

describe('a shared port (address mode)', () => {
  it('hands each connection to the door at its address; a stray address is reset and logged once', async () => {
    const { log, lines } = recordingLog();
    const a = await open('A', '127.5.0.1', 0, log);
    const b = await open('B', '127.5.0.2', a.port, log);
    expect(b.port).toBe(a.port);
    expect(a.url).toBe(`http://127.5.0.1:${a.port}`);
    expect(await fetchAt('127.5.0.1', a.port)).toBe('A');
    expect(await fetchAt('127.5.0.2', a.port)).toBe('B');
    expect(await fetchAt('127.5.0.3', a.port)).toBe('ECONNRESET');
    expect(await fetchAt('127.5.0.3', a.port)).toBe('ECONNRESET');
    expect(strays(lines)).toEqual(['127.5.0.3']);
    expect(lines.find((line) => line.address === '127.5.0.3')?.port).toBe(a.port);
    expect(await fetchAt('127.5.0.1', a.port)).toBe('A');
  });

  it('logs at most 100 stray addresses, then only resets', async () => {
    const { log, lines } = recordingLog();
    const door = await open('A', '127.5.1.1', 0, log);
    const addresses = Array.from({ length: 102 }, (_, k) => `127.5.2.${k + 1}`);
    const outcomes = await Promise.all(addresses.map((address) => fetchAt(address, door.port)));
    expect(new Set(outcomes)).toEqual(new Set(['ECONNRESET']));
    expect(strays(lines)).toHaveLength(100);
    expect(await fetchAt('127.5.1.1', door.port)).toBe('A');
  });

  it('refuses a second door at an address already taken at that port, and keeps the first', async () => {
    const a = await open('A', '127.5.3.1', 0);
    const refused = openDoor(answering('X'), {
      host: '127.5.3.1',
      port: a.port,
      tls: undefined,
      log: recordingLog().log,
      sharePort: true,
    });
    const err: unknown = await refused.catch((thrown: unknown) => thrown);
    expect(err).toBeInstanceOf(EmulatorError);
    expect((err as EmulatorError).code).toBe('PORT_IN_USE');
    expect((err as EmulatorError).message).toContain(`address 127.5.3.1 port ${a.port} is already taken`);
    expect(await fetchAt('127.5.3.1', a.port)).toBe('A');
  });

  it('stays open while a door is at it; the last door to close closes the port', async () => {
    const a = await open('A', '127.5.4.1', 0);
    const b = await open('B', '127.5.4.2', a.port);
    const port = a.port;
    await a.close();
    expect(await fetchAt('127.5.4.1', port)).toBe('ECONNRESET');
    expect(await fetchAt('127.5.4.2', port)).toBe('B');
    await b.close();
    expect(await fetchAt('127.5.4.2', port)).toBe('ECONNREFUSED');
    // The port can be shared again from scratch, with the address that left free again.
    const again = await open('C', '127.5.4.1', port);
    expect(again.port).toBe(port);
    expect(await fetchAt('127.5.4.1', port)).toBe('C');
  });

  it('suspend resets open connections but the spared one and new ones; resume takes them again', async () => {
    const a = await open('A', '127.5.5.1', 0);
    const b = await open('B', '127.5.5.2', a.port);
    const kept = await dial('127.5.5.1', a.port);
    const dropped = await dial('127.5.5.1', a.port);
    const other = await dial('127.5.5.2', a.port);
    expect(await ask(kept)).toBe('A');
    expect(await ask(dropped)).toBe('A');
    expect(await ask(other)).toBe('B');
    const droppedEnd = ended(dropped);
    await a.suspend((socket) => socket.remotePort === kept.localPort);
    expect(await droppedEnd).toBe('ECONNRESET');
    expect(await fetchAt('127.5.5.1', a.port)).toBe('ECONNRESET');
    expect(await ask(kept)).toBe('A');
    expect(await ask(other)).toBe('B');
    expect(await fetchAt('127.5.5.2', b.port)).toBe('B');
    await a.resume();
    expect(await fetchAt('127.5.5.1', a.port)).toBe('A');
    expect(await ask(kept)).toBe('A');
  });
});

describe('an own port (ports mode)', () => {
  it('suspend refuses connections and resets open ones; resume listens on the same port', async () => {
    const door = await open('A', '127.0.0.1', 0, recordingLog().log, false);
    const port = door.port;
    expect(door.url).toBe(`http://127.0.0.1:${port}`);
    const open1 = await dial('127.0.0.1', port);
    expect(await ask(open1)).toBe('A');
    const end = ended(open1);
    await door.suspend();
    expect(await end).toBe('ECONNRESET');
    expect(await fetchAt('127.0.0.1', port)).toBe('ECONNREFUSED');
    await door.resume();
    expect(door.port).toBe(port);
    expect(await fetchAt('127.0.0.1', port)).toBe('A');
  });

  it('suspend spares the connection it is told to; resume comes back while it is still open', async () => {
    const door = await open('A', '127.0.0.1', 0, recordingLog().log, false);
    const kept = await dial('127.0.0.1', door.port);
    expect(await ask(kept)).toBe('A');
    await door.suspend((socket) => socket.remotePort === kept.localPort);
    expect(await fetchAt('127.0.0.1', door.port)).toBe('ECONNREFUSED');
    expect(await ask(kept)).toBe('A');
    await door.resume();
    expect(await fetchAt('127.0.0.1', door.port)).toBe('A');
    expect(await ask(kept)).toBe('A');
  });

  it('close refuses new connections and ends open ones', async () => {
    const door = await open('A', '127.0.0.1', 0, recordingLog().log, false);
    const port = door.port;
    const socket = await dial('127.0.0.1', port);
    expect(await ask(socket)).toBe('A');
    const end = ended(socket);
    await door.close();
    expect(['closed', 'ECONNRESET']).toContain(await end);
    expect(await fetchAt('127.0.0.1', port)).toBe('ECONNREFUSED');
  });
});
