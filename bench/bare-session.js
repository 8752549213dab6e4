'use strict';
/**
 * What the bare servers of the handshake and session-memory benchmarks do with an accepted
 * upgrade: the WebSocket handshake, then every message answered as the device answers a
 * configure (`{"apiVersion":...,"context":...,"method":"events:configure","data":{}}`), and
 * nothing else.
 */

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

module.exports = { acceptBareSession };
