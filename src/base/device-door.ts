/**
 * Where a device is reached, without a node:http server of its own. One node:http server per
 * process parses every device's requests and never listens itself; connections come to it
 * from one of two kinds of listener:
 * - a device's own port (ports mode): a bare net.Server per device, a listening socket and
 *   nothing of node:http's per-server parts (its connection list, its timeout checks);
 * - a port that devices at different addresses share (address mode): one net.Server on every
 *   interface at that port hands each connection to the device whose address it came to (its
 *   local address; the whole of 127.0.0.0/8 is loopback on Linux), as real cameras are
 *   reached, each on port 80 of its own address.
 * Each connection is marked with its door, which the request, upgrade and error handlers read.
 * A TLS device's connections are wrapped in a TLSSocket with the device's own certificate.
 */
import { createServer as createHttpServer, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import { type AddressInfo, createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { createSecureContext, type SecureContext, TLSSocket } from 'node:tls';
import { EmulatorError } from './errors';
import { LingeringClose } from './lingering-close';
import { answerClientError, DEFAULT_HEADER_LIMITS, formatHost, guardRequests, listen } from './listening-server';
import type { Logger } from './log';
import type { TlsMaterial } from './tls';

/** What a device answers with: its requests and its upgrades. */
export interface DoorEndpoint {
  readonly request: RequestListener;
  readonly upgrade: (req: IncomingMessage, socket: Duplex, head: Buffer) => void;
}

/** Where and how a device is reached. */
export interface DoorOptions {
  /** The device's address. */
  host: string;
  /** 0: a free port (in address mode, a new shared port that later devices join by its number). */
  port: number;
  tls: TlsMaterial | undefined;
  log: Logger;
  /** Share the port with devices at other addresses (address mode) instead of listening alone. */
  sharePort?: boolean;
}

/** A device's door: how to reach it, and its power switch. */
export interface DeviceDoor {
  /** `http://127.1.0.5:80` (or https). */
  readonly url: string;
  readonly port: number;
  /** Stops taking connections, awaits `drain` (graceful WebSocket closes), then destroys every open one. */
  close(drain?: () => Promise<void>): Promise<void>;
  /**
   * Takes no connection until {@link resume} (its own port stops listening: connections are
   * refused; at a shared port they are reset, the port being other devices' too) and resets
   * every open one but those `spare` keeps (the test's control connection).
   */
  suspend(spare?: (socket: Socket) => boolean): Promise<void>;
  /** Takes connections again after {@link suspend}; throws `PORT_IN_USE` when another process took its own port. */
  resume(): Promise<void>;
  /** Answers new TLS connections with `material` (undefined: the device's own certificate again). */
  useCertificate(material: TlsMaterial | undefined): void;
}

/** Opens the door of a device answering with `endpoint`; resolves once it takes connections. */
export async function openDoor(endpoint: DoorEndpoint, options: DoorOptions): Promise<DeviceDoor> {
  const door = new Door(endpoint, options);
  await door.open();
  return door;
}

type DoorState = 'OPENING' | 'OPEN' | 'SUSPENDED' | 'CLOSED';

const DOOR = Symbol('door');

/** A connection, marked with the door it came through. */
type DoorSocket = Socket & { [DOOR]?: Door };

/** A listening socket, marked with the door (own port) or the doors (shared port) behind it. */
type DoorListener = NetServer & { [DOOR]?: Door | SharedPort };

/** A {@link DeviceDoor}: a class, so that a fleet of 100,000 shares its methods. */
class Door implements DeviceDoor {
  private state: DoorState = 'OPENING';
  /** The open connections, made on the first: most doors of a fleet never see one. */
  private sockets: Set<Socket> | undefined = undefined;
  /** The TLS context of new connections, made on the first. */
  private context: SecureContext | undefined = undefined;
  private certificate: TlsMaterial | undefined;
  /** The device's own listener (ports mode), or the port it shares. */
  private listener: DoorListener | SharedPort | undefined = undefined;
  private boundPort: number;
  readonly host: string;
  readonly log: Logger;

  constructor(
    readonly endpoint: DoorEndpoint,
    private readonly options: DoorOptions,
  ) {
    this.host = options.host;
    this.log = options.log;
    this.boundPort = options.port;
    this.certificate = options.tls;
  }

  get port(): number {
    return this.boundPort;
  }

  get url(): string {
    return `${this.options.tls ? 'https' : 'http'}://${formatHost(this.host)}:${this.boundPort}`;
  }

  /** Starts taking connections: on its own port, or at its address of a shared one. */
  async open(): Promise<void> {
    if (this.options.sharePort) {
      const shared = await SharedPort.join(this, this.boundPort);
      this.listener = shared;
      this.boundPort = shared.port;
    } else {
      const server: DoorListener = createNetServer({ noDelay: true }, admitOwn);
      server[DOOR] = this;
      await listen(server, this.boundPort, this.host);
      this.listener = server;
      this.boundPort = (server.address() as AddressInfo).port;
    }
    this.state = 'OPEN';
  }

  /** Hands a new connection to the shared HTTP server, or resets it while the device is off. */
  admit(socket: Socket): void {
    if (this.state !== 'OPEN') return void socket.resetAndDestroy();
    const connection: DoorSocket = this.certificate ? this.secured(socket) : socket;
    connection[DOOR] = this;
    (this.sockets ??= new Set()).add(connection);
    connection.on('close', forgetSocket);
    closing.adopt(connection);
    httpServer().emit('connection', connection);
  }

  /** Called by a closed connection. */
  forget(socket: Socket): void {
    this.sockets?.delete(socket);
  }

  async close(drain?: () => Promise<void>): Promise<void> {
    const wasOpen = this.state;
    this.state = 'CLOSED';
    const stopped = wasOpen === 'CLOSED' ? Promise.resolve() : this.stopListening(true);
    await drain?.();
    for (const socket of this.sockets ?? []) socket.destroy();
    await stopped;
  }

  suspend(spare?: (socket: Socket) => boolean): Promise<void> {
    if (this.state !== 'OPEN') return Promise.resolve();
    this.state = 'SUSPENDED';
    void this.stopListening(false);
    for (const socket of this.sockets ?? []) if (!spare?.(socket)) socket.resetAndDestroy();
    return Promise.resolve();
  }

  async resume(): Promise<void> {
    if (this.state !== 'SUSPENDED') return;
    const listener = this.listener;
    if (listener !== undefined && !(listener instanceof SharedPort)) await listen(listener, this.boundPort, this.host);
    this.state = 'OPEN';
  }

  useCertificate(material: TlsMaterial | undefined): void {
    this.certificate = material ?? this.options.tls;
    this.context = undefined;
  }

  /** Stops the listening: its own port closes; at a shared port it leaves for good (`leave`) or stays, taking nothing. */
  private stopListening(leave: boolean): Promise<void> {
    const listener = this.listener;
    if (listener instanceof SharedPort) return leave ? listener.leave(this) : Promise.resolve();
    if (listener === undefined || !listener.listening) return Promise.resolve();
    return new Promise<void>((resolve) => listener.close(() => resolve()));
  }

  /** `socket` wrapped in TLS with the device's certificate (as node:https would, whose server this is not). */
  private secured(socket: Socket): TLSSocket {
    const material = this.certificate as TlsMaterial;
    this.context ??= createSecureContext({ cert: material.cert, key: material.key });
    return new TLSSocket(socket, { isServer: true, secureContext: this.context });
  }
}

/**
 * A port devices at different addresses share: one listener on every interface. A connection
 * to an address no device holds (another interface, an address of the range not started, a
 * device switched off) is reset at once, before anything of it is read.
 */
class SharedPort {
  /** The shared ports of the process, by number. */
  private static readonly ports = new Map<number, SharedPort>();
  /** The devices at this port, by address. */
  private readonly doors = new Map<string, Door>();
  /** Addresses without a device that a connection came to, logged once each (a bounded few). */
  private readonly strays = new Set<string>();

  private constructor(
    private readonly server: DoorListener,
    readonly port: number,
    private readonly log: Logger,
  ) {}

  /** Puts `door` at its address of shared port `port` (0: a new one on a free port). */
  static async join(door: Door, port: number): Promise<SharedPort> {
    let shared = port === 0 ? undefined : SharedPort.ports.get(port);
    if (shared === undefined) {
      const server: DoorListener = createNetServer({ noDelay: true }, admitShared);
      await listen(server, port, SHARED_HOST);
      const bound = (server.address() as AddressInfo).port;
      shared = new SharedPort(server, bound, door.log);
      server[DOOR] = shared;
      SharedPort.ports.set(bound, shared);
    }
    if (shared.doors.has(door.host))
      throw new EmulatorError(
        'PORT_IN_USE',
        `address ${door.host} port ${shared.port} is already taken by another device of this process`,
      );
    shared.doors.set(door.host, door);
    return shared;
  }

  /** The device a connection to `address` is for. */
  admit(socket: Socket): void {
    const door = this.doors.get(socket.localAddress ?? '');
    if (door !== undefined) return door.admit(socket);
    const address = socket.localAddress ?? 'unknown';
    if (!this.strays.has(address) && this.strays.size < MAX_STRAYS_LOGGED) {
      this.strays.add(address);
      this.log.info({ address, port: this.port }, 'connection to an address without a device: reset');
    }
    socket.resetAndDestroy();
  }

  /** Takes `door` away; the last one to leave closes the port. */
  leave(door: Door): Promise<void> {
    if (this.doors.get(door.host) === door) this.doors.delete(door.host);
    if (this.doors.size > 0) return Promise.resolve();
    SharedPort.ports.delete(this.port);
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Where a shared port listens: every IPv4 interface, so that every loopback address reaches it. */
const SHARED_HOST = '0.0.0.0';

/** How many distinct addresses without a device a shared port logs (then it only resets). */
const MAX_STRAYS_LOGGED = 100;

/** The lingering close of every device's connections (./lingering-close). */
const closing = new LingeringClose();

let parser: Server | undefined;

/**
 * The one node:http server of every device in the process. It never listens: the doors emit
 * their connections on it. Node starts its checks of `headersTimeout` and `requestTimeout` when
 * a server listens, so it is told it does.
 */
function httpServer(): Server {
  if (parser) return parser;
  const server = createHttpServer(
    guardRequests((req, res) => doorOf(req.socket).endpoint.request(req, res), DEFAULT_HEADER_LIMITS, closing, logOf),
  );
  // One more than the limit, so that a request past it is seen (Node silently drops headers past its count).
  server.maxHeadersCount = DEFAULT_HEADER_LIMITS.maxLines + 1;
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) =>
    doorOf(req.socket).endpoint.upgrade(req, socket, head),
  );
  const clientError = answerClientError(closing, logOf);
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    // A TLS handshake that failed (a client that refused the certificate, or spoke plain HTTP): nothing to answer.
    if (socket instanceof TLSSocket && !socket.getProtocol()) {
      logOf(socket).info({ code: err.code, reason: err.message }, 'TLS handshake failed');
      return void socket.destroy();
    }
    clientError(err, socket);
  });
  server.emit('listening');
  parser = server;
  return server;
}

/** The door `socket` came through. */
function doorOf(socket: Socket): Door {
  return (socket as DoorSocket)[DOOR] as Door;
}

/** The logger of the device `socket` is for. */
function logOf(socket: Socket): Logger {
  return doorOf(socket).log;
}

/** A device's own listener's connections (`this` is the listener). */
function admitOwn(this: DoorListener, socket: Socket): void {
  (this[DOOR] as Door).admit(socket);
}

/** A shared port's connections (`this` is the listener). */
function admitShared(this: DoorListener, socket: Socket): void {
  (this[DOOR] as SharedPort).admit(socket);
}

/** A closed connection leaves its door's set (`this` is the socket): one function for every socket. */
function forgetSocket(this: DoorSocket): void {
  this[DOOR]?.forget(this);
}
