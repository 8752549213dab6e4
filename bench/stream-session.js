'use strict';
/** One event stream session of a benchmark's client: opened (from a chosen loopback address) and configured. */
const WebSocket = require('ws');

/**
 * Opens a session of the device on `port` from `localAddress` (the default when undefined),
 * sends `configure` (an object) and resolves with the socket and the answer; later messages go
 * to `onMessage` when given.
 */
function openSession(port, localAddress, configure, onMessage) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/svc/ws-data-stream?sources=events`, {
      localAddress,
      perMessageDeflate: false,
    });
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) => reject(new Error(`handshake refused: ${res.statusCode}`)));
    ws.once('open', () => {
      ws.once('message', (data) => {
        const answer = JSON.parse(data.toString());
        if (onMessage) ws.on('message', onMessage);
        resolve({ ws, answer });
      });
      ws.send(JSON.stringify(configure));
    });
  });
}

module.exports = { openSession };
