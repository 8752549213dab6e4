/**
 * Keeping the connection of an upgrade request that was answered without an upgrade (a 401
 * challenge), so that the client may send its next request, the answer to the challenge, on
 * the same connection: HTTP/1.1 allows it, devices' web servers do it, and clients such as
 * curl take it, which spares them a TCP connection per challenge.
 *
 * Node detaches its HTTP parser from a socket before it emits 'upgrade'. The connection
 * listener that node:http exports for node:https (`_connectionListener`) attaches a new one,
 * with the server's error and timeout handling, for plain and TLS sockets alike. Until the
 * client sends something, the connection is idle as after any keep-alive answer, and is closed
 * after the server's `keepAliveTimeout` as Node closes those.
 */
import * as http from 'node:http';
import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

type ConnectionListener = (this: Server, socket: Duplex) => void;
const attachParser = (http as unknown as { _connectionListener?: ConnectionListener })._connectionListener;

/** The server a request came in on, when Node says. */
function serverOf(req: IncomingMessage): Server | undefined {
  const server = (req.socket as Socket & { server?: { keepAliveTimeout?: unknown } }).server;
  // node:http's and node:https's servers alike (the latter is a tls.Server, not an http.Server).
  return typeof server?.keepAliveTimeout === 'number' ? (server as Server) : undefined;
}

/**
 * The server to hand the connection of upgrade request `req` back to once it is answered,
 * or undefined when the connection must close (and the answer say `Connection: close`): it
 * may carry another request only after an HTTP/1.1 request without `Connection: close` that
 * declares no body and had nothing sent after it (`head`), on a server Node can take it back.
 * Node 24.9 and later have a public way (the server's `shouldUpgradeCallback`); Node 20 has not.
 */
export function keepableUpgrade(req: IncomingMessage, head: Buffer): Server | undefined {
  if (!attachParser || head.length > 0 || req.httpVersion !== '1.1') return undefined;
  const { connection, 'content-length': length, 'transfer-encoding': coding } = req.headers;
  if (connection !== undefined && /(?:^|,)\s*close\s*(?:,|$)/i.test(connection)) return undefined;
  // A body the upgrade request declared would be read as the next request.
  if (coding !== undefined || (length !== undefined && length !== '0')) return undefined;
  return serverOf(req);
}

/**
 * Hands `socket` (of an upgrade request answered, not upgraded) back to `server`, from
 * {@link keepableUpgrade}, which reads the next request from it.
 */
export function keepUpgradeConnection(server: Server, socket: Duplex): void {
  (attachParser as ConnectionListener).call(server, socket);
  if (server.keepAliveTimeout > 0) closeWhenIdle(socket as Socket, server.keepAliveTimeout);
}

/** Each kept connection's idle timer: one per socket, however many refusals it had. */
const idleTimers = new WeakMap<Socket, NodeJS.Timeout>();

/**
 * Closes `socket` if the client sends nothing more within `ms`, and leaves any request it
 * does send to the server's own timeouts (Node's keep-alive timer is out of reach here).
 */
function closeWhenIdle(socket: Socket, ms: number): void {
  const previous = idleTimers.get(socket);
  if (previous) clearTimeout(previous);
  else socket.once('close', forgetIdleTimer);
  const readBefore = socket.bytesRead;
  const timer = setTimeout(() => {
    idleTimers.delete(socket);
    if (socket.bytesRead === readBefore) socket.destroy();
  }, ms).unref();
  idleTimers.set(socket, timer);
}

function forgetIdleTimer(this: Socket): void {
  clearTimeout(idleTimers.get(this));
  idleTimers.delete(this);
}
