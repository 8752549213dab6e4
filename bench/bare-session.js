'use strict';
/**
 * The bare server of the handshake and session-memory benchmarks: a node:http server that
 * answers every request 404 and hands every upgrade to a `ws` WebSocketServer (noServer, no
 * client tracking, the device's settings: no permessage-deflate), which completes the
 * handshake and then answers every message as the device answers a configure
 * (`{"apiVersion":...,"context":...,"method":"events:configure","data":{}}`), and nothing else.
 */
const http = require('node:http');
const { WebSocketServer } = require('ws');

/** Completes the handshake of `req` on `wss` (a noServer ws server) and answers configures on it. */
function acceptBareSession(wss, req, socket, head) {
  wss.handleUpgrade(req, socket, head, (ws) => {
    ws.on('error', () => {});
    ws.on('message', (data) => {
      const request = JSON.parse(data.toString());
      ws.send(
        JSON.stringify({ apiVersion: request.apiVersion, context: request.context, method: request.method, data: {} }),
      );
    });
  });
}

/**
 * Starts the bare server on 127.0.0.1, a free port. Resolves with `url`, the WebSocket URL
 * of `target` on it (a path, and a query if any: every path is accepted alike), and `close()`:
 * it stops listening, ends the HTTP connections, and resolves once the server has closed,
 * which is once the clients have closed their WebSocket connections too.
 */
async function startBareServer(target = '/') {
  const wss = new WebSocketServer({ noServer: true, clientTracking: false, perMessageDeflate: false });
  const server = http.createServer((_req, res) => res.writeHead(404).end());
  server.on('upgrade', (req, socket, head) => acceptBareSession(wss, req, socket, head));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `ws://127.0.0.1:${server.address().port}${target}`,
    async close() {
      wss.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

module.exports = { acceptBareSession, startBareServer };
