/**
 * What the event system does differently while a device fault switch is on (see
 * ../device/faults). The switches set these fields; the bus and the stream server read them
 * on their paths, so an unfaulted device pays one property read.
 */

/** How notification timestamps go wrong. */
export interface ClockFault {
  /** Added to every timestamp (a device clock far off); negative for behind. */
  skewMs: number;
  /** No timestamp at all. */
  missing: boolean;
  /** Each timestamp this many ms before the previous one (events out of order); 0 for off. */
  backwardsStepMs: number;
}

/** The event stream's session limit. */
export interface SlotFault {
  /** At most this many concurrent sessions. */
  max: number;
  /** `refuse`: the handshake over the limit gets 503; `evict`: the oldest session is closed. */
  overflow: 'refuse' | 'evict';
  /** Close code and reason for an evicted session. */
  code: number;
  reason: string;
}

/** The fault fields the event system honours; all off (undefined or false) on a healthy device. */
export interface EventFaults {
  /** Sessions stay open but are sent nothing; with `pings: false` they stop reading (no pong, no configure). */
  stall?: { pings: boolean };
  /** The stream path answers 404, as on firmware without WebSocket events. */
  noWebSocket?: boolean;
  slots?: SlotFault;
  /**
   * A stateful property changed while this is on ignores every later change (a state set and
   * never cleared): the keys (topic, source, key) of the states already changed.
   */
  stuckStates?: Set<string>;
  /** No current states are sent after a configure. */
  noInitialStates?: boolean;
  clock?: ClockFault;
}
