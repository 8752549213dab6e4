/**
 * How the event stream endpoint refuses a handshake: an HTTP answer written on the raw
 * socket (no 101), a log line and a journal entry, then the socket closed.
 */
import { type IncomingMessage, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { credentialUser } from '../auth/auth-params';
import type { Authenticator, RefusalInfo } from '../auth/authenticator';
import type { ClientVia } from '../base/client-tag';
import { type JournalWriter, writeVia } from '../base/journal';
import { type Logger, redactUrl } from '../base/log';

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
 * for the emulator's own client) and answered as the authenticator answers (401 with challenges).
 */
export function refuseCredentials(
  socket: Duplex,
  { authenticator, journal }: { authenticator: Authenticator; journal?: JournalWriter },
  req: IncomingMessage,
  refusal: RefusalInfo,
  scheme: string | undefined,
  via: ClientVia | undefined,
): void {
  const { code, message: reason, stale } = refusal;
  const path = redactUrl(req.url ?? '');
  const remote = req.socket.remoteAddress;
  authenticator.logRefusal(refusal, { url: path }, 'event stream authentication failed', remote);
  const user = scheme === 'token' ? undefined : credentialUser(req.headers.authorization);
  const method = req.method ?? 'GET';
  const record = { kind: 'auth-refused', method, path, scheme, code, reason, stale, user, remote } as const;
  if (journal) writeVia(journal, record, via);
  const answer = authenticator.answer(req, refusal);
  writeAndClose(socket, answer.status, answer.headers, answer.body);
}

/** Writes an HTTP answer on the raw socket of an upgrade request, then closes it. */
function writeAndClose(socket: Duplex, status: number, headers: Record<string, string | string[]>, body: string): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const lines = [`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`, 'Connection: close'];
  for (const [name, value] of Object.entries(headers)) {
    for (const v of Array.isArray(value) ? value : [value]) lines.push(`${name}: ${v}`);
  }
  socket.once('finish', () => socket.destroy());
  socket.end(`${lines.join('\r\n')}\r\n\r\n${body}`);
}
