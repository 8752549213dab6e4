/**
 * The core shape of the event bus: the `source`, `key` and `data` of an event, as a scenario
 * publishes it, the bus carries it, content filters match it and `events:notify` sends it.
 */

/** The message of an event (each part name -> value), as `events:notify` carries it. */
export interface NotificationMessage {
  source?: Readonly<Record<string, string>>;
  key?: Readonly<Record<string, string>>;
  data?: Readonly<Record<string, string>>;
}
