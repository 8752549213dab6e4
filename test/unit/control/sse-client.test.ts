/** The tests' Server-Sent Events client (test/helpers/sse-client): waits at once get the frames in the order they asked. */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openSse, type SseClient } from '../../helpers/sse-client';

let server: Server;
let stream: ServerResponse;
let client: SseClient;
beforeEach(async () => {
  const opened = new Promise<ServerResponse>((resolve) => {
    server = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      res.flushHeaders();
      resolve(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  client = await openSse(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  stream = await opened;
});
afterEach(async () => {
  client.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('SseClient.next', () => {
  it('answers waits made at once with the coming frames, in the order they asked', async () => {
    const first = client.next();
    const second = client.next();
    const third = client.next();
    stream.write('event: a\ndata: 1\n\nevent: b\ndata: 2\n\n');
    stream.write(': later\n\n');
    expect(await Promise.all([first, second, third])).toEqual([
      { kind: 'event', event: 'a', id: undefined, data: 1 },
      { kind: 'event', event: 'b', id: undefined, data: 2 },
      { kind: 'comment', text: 'later' },
    ]);
  });

  it('fails every wait when the stream ends, and one that times out leaves the others waiting', async () => {
    const late = client.next(20);
    const waiting = client.next();
    await expect(late).rejects.toThrow('no frame within 20 ms');
    stream.write('event: a\ndata: 1\n\n');
    expect(await waiting).toMatchObject({ event: 'a' });
    const cut = [client.next(), client.next()];
    stream.end();
    for (const wait of cut) await expect(wait).rejects.toThrow('the stream ended');
  });
});
