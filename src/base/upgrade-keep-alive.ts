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
 * Whether the connection of upgrade request `req` can carry another request once it is
 * answered: an HTTP/1.1 request without `Connection: close`, nothing sent after it (`head`),
 * and a server Node can hand it back to. When false the answer must say `Connection: close`.
 */
export function mayKeepUpgradeConnection(req: IncomingMessage, head: Buffer): boolean {
  if (!attachParser || head.length > 0 || req.httpVersion !== '1.1') return false;
  const connection = req.headers.connection;
  if (connection !== undefined && /(?:^|,)\s*close\s*(?:,|$)/i.test(connection)) return false;
  return serverOf(req) !== undefined;
}

/**
 * Hands the socket of `req` (answered, not upgraded) back to its HTTP server, which reads the
 * next request from it. Only after {@link mayKeepUpgradeConnection} said yes.
 */
export function keepUpgradeConnection(req: IncomingMessage, socket: Duplex): void {
  const server = serverOf(req);
  if (!attachParser || !server) {
    socket.destroy();
    return;
  }
  attachParser.call(server, socket);
  const idle = server.keepAliveTimeout;
  if (idle > 0) {
    const net = socket as Socket;
    const readBefore = net.bytesRead;
    // Node's own keep-alive timer is out of reach here; this one closes the connection if the
    // client sent nothing more, and leaves any request it did send to the server's timeouts.
    setTimeout(() => {
      if (net.bytesRead === readBefore) socket.destroy();
    }, idle).unref();
  }
}
