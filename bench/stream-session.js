'use strict';
/** One event stream session of a benchmark's client: opened (from a chosen loopback address) and configured. */
const WebSocket = require('ws');

/**
 * Opens a session of the device at `target` (a port of 127.0.0.1, or a whole `ws://` URL) from
 * `localAddress` (the default when undefined), sends `configure` (an object) and resolves with
 * the socket and the answer; later messages go to `onMessage` when given.
 */
function openSession(target, localAddress, configure, onMessage) {
  return new Promise((resolve, reject) => {
    const url = typeof target === 'number' ? `ws://127.0.0.1:${target}/svc/ws-data-stream?sources=events` : target;
    const ws = new WebSocket(url, { localAddress, perMessageDeflate: false });
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
