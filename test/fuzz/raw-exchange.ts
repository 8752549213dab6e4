/**
 * One HTTP exchange on a raw TCP connection, for requests Node's client refuses to send
 * (UTF-8 and control bytes in headers, malformed request lines): writes the bytes,
 * reads until the server closes, and says what came back. A 101, or a whole answer (by its
 * Content-Length) without `Connection: close`, ends the read at once (the connection would
 * stay open, as after a 401 to an upgrade); no answer within the time limit is a hang.
 */
import { connect } from 'node:net';
import { parseResponse, type RawResponse } from '../helpers/event-stream-raw';
import { CASE_TIMEOUT_MS } from './fuzz-settings';

/** What the server did: answered, closed without an answer, or reset the connection without one. */
export type RawOutcome =
  { kind: 'answer'; response: RawResponse } | { kind: 'closed' } | { kind: 'reset'; code: string };

/** Sends `request` to `port` on a new connection; rejects after `timeoutMs` without an end. */
export function rawExchange(port: number, request: Buffer | string, timeoutMs = CASE_TIMEOUT_MS): Promise<RawOutcome> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1' });
    const chunks: Buffer[] = [];
    let settled = false;
    const settle = (outcome: RawOutcome | Error): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    const received = (): RawOutcome | undefined => {
      const bytes = withoutInterim(Buffer.concat(chunks));
      if (bytes.indexOf('\r\n\r\n') < 0) return undefined;
      try {
        return { kind: 'answer', response: parseResponse(bytes) };
      } catch {
        return undefined;
      }
    };
    const timer = setTimeout(() => {
      const sofar = Buffer.concat(chunks).toString('latin1').slice(0, 300);
      settle(new Error(`no end within ${timeoutMs} ms (a hang); received so far: ${JSON.stringify(sofar)}`));
    }, timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      const answer = received();
      if (answer?.kind === 'answer' && (answer.response.status === 101 || wholeAndKept(answer.response)))
        settle(answer);
    });
    socket.on('error', (err: NodeJS.ErrnoException) =>
      settle(received() ?? { kind: 'reset', code: err.code ?? err.message }),
    );
    socket.on('close', () => {
      if (chunks.length === 0) return settle({ kind: 'closed' });
      const answer = received();
      if (answer) return settle(answer);
      settle(
        new Error(`not an HTTP answer: ${JSON.stringify(Buffer.concat(chunks).toString('latin1').slice(0, 300))}`),
      );
    });
    socket.write(request);
  });
}

/** The request head: request line, headers as given (values as UTF-8), `Connection: close`, blank line. */
export function requestHead(method: string, target: string, headers: readonly (readonly [string, string])[]): string {
  const lines = [`${method} ${target} HTTP/1.1`, 'Host: 127.0.0.1', ...headers.map(([n, v]) => `${n}: ${v}`)];
  if (!headers.some(([n]) => n.toLowerCase() === 'connection')) lines.push('Connection: close');
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/** Whether an answer has all the body its `Content-Length` says, and leaves the connection open. */
function wholeAndKept(response: RawResponse): boolean {
  const length = response.header('content-length');
  if (length.length !== 1 || response.body.length < Number(length[0])) return false;
  return !response.header('connection').some((value) => /\bclose\b/i.test(value));
}

/** A short label of an outcome for the tally: the status, `closed` or `reset`. */
export function outcomeLabel(outcome: RawOutcome): string {
  if (outcome.kind === 'answer') return String(outcome.response.status);
  return outcome.kind === 'closed' ? 'closed' : `reset ${outcome.code}`;
}

/** `bytes` without the interim answers in front (`100 Continue`, `102`, `103`; not `101`, which is final here). */
function withoutInterim(bytes: Buffer): Buffer {
  let rest = bytes;
  while (/^HTTP\/1\.1 1(0[02-9]|[1-9]\d) /.test(rest.subarray(0, 16).toString('latin1'))) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) break;
    rest = rest.subarray(end + 4);
  }
  return rest;
}
