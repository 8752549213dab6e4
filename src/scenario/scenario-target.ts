/** What a scenario plays on (./player): the device's event bus, flags, sessions, auth, faults and the grader's expectations. */
import type { NotificationMessage } from '../events/notification-message';
import type { OverrideSpec } from '../protocol/answer-override-spec';
import type { FaultName } from '../protocol/fault-catalogue';
import type { ExpectAction } from './schema';

/** What a scenario acts on: the device's event bus, flags, sessions and auth. */
export interface ScenarioTarget {
  /** Publishes an event; `timestamp` undefined = device clock, null = none, number = epoch ms. */
  publish(
    topic: string,
    message: NotificationMessage,
    options: { stateful?: boolean; timestamp?: number | null },
  ): unknown;
  /** Sets feature flags. */
  setFlags(values: Record<string, boolean>): Promise<void>;
  /** Closes every event session; returns how many were closed. */
  closeSessions(code?: number, reason?: string): number;
  /** Rejects every authentication attempt for `forMs` milliseconds. */
  rejectAuth(forMs: number): void;
  /** Turns a fault switch on (parameters already checked against the catalogue); resolves when on or over. */
  fault(name: FaultName, params: Record<string, unknown>): Promise<unknown>;
  /** Makes the device answer a CGI as `spec` says (docs/control-api.md); throws for an unknown CGI or method. */
  override(spec: OverrideSpec): unknown;
  /** From now, the client has `withinMs` to do `that` (recorded for the grader). */
  expect(expectation: ExpectAction): void;
}
