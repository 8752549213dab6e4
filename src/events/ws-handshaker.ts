/**
 * The `ws` servers that perform the event stream's WebSocket handshakes. In noServer mode
 * without client tracking a ws server only performs handshakes and keeps nothing, so every
 * device with the same settings shares one (a fleet of a thousand would otherwise hold a thousand).
 */
import { WebSocketServer } from 'ws';

/** Frames above the message limit times this are refused by ws itself (close 1009); between the limit and this, 2107. */
const HARD_FRAME_LIMIT_FACTOR = 16;

/** The shared servers, by their settings. */
const handshakers = new Map<string, WebSocketServer>();

/** The ws server for a stream offering `deflate` and taking messages up to `maxMessageBytes` (made on first use). */
export function handshaker(deflate: boolean, maxMessageBytes: number): WebSocketServer {
  const maxPayload = Math.max(maxMessageBytes * HARD_FRAME_LIMIT_FACTOR, 1024 * 1024);
  const key = `${deflate} ${maxPayload}`;
  let wss = handshakers.get(key);
  if (!wss) {
    wss = new WebSocketServer({
      noServer: true,
      clientTracking: false,
      perMessageDeflate: deflate ? { threshold: 256 } : false,
      maxPayload,
      // Sessions answer pings themselves, up to a limit and then with a close (1008): ws's own
      // answer drops a connection with 60 pongs not yet written, without a close frame.
      autoPong: false,
    });
    handshakers.set(key, wss);
  }
  return wss;
}
