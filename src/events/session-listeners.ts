/**
 * The WebSocket listeners of the event stream sessions: one set of functions (`this` is the
 * WebSocket) serves every session, where closures would cost each session their own.
 */
import type { WebSocket } from 'ws';

/** What a session does with its WebSocket's events (see {@link listenTo}). */
export interface SocketEvents {
  /** A message from the client, as bytes. */
  onMessage(data: Buffer, isBinary: boolean): void;
  /** A ping from the client. */
  wsPing(data: Buffer): void;
  /** The WebSocket failed. */
  wsError(err: Error): void;
  /** The WebSocket closed. */
  wsClosed(code: number, reason: string): void;
}

/** The session of each WebSocket, for the shared listeners below. */
const sessionOf = new WeakMap<WebSocket, SocketEvents>();

/** Hands `ws`'s message, ping, error and close events to `session`, for the life of the WebSocket. */
export function listenTo(ws: WebSocket, session: SocketEvents): void {
  sessionOf.set(ws, session);
  ws.on('message', onWsMessage);
  ws.on('ping', onWsPing);
  ws.on('error', onWsError);
  // `on`, not `once`: ws emits 'close' once, and a `once` wrapper costs more per session.
  ws.on('close', onWsClose);
}

/** A message: ws gives it in one of three forms, the session one. */
function onWsMessage(this: WebSocket, data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean): void {
  sessionOf.get(this)?.onMessage(toBuffer(data), isBinary);
}

/** A ping from the client. */
function onWsPing(this: WebSocket, data: Buffer): void {
  sessionOf.get(this)?.wsPing(data);
}

/** The WebSocket failed. */
function onWsError(this: WebSocket, err: Error): void {
  sessionOf.get(this)?.wsError(err);
}

/** The WebSocket closed: its reason as text. */
function onWsClose(this: WebSocket, code: number, reason: Buffer): void {
  sessionOf.get(this)?.wsClosed(code, reason.toString());
}

/** A message's bytes in one buffer, whatever `binaryType` ws delivered it as. */
function toBuffer(data: Buffer | ArrayBuffer | Buffer[]): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}
