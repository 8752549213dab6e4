/**
 * The device a request is for. One Express app and one set of handlers serve every device
 * in the process; each request carries its device in `res.locals`, put there by the
 * device's request listener, and every handler reads it from there.
 */
import type { ServerResponse } from 'node:http';
import type { Response } from 'express';
import type { AuthGate } from '../auth/middleware';
import type { SessionTokens } from '../auth/session-tokens';
import type { ClientVia } from '../base/client-tag';
import type { Logger } from '../base/log';
import type { RequestLocals } from '../base/request-log';
import type { ResolvedDeviceOptions } from './device-options';
import type { AnswerOverrides } from './answer-overrides';
import type { FeatureFlags } from './feature-flags';

/** What a device's HTTP handlers read of it. */
export interface DeviceContext {
  readonly options: ResolvedDeviceOptions;
  readonly tokens: SessionTokens;
  readonly flags: FeatureFlags;
  /** The device's logger (with its serial). */
  readonly log: Logger;
  /** The device's authentication: true with the account in `res.locals`, false once it has answered 401. */
  readonly authenticate: AuthGate;
  /** The device's answer overrides; undefined until the first is made. */
  readonly overrides?: AnswerOverrides;
}

const DEVICE = Symbol('device');

/** Connections that carried a control API request: the test's, not the client's. */
export const controlSockets = new WeakSet<object>();

/**
 * What a device works out once per request, at the start of its pipeline, and its steps (the
 * request log and journal, the authentication, the token CGI) read instead of the request.
 */
export interface DeviceRequestLocals extends RequestLocals {
  /** The emulator client the request's `X-BWC-Emu-Client` header names (see clientVia); undefined for a client. */
  via: ClientVia | undefined;
  /**
   * False for a request that is not the client under test's (a dashboard page load): neither
   * it nor its refused login is journaled. Set by the route that knows.
   */
  journaled: boolean;
  /** The JSON-RPC `method` the body named, for the journal (set by a JSON-RPC CGI once it has read the body). */
  rpcMethod?: string;
  /** The body of a request answered with an error, for the journal's excerpt (never set for a success). */
  refusedBody?: Buffer;
  /** The number of the session token `wssession.cgi` answered (the journal names a token by it). */
  token?: number;
  /** The id of the answer override that answered the request (the journal names it). */
  override?: string;
}

type DeviceLocals<D extends DeviceContext> = DeviceRequestLocals & Record<typeof DEVICE, D>;

/**
 * Makes `device` the one `res` is for: a fresh `res.locals` holding it and `via`, the request's
 * emulator client (Express keeps a `locals` it finds).
 */
export function setDevice<D extends DeviceContext>(res: ServerResponse, device: D, via: ClientVia | undefined): void {
  const locals = Object.create(null) as DeviceLocals<D>;
  locals[DEVICE] = device;
  locals.via = via;
  locals.journaled = true;
  (res as ServerResponse & { locals: unknown }).locals = locals;
}

/** The per-request facts of `res` (set by {@link setDevice}); Node's own response too, for routes served without Express. */
export function requestLocals(res: { locals: object }): DeviceRequestLocals {
  return res.locals as DeviceRequestLocals;
}

/** The device `res` is for (set by {@link setDevice}); Node's own response too, when it carries the locals. */
export function deviceOf<D extends DeviceContext = DeviceContext>(res: Response | { locals: object }): D {
  return (res.locals as DeviceLocals<D>)[DEVICE];
}
