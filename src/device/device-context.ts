/**
 * The device a request is for. One Express app and one set of handlers serve every device
 * in the process; each request carries its device in `res.locals`, put there by the
 * device's request listener, and every handler reads it from there.
 */
import type { ServerResponse } from 'node:http';
import type { Response } from 'express';
import type { AuthGate } from '../auth/middleware';
import type { SessionTokens } from '../auth/session-tokens';
import type { Logger } from '../base/log';
import type { ResolvedDeviceOptions } from './device-options';
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
}

const DEVICE = Symbol('device');

/** Connections that carried a control API request: the test's, not the client's. */
export const controlSockets = new WeakSet<object>();

type DeviceLocals<D extends DeviceContext> = Record<typeof DEVICE, D>;

/** Makes `device` the one `res` is for: a fresh `res.locals` holding it (Express keeps one it finds). */
export function setDevice<D extends DeviceContext>(res: ServerResponse, device: D): void {
  const locals = Object.create(null) as DeviceLocals<D>;
  locals[DEVICE] = device;
  (res as ServerResponse & { locals: unknown }).locals = locals;
}

/** The device `res` is for (set by {@link setDevice}). */
export function deviceOf<D extends DeviceContext = DeviceContext>(res: Response): D {
  return (res.locals as DeviceLocals<D>)[DEVICE];
}
