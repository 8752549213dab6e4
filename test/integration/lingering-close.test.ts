/**
 * The lingering close of ../../src/base/lingering-close over real sockets, with small bounds:
 * after a refused body's answer, a connection reads on and throws away what the client still
 * sends, and closes as soon as the client has closed its side; a client that never stops is
 * cut at the byte bound (a flood) or the time bound (a trickle), having read the whole answer.
 */
import type { RequestListener } from 'node:http';
import { connect, type Socket } from 'node:net';
import { createLogger } from '../../src/base/log';
import type { LingerLimits } from '../../src/base/lingering-close';
import { listenApp, type ListeningServer } from '../../src/base/listening-server';
import { closeAfterBody, readBody } from '../../src/device/http-body';
import { parseResponse } from '../helpers/event-stream-raw';

/** Small bounds, so that a test waits a few hundred ms at most. */
const LINGER: LingerLimits = { maxBytes: 256 * 1024, maxMs: 300 };

/** The refusal, as the device's CGIs answer a body too large. */
const REFUSAL = JSON.stringify({ apiVersion: '1.0', error: { code: 2107, message: 'Request too large' } });

/** Takes 64 bytes of body; refuses more with {@link REFUSAL}, reading the rest of a declared body first. */
const app: RequestListener = (req, res) => {
  void readBody(req, 64).then((body) => {
    if (body.ok) return void res.end('ok');
    closeAfterBody(req, res, { maxBytes: 1024 * 1024, maxMs: 1000 });
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(REFUSAL) });
    res.end(REFUSAL);
  });
};

let server: ListeningServer;
/** Bytes each connection of this test's server read, when it closed. */
let readAtClose: number[] = [];
beforeEach(async () => {
  const reads: number[] = [];
  readAtClose = reads;
  server = await listenApp(app, { port: 0, host: '127.0.0.1', tls: undefined, log: createLogger(), linger: LINGER });
  server.server.on('connection', (socket: Socket) => socket.on('close', () => reads.push(socket.bytesRead)));
});
afterEach(() => server.close());

/** A request declaring 100 bytes (over the 64 taken), then `more` while the test says so. */
const HEAD = Buffer.from('POST /x HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n', 'latin1');

/** What a client that keeps sending saw: the answer, whether its connection was cut, when. */
interface Kept {
  received: Buffer;
  /** Ms from the first byte of the answer to the close. */
  closedAfterMs: number;
  sent: number;
}

/** Sends {@link HEAD} and then `chunk` every `everyMs` (0: as fast as the socket takes it) until the device closes. */
function keepSending(chunk: Buffer, everyMs: number): Promise<Kept> {
  return new Promise((resolve) => {
    // Half-open: it goes on sending after the device's FIN (a Node socket would end its side at once).
    const socket = connect({ port: server.port, host: '127.0.0.1', allowHalfOpen: true });
    const chunks: Buffer[] = [];
    let answeredAt: number | undefined;
    let sent = 0;
    let open = true;
    socket.on('data', (data: Buffer) => {
      answeredAt ??= performance.now();
      chunks.push(data);
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      open = false;
      resolve({ received: Buffer.concat(chunks), closedAfterMs: performance.now() - (answeredAt ?? 0), sent });
    });
    const next = (): void => {
      if (!open || socket.destroyed || !socket.writable) return;
      sent += chunk.length;
      const again = (): void => void (everyMs > 0 ? setTimeout(next, everyMs) : setImmediate(next));
      socket.write(chunk, (err) => (err ? undefined : again()));
    };
    socket.write(Buffer.concat([HEAD, Buffer.alloc(100, 'x')]), () => next());
  });
}

/** Sends `bytes` and the client's FIN at once; resolves with what came back and the socket error, at the close. */
function sendAndClose(bytes: Buffer): Promise<{ received: Buffer; error: string | undefined }> {
  return new Promise((resolve) => {
    const socket = connect({ port: server.port, host: '127.0.0.1' });
    const chunks: Buffer[] = [];
    let error: string | undefined;
    socket.on('data', (data: Buffer) => chunks.push(data));
    socket.on('error', (err: NodeJS.ErrnoException) => (error = err.code));
    socket.on('close', () => resolve({ received: Buffer.concat(chunks), error }));
    socket.end(bytes);
  });
}

/** Asserts `received` is the whole refusal and nothing else. */
function expectWholeRefusal(received: Buffer): void {
  const answer = parseResponse(received);
  expect([answer.status, answer.header('connection')]).toEqual([200, ['close']]);
  expect(answer.body.toString('utf8')).toBe(REFUSAL);
}

describe('after a refused body', () => {
  it('closes at once, without a reset, once the client has sent the rest and closed its side', async () => {
    const started = performance.now();
    // The declared body and 100 KiB past it (a short Content-Length), then the client's FIN.
    const { received, error } = await sendAndClose(Buffer.concat([HEAD, Buffer.alloc(100 + 100 * 1024, 'x')]));
    expect(error).toBeUndefined();
    expectWholeRefusal(received);
    expect(performance.now() - started).toBeLessThan(LINGER.maxMs);
  });

  it('cuts a client that floods on after the answer at the byte bound, the answer read whole', async () => {
    const kept = await keepSending(Buffer.alloc(64 * 1024, 'x'), 0);
    expectWholeRefusal(kept.received);
    // Read: the request, then at most the bound past it (and the last chunks Node had in hand).
    expect(readAtClose).toHaveLength(1);
    expect(readAtClose[0]).toBeGreaterThan(LINGER.maxBytes);
    expect(readAtClose[0]).toBeLessThan(HEAD.length + 100 + LINGER.maxBytes + 512 * 1024);
    expect(kept.closedAfterMs).toBeLessThan(LINGER.maxMs);
  });

  it('cuts a client that trickles on after the answer at the time bound, the answer read whole', async () => {
    const kept = await keepSending(Buffer.alloc(1024, 'x'), 20);
    expectWholeRefusal(kept.received);
    expect(kept.closedAfterMs).toBeGreaterThanOrEqual(LINGER.maxMs - 50);
    expect(kept.closedAfterMs).toBeLessThan(LINGER.maxMs + 1000);
    expect(readAtClose[0]).toBeLessThan(LINGER.maxBytes);
  });
});

describe('after a malformed request', () => {
  it('answers 400, reads on what follows, and closes once the client has closed its side', async () => {
    const bad = Buffer.from('POST /x HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \r\n\r\n', 'latin1');
    const { received, error } = await sendAndClose(Buffer.concat([bad, Buffer.alloc(512 * 1024, 'x')]));
    expect(error).toBeUndefined();
    expect(received.toString('latin1')).toBe(
      'HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n',
    );
  });
});
