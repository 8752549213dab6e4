/**
 * What the end-to-end tests of the device fault switches share: `describeFault` (whose
 * names coverage.test.ts collects, so every switch must have one), a rig that starts
 * devices and opens stream clients and closes them all after each test, and waits on
 * conditions instead of sleeps.
 */
import { connect } from 'node:net';
import { type DeviceHandle, type DeviceOptions, type FaultName, startDevice } from '../../../src';
import {
  type HandshakeOutcome,
  handshake,
  notificationOf,
  openWithToken,
  type NotifyParams,
  type StreamClient,
  streamTarget,
  WAIT_MS,
  wsUrl,
} from '../../helpers/event-stream-client';
import { sendRequest } from '../../helpers/http';

/** The e2e tests of switch `name`: `describe('fault <name>')`. coverage.test.ts counts these. */
export function describeFault(name: FaultName, fn: () => void): void {
  describe(`fault ${name}`, fn);
}

export const PORT = 'tns1:Device/tnsvendor:IO/Port';
export const MARKER = 'tns1:Test/Marker';
export const MARKER_FILTER = { topicFilter: MARKER };

/** Devices and stream clients of a test file, all closed after each test. */
export interface FaultRig {
  /** Starts a device on a free port; auth `none` unless `options` say otherwise. */
  start(options?: DeviceOptions): Promise<DeviceHandle>;
  /** Opens an event stream session (a session token when the device asks for credentials). */
  open(device: DeviceHandle): Promise<StreamClient>;
  /** Tries the stream handshake: the client on 101, the HTTP answer otherwise. */
  handshake(device: DeviceHandle): Promise<HandshakeOutcome>;
  /** Closes `client` after the test too. */
  track(client: StreamClient): StreamClient;
  /** Opens a session configured with `filters` (default: the Port topic) and the marker. */
  configured(device: DeviceHandle, filters?: object[]): Promise<StreamClient>;
}

/** Registers the `afterEach` that closes what the returned rig opened. */
export function faultRig(defaults: DeviceOptions = {}): FaultRig {
  const devices: DeviceHandle[] = [];
  const clients: StreamClient[] = [];
  afterEach(async () => {
    // Devices first: closing one switches its faults off (a held session reads again) and
    // ends its sessions, so the clients' own closes find them closed.
    await Promise.all(devices.splice(0).map((d) => d.close()));
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });
  const track = (client: StreamClient): StreamClient => {
    clients.push(client);
    return client;
  };
  return {
    start: async (options = {}) => {
      const device = await startDevice({ port: 0, auth: 'none', ...defaults, ...options });
      devices.push(device);
      return device;
    },
    open: async (device) => track(await openWithToken(device)),
    handshake: async (device) => {
      const outcome = await handshake(wsUrl(device, streamTarget(device)));
      if (outcome.ok) track(outcome.client);
      return outcome;
    },
    track,
    configured: async (device, filters = [{ topicFilter: PORT }]) => {
      const client = track(await openWithToken(device));
      expect((await client.configure([...filters, MARKER_FILTER])).data).toEqual({});
      return client;
    },
  };
}

/** Sets the state of I/O port `port` (a stateful Port event). */
export function setPort(device: DeviceHandle, port: string, state: string): void {
  device.publish(PORT, { source: { port }, data: { state } }, { stateful: true });
}

/** The notification of a message, as topic, source, data and timestamp. */
export type Note = NotifyParams['notification'];

/**
 * Publishes a marker event and returns the notifications `client` received before it: what
 * the device sent since the last take, proven complete (the stream is ordered). The client
 * must be configured with {@link MARKER_FILTER}.
 */
export function untilMarker(device: DeviceHandle, client: StreamClient): Promise<Note[]> {
  device.publish(MARKER, { data: { end: '1' } });
  return takeUntilMarker(client);
}

/** The notifications `client` receives before the next marker (published by the caller, once for every client). */
export async function takeUntilMarker(client: StreamClient): Promise<Note[]> {
  const seen: Note[] = [];
  for (;;) {
    const note = notificationOf(await client.next());
    if (note.topic === MARKER) return seen;
    seen.push(note);
  }
}

/** `{ port, state }` of each Port notification, for short comparisons. */
export function portStates(notes: readonly Note[]): { port: string | undefined; state: string | undefined }[] {
  return notes.map((n) => ({ port: n.message.source.port, state: n.message.data.state }));
}

/**
 * Polls `predicate` until it holds; fails after `timeoutMs` (generous: the condition must be
 * deterministic, the timeout only ends a broken test).
 */
export async function waitFor(predicate: () => boolean, what: string, timeoutMs = WAIT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Opens a TCP connection to `port`: `connected` (then closed again), or the error code. */
export function tcpConnect(port: number, host = '127.0.0.1'): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ port, host });
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
  });
}

/**
 * Two HTTP round trips to the device: whatever it would have answered on another
 * connection to data sent before this call has reached the client by the time it resolves.
 * A barrier to prove an answer absent (a pong that does not come).
 */
export async function roundTrips(device: DeviceHandle): Promise<void> {
  for (let i = 0; i < 2; i++) await sendRequest(device.url, { path: '/no-such-page' });
}
