/**
 * HTTP written by hand on a TCP socket, for what an HTTP client library smooths over:
 * a whole request (headers and a large body) handed to the kernel in one write, and
 * whether the answer arrived before the connection ended or was reset under it.
 */
import { connect } from 'node:net';
import { WAIT_MS } from './event-stream-client';

/** What came back on the connection until it ended. */
export interface RawHttpOutcome {
  /** Every byte received, in order. */
  received: Buffer;
  /** The socket error that ended the connection (e.g. `ECONNRESET`), if any. */
  error: string | undefined;
}

/** The bytes of a request: the request line, `headers` (with `Content-Length` of `body` added) and `body`. */
export function requestBytes(method: string, target: string, headers: Record<string, string>, body: Buffer): Buffer {
  const lines = [`${method} ${target} HTTP/1.1`, 'Host: 127.0.0.1', `Content-Length: ${body.length}`];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), body]);
}

/**
 * Opens a connection, writes `bytes` in one call and reads until the device ends the
 * connection (or resets it); fails after `timeoutMs`. A reset while the request is still
 * being sent shows as `error` (EPIPE, ECONNRESET): a blocking client (send all, then
 * read) would have failed there, without reading the answer.
 */
export function rawHttpExchange(port: number, bytes: Buffer, timeoutMs = WAIT_MS): Promise<RawHttpOutcome> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1' });
    const chunks: Buffer[] = [];
    let error: string | undefined;
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`timed out after ${timeoutMs} ms waiting for the device to answer and end the connection`));
    }, timeoutMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (err: NodeJS.ErrnoException) => (error = err.code ?? err.message));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ received: Buffer.concat(chunks), error });
    });
    socket.write(bytes);
  });
}

/** What a client that sends its whole request before it reads saw. */
export interface BlockingOutcome extends RawHttpOutcome {
  /** The error of a send (`ECONNRESET`, `EPIPE`): a blocking client fails there and never reads. */
  sendError: string | undefined;
}

/**
 * A blocking client (Python's `requests`, curl without `Expect`): writes `bytes` in pieces, each
 * only once the kernel took the one before, reads nothing until all are sent, then reads until
 * the device ends the connection. Fails after `timeoutMs`.
 */
export function sendAllThenRead(port: number, bytes: Buffer, timeoutMs = WAIT_MS): Promise<BlockingOutcome> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.pause();
    const chunks: Buffer[] = [];
    let error: string | undefined;
    let sendError: string | undefined;
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`timed out after ${timeoutMs} ms waiting for the device to answer and end the connection`));
    }, timeoutMs);
    socket.on('error', (err: NodeJS.ErrnoException) => (error = err.code ?? err.message));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ received: Buffer.concat(chunks), error, sendError });
    });
    socket.on('connect', () => {
      void (async () => {
        for (let at = 0; at < bytes.length && sendError === undefined; at += 64 * 1024)
          sendError = await new Promise<string | undefined>((done) =>
            socket.write(bytes.subarray(at, at + 64 * 1024), (err) => done((err as NodeJS.ErrnoException)?.code)),
          );
        socket.on('data', (chunk: Buffer) => chunks.push(chunk));
        socket.resume();
      })();
    });
  });
}
