/**
 * The node:http(s) server every wing runs its Express app on: listens with errors a
 * user can act on, answers malformed requests with 400, closes a connection under a client
 * still sending lingering (./lingering-close), tracks sockets so `close()` really ends every
 * connection.
 */
import { once } from 'node:events';
import { createServer as createHttpServer, type RequestListener, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Server as NetServer, Socket } from 'node:net';
import { EmulatorError } from './errors';
import { isLingering, LingeringClose, type LingerLimits, lingerOnClose } from './lingering-close';
import type { Logger } from './log';
import type { TlsMaterial } from './tls';

/** A listening server and how to reach it. */
export interface ListeningServer {
  readonly server: Server;
  /** `http://127.0.0.1:41234` (or https). */
  readonly url: string;
  readonly port: number;
  /**
   * Stops listening, awaits `drain` (e.g. graceful WebSocket closes), then destroys every
   * open connection; resolves when the server is closed.
   */
  close(drain?: () => Promise<void>): Promise<void>;
  /**
   * Stops listening (connections to the port are refused) and resets every open connection,
   * as a device that loses power does, except those `spare` keeps (the test's control
   * connection); {@link resume} listens again on the same port.
   */
  suspend(spare?: (socket: Socket) => boolean): Promise<void>;
  /** Listens again after {@link suspend}; throws `PORT_IN_USE` when another process took the port. */
  resume(): Promise<void>;
}

/** Where and how to listen. */
export interface ListenOptions {
  port: number;
  host: string;
  tls: TlsMaterial | undefined;
  log: Logger;
  /**
   * Hand `Expect: 100-continue` requests to the app (which sends the 100 itself when it
   * wants the body) instead of Node answering 100 at once.
   */
  appContinues?: boolean;
  /** Header limits; a request beyond them is answered 431 (default: 1,000 lines, lines as long as Node takes). */
  headerLimits?: HeaderLimits;
  /** How long and how much a connection closed under a client still sending reads on (./lingering-close). */
  linger?: LingerLimits;
}

/** How many header lines a request may have, and the length (with `: ` and CRLF) from which one is refused. */
export interface HeaderLimits {
  maxLines: number;
  maxLineBytes?: number;
}

export const DEFAULT_HEADER_LIMITS: HeaderLimits = { maxLines: 1000 };

/** Creates the server for `app` and resolves once it listens. */
export async function listenApp(app: RequestListener, options: ListenOptions): Promise<ListeningServer> {
  const { tls, log } = options;
  const limits = options.headerLimits ?? DEFAULT_HEADER_LIMITS;
  const closing = new LingeringClose(options.linger);
  const guarded = guardRequests(app, limits, closing, () => log);
  const server = tls ? createHttpsServer({ cert: tls.cert, key: tls.key }, guarded) : createHttpServer(guarded);
  // One more than the limit, so that a request past it is seen (Node silently drops headers past its count).
  server.maxHeadersCount = limits.maxLines + 1;
  if (options.appContinues) server.on('checkContinue', guarded);
  const sockets = new Set<Socket>();
  // One listener for every socket of the server (`this` is the socket): a closure (and a
  // `once` wrapper) per connection would cost more than the entry in the set.
  const forget = function (this: Socket): void {
    sockets.delete(this);
  };
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', forget);
    closing.adopt(socket);
  });
  server.on(
    'clientError',
    answerClientError(closing, () => log),
  );
  await listen(server, options.port, options.host);
  const port = (server.address() as AddressInfo).port;
  const url = `${tls ? 'https' : 'http'}://${formatHost(options.host)}:${port}`;
  return new Listening(server, url, port, options.host, sockets);
}

/**
 * The guards every request passes before `app`: bytes that parse as a request on a lingering
 * connection are thrown away, never answered; headers past `limits` are answered 431 (logged
 * on `logOf(socket)`, the logger of whoever the connection is for).
 */
export function guardRequests(
  app: RequestListener,
  limits: HeaderLimits,
  closing: LingeringClose,
  logOf: (socket: Socket) => Logger,
): RequestListener {
  return (req, res) => {
    // Bytes after a refused request that happen to parse as one: thrown away, never answered.
    if (isLingering(req.socket)) {
      closing.requestWhileLingering(req.socket);
      req.resume();
      return;
    }
    const problem = headerProblem(req.rawHeaders, limits);
    if (problem === undefined) return app(req, res);
    logOf(req.socket).info({ method: req.method, url: req.url, reason: problem }, 'request refused: headers too large');
    const body = `Request Header Fields Too Large: ${problem}\n`;
    res.writeHead(431, {
      'Content-Type': 'text/plain; charset=utf-8',
      'Content-Length': String(Buffer.byteLength(body)),
      Connection: 'close',
    });
    lingerOnClose(req.socket);
    res.end(body);
    req.resume();
  };
}

