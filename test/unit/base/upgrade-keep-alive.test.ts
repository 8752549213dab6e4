/**
 * A refused upgrade's connection handed back to its HTTP server (plain and TLS): the next
 * request is served on it, and an idle one is closed after the server's keepAliveTimeout (a
 * fake setTimeout; the sockets are real).
 */
import { once } from 'node:events';
import { createServer, type RequestListener, type Server } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { connect as connectTls } from 'node:tls';
import { selfSignedCertificate, type TlsMaterial } from '../../../src/base/tls';
import { keepableUpgrade, keepUpgradeConnection } from '../../../src/base/upgrade-keep-alive';
import { RawConnection } from '../../helpers/event-stream-raw';

const UPGRADE = 'GET /ws HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n';
const REFUSAL = 'HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\n';

let tlsMaterial: TlsMaterial;
beforeAll(async () => {
  tlsMaterial = await selfSignedCertificate('localhost', '127.0.0.1');
});

describe.each(['http', 'https'])('over %s', (scheme) => {
  let server: Server;
  let port: number;
  /** The server side of the last refused upgrade's connection. */
  let refused: Duplex | undefined;
  const connections: RawConnection[] = [];

  beforeEach(async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask', 'Date', 'hrtime', 'performance'] });
    const served: RequestListener = (req, res) => res.end(`served ${req.url}`);
    server =
      scheme === 'https'
        ? createTlsServer({ cert: tlsMaterial.cert, key: tlsMaterial.key }, served)
        : createServer(served);
    server.keepAliveTimeout = 5_000;
    server.on('upgrade', (req, socket, head: Buffer) => {
      refused = socket;
      const keepable = keepableUpgrade(req, head);
      if (!keepable) {
        socket.end(REFUSAL.replace('\r\n', '\r\nConnection: close\r\n'));
        return;
      }
      socket.write(REFUSAL);
      keepUpgradeConnection(keepable, socket);
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as AddressInfo).port;
  });

  afterEach(async () => {
    connections.splice(0).forEach((c) => c.destroy());
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    jest.useRealTimers();
  });

  function connection(): RawConnection {
    const made =
      scheme === 'https'
        ? new RawConnection(connectTls({ port, host: '127.0.0.1', rejectUnauthorized: false }))
        : RawConnection.open(port);
    connections.push(made);
    return made;
  }

  it('serves the next request on the connection, and a further upgrade goes to the upgrade listener again', async () => {
    const conn = connection();
    expect((await conn.exchange(UPGRADE)).status).toBe(401);
    const served = await conn.exchange('GET /next HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(served.status).toBe(200);
    expect(served.body.toString()).toBe('served /next');
    expect((await conn.exchange(UPGRADE)).status).toBe(401);
    expect(conn.isClosed).toBe(false);
  });

  it('closes a connection that stays idle for keepAliveTimeout after the refusal', async () => {
    const conn = connection();
    expect((await conn.exchange(UPGRADE)).status).toBe(401);
    jest.advanceTimersByTime(4_999);
    await new Promise((resolve) => setImmediate(resolve));
    expect(conn.isClosed).toBe(false);
    jest.advanceTimersByTime(1);
    await conn.closed();
  });

  it('keeps one idle timer per connection, however many refusals it had', async () => {
    const conn = connection();
    expect((await conn.exchange(UPGRADE)).status).toBe(401);
    const listeners = refused?.listenerCount('close');
    for (let i = 0; i < 12; i++) expect((await conn.exchange(UPGRADE)).status).toBe(401);
    expect(refused?.listenerCount('close')).toBe(listeners);
    jest.advanceTimersByTime(5_000);
    await conn.closed();
  });

  it('leaves a connection that sent its next request to the server', async () => {
    const conn = connection();
    expect((await conn.exchange(UPGRADE)).status).toBe(401);
    expect((await conn.exchange('GET /next HTTP/1.1\r\nHost: x\r\n\r\n')).status).toBe(200);
    jest.advanceTimersByTime(5_000);
    await new Promise((resolve) => setImmediate(resolve));
    expect(conn.isClosed).toBe(false);
  });

  it.each([
    ['HTTP/1.0', UPGRADE.replace('HTTP/1.1', 'HTTP/1.0')],
    ['Connection: close', UPGRADE.replace('Connection: Upgrade', 'Connection: Upgrade, Close')],
    ['bytes after the request', `${UPGRADE}\x81\x80`],
    // A body the request declares, still to come, would be read as the next request.
    ['Content-Length: 5', UPGRADE.replace('\r\n\r\n', '\r\nContent-Length: 5\r\n\r\n')],
    ['Transfer-Encoding: chunked', UPGRADE.replace('\r\n\r\n', '\r\nTransfer-Encoding: chunked\r\n\r\n')],
  ])('does not keep the connection of a request with %s', async (_name, text) => {
    const conn = connection();
    const answer = await conn.exchange(text);
    expect(answer.header('connection')).toEqual(['close']);
    await conn.closed();
  });
});
