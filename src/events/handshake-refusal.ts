/**
 * How the event stream endpoint refuses a handshake: an HTTP answer written on the raw
 * socket (no 101), a log line and a journal entry. The socket is closed, except after a
 * refusal of credentials, where the client may answer the challenge on the same connection.
 */
import { type IncomingMessage, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { credentialUser } from '../auth/auth-params';
import type { Authenticator, RefusalInfo } from '../auth/authenticator';
import type { ClientVia } from '../base/client-tag';
import { type JournalWriter, writeVia } from '../base/journal';
import { type Logger, redactUrl } from '../base/log';
import { keepableUpgrade, keepUpgradeConnection } from '../base/upgrade-keep-alive';

/** The connection of a refused upgrade: its socket, what came after the request, the handshake's error listener. */
interface UpgradeConnection {
  readonly socket: Duplex;
  readonly head: Buffer;
  readonly onError: (err: Error) => void;
}

/**
 * Refuses a handshake for something other than its credentials: `status` with `message` as
 * plain text, logged and journaled as `ws-refused` (marked `via` for the emulator's own client).
 */
export function abortHandshake(
  socket: Duplex,
  status: number,
  message: string,
  { log, journal }: { log: Logger; journal?: JournalWriter },
  req: IncomingMessage,
  via: ClientVia | undefined,
  extra: Record<string, string> = {},
): void {
  const path = redactUrl(req.url ?? '');
  log.info({ url: path, status, reason: message }, 'event stream handshake refused');
  const remote = req.socket.remoteAddress;
  if (journal) writeVia(journal, { kind: 'ws-refused', path, status, reason: message, remote }, via);
  const body = `${message}\n`;
  writeAndClose(
    socket,
    status,
    { 'Content-Type': 'text/plain', 'Content-Length': String(Buffer.byteLength(body)), ...extra },
    body,
  );
}

/**
 * Refuses a handshake for its credentials: logged, journaled as `auth-refused` (marked `via`
 * for the emulator's own client) and answered as the authenticator answers (401 with
 * challenges). The connection stays open for the next request when HTTP allows it, as a
 * device's web server keeps it after a 401 (see base/upgrade-keep-alive.ts).
 */
export function refuseCredentials(
  connection: UpgradeConnection,
  { authenticator, journal }: { authenticator: Authenticator; journal?: JournalWriter },
  req: IncomingMessage,
  refusal: RefusalInfo,
  scheme: string | undefined,
  via: ClientVia | undefined,
): void {
  const { code, message: reason, stale, token } = refusal;
  const path = redactUrl(req.url ?? '');
  const remote = req.socket.remoteAddress;
  authenticator.logRefusal(refusal, { url: path }, 'event stream authentication failed', remote);
  const user = scheme === 'token' ? undefined : credentialUser(req.headers.authorization);
  const method = req.method ?? 'GET';
  const record = { kind: 'auth-refused', method, path, scheme, code, reason, stale, user, remote, token } as const;
  if (journal) writeVia(journal, record, via);
  const answer = authenticator.answer(req, refusal);
  const { socket, head, onError } = connection;
  const server = socket.writable ? keepableUpgrade(req, head) : undefined;
  if (!server) return writeAndClose(socket, answer.status, answer.headers, answer.body);
  socket.write(answerText(answer.status, answer.headers, answer.body, false));
  // From here the HTTP server hears the socket's errors.
  socket.off('error', onError);
  keepUpgradeConnection(server, socket);
}

/** Writes an HTTP answer on the raw socket of an upgrade request, then closes it. */
function writeAndClose(socket: Duplex, status: number, headers: Record<string, string | string[]>, body: string): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  socket.once('finish', () => socket.destroy());
  socket.end(answerText(status, headers, body, true));
}

/** An HTTP/1.1 answer's bytes (headers must give its length); with `Connection: close` when `closing`. */
function answerText(
  status: number,
  headers: Record<string, string | string[]>,
  body: string,
  closing: boolean,
): string {
  const lines = [`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`];
  if (closing) lines.push('Connection: close');
  for (const [name, value] of Object.entries(headers)) {
    for (const v of Array.isArray(value) ? value : [value]) lines.push(`${name}: ${v}`);
  }
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}