/** A server's `clientError` handler: a malformed request is answered 400 (431 for headers past Node's size) and closed lingering. */
export function answerClientError(
  closing: LingeringClose,
  logOf: (socket: Socket) => Logger,
): (err: NodeJS.ErrnoException, socket: Socket) => void {
  return (err, socket) => {
    // What a lingering connection still receives is no request: Node reports it chunk by chunk, it is counted.
    if (isLingering(socket)) return void closing.clientError(socket, '');
    logOf(socket).info({ code: err.code, reason: err.message }, 'malformed HTTP request');
    // Headers past Node's size limit are 431, as for too many lines; everything else malformed is 400.
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? '431 Request Header Fields Too Large' : '400 Bad Request';
    // Answered (unless an answer is under way, which is then the last), then closed lingering.
    closing.clientError(socket, `HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  };
}

/** A {@link ListeningServer}: a class, so that a fleet's thousand servers share its methods. */
class Listening implements ListeningServer {
  constructor(
    readonly server: Server,
    readonly url: string,
    readonly port: number,
    private readonly host: string,
    /** The open connections. */
    private readonly sockets: ReadonlySet<Socket>,
  ) {}

  async close(drain?: () => Promise<void>): Promise<void> {
    const stopped = new Promise<void>((resolve) => this.server.close(() => resolve()));
    await drain?.();
    for (const socket of this.sockets) socket.destroy();
    await stopped;
  }

  suspend(spare?: (socket: Socket) => boolean): Promise<void> {
    this.server.close();
    for (const socket of this.sockets) if (!spare?.(socket)) socket.resetAndDestroy();
    return Promise.resolve();
  }

  resume(): Promise<void> {
    return listen(this.server, this.port, this.host);
  }
}

/** Listens on `host:port`; throws `PORT_IN_USE`, or `LISTEN_FAILED` saying what to do about the cause. */
export async function listen(server: NetServer, port: number, host: string): Promise<void> {
  server.listen(port, host);
  try {
    await once(server, 'listening');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE')
      throw new EmulatorError(
        'PORT_IN_USE',
        `port ${port} on ${host} is already in use; choose another with --port (0 picks a free one)`,
      );
    if (code === 'EACCES' && port > 0 && port < 1024)
      throw new EmulatorError(
        'LISTEN_FAILED',
        `port ${port} on ${host} is below 1024, which needs the right to bind it: choose another with --port ` +
          `(e.g. --port 8080), or give Node.js the capability: sudo setcap cap_net_bind_service=+ep "$(command -v node)"`,
      );
    if (code === 'EMFILE')
      throw new EmulatorError(
        'LISTEN_FAILED',
        `cannot listen on ${host}:${port}: the process has no file descriptors left (EMFILE). Each device in ports ` +
          'mode holds a listening socket: raise the limit (ulimit -n), or put the devices on one port with --address-range',
      );
    throw new EmulatorError('LISTEN_FAILED', `cannot listen on ${host}:${port}: ${(err as Error).message}`);
  }
}

/** `::1` -> `[::1]` for a URL. */
export function formatHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * Why a request's headers break `limits`, or undefined. `raw` is Node's rawHeaders (name,
 * value, name, value...), whose text holds one character per byte received.
 */
export function headerProblem(raw: readonly string[], limits: HeaderLimits): string | undefined {
  const lines = raw.length / 2;
  if (lines > limits.maxLines) return `more than ${limits.maxLines} header lines`;
  if (limits.maxLineBytes === undefined) return undefined;
  for (let i = 0; i < raw.length; i += 2) {
    // name + ": " + value + CRLF, as the line came in.
    const bytes = Buffer.byteLength(raw[i], 'latin1') + Buffer.byteLength(raw[i + 1], 'latin1') + 4;
    if (bytes >= limits.maxLineBytes)
      return `header ${raw[i]} is ${bytes} bytes long with its CRLF (less than ${limits.maxLineBytes} are taken)`;
  }
  return undefined;
}
