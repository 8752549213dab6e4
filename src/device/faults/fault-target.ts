/** What a device's fault switches act on: the device's parts, and the fault fields they read. */
import type { Authenticator } from '../../auth/authenticator';
import type { SessionTokens } from '../../auth/session-tokens';
import type { Clock } from '../../base/clock';
import type { DeviceDoor } from '../../base/device-door';
import type { JournalWriter } from '../../base/journal';
import type { Logger } from '../../base/log';
import type { EventBus } from '../../events/event-bus';
import type { EventFaults } from '../../events/event-faults';
import type { StreamServer } from '../../events/stream-server';
import type { AnswerOverrides } from '../answer-overrides';

/** How the device's CGIs misbehave (read by the device's HTTP app). */
export interface HttpFaults {
  cgi?: { delayMs: number; status: 503 | undefined };
  /** The answer overrides, made with the first (../answer-overrides). */
  overrides?: AnswerOverrides;
}

/** The device as its switches see it. */
export interface FaultTarget {
  readonly serial: string;
  /** The word the device publishes for `tnsvendor:` (flap and storm topics are renamed to it). */
  readonly namespace: string;
  readonly events: EventFaults;
  readonly http: HttpFaults;
  readonly stream: StreamServer;
  readonly bus: EventBus;
  readonly authenticator: Authenticator;
  readonly tokens: SessionTokens;
  readonly listening: DeviceDoor;
  /** Connections a reboot keeps: the control API's (the test asking for the reboot hears the answer). */
  spares(socket: object): boolean;
  /** Forgets the states and publishes the initial ones again. */
  restartStates(): void;
  /** Serves a self-signed certificate for `hostname`, or with undefined the device's own; undefined without TLS. */
  readonly certificateFor: ((hostname: string | undefined) => Promise<void>) | undefined;
  readonly log: Logger;
  /** Where switching is recorded for the grader (undefined without a journal). */
  readonly journal: JournalWriter | undefined;
  /** The device's clock (timestamps of a flap). */
  readonly clock: Clock;
  /** Resolves true after `ms`, or false as soon as the device closes. */
  wait(ms: number): Promise<boolean>;
}
