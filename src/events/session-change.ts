/**
 * What the stream server's watchers hear (a scenario's triggers, a wait for a session): the
 * client's sessions coming, configuring, going.
 */
import type { SessionInfo } from './event-session';

/**
 * A change of the client's sessions. The sessions of the emulator's own clients (`identity.via`
 * set: the dashboard) are never told: they are not the client under test, so they fire no
 * scenario trigger and meet no wait for a session. `StreamServer.sessions` still lists them.
 */
export type SessionChange =
  | { kind: 'connect'; session: SessionInfo }
  | {
      kind: 'configure';
      session: SessionInfo;
      /** True when the new filters can select `topic`. */ subscribesTo(topic: string): boolean;
    }
  | { kind: 'disconnect'; session: SessionInfo; code: number; reason: string };

/** A listener of `StreamServer.watch`; called synchronously. */
export type SessionListener = (change: SessionChange) => void;
