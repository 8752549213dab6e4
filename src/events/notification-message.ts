/**
 * The core shape of the event bus: the `source`, `key` and `data` of an event, as a scenario
 * publishes it, the bus carries it, content filters match it and `events:notify` sends it;
 * and the notification `events:notify` carries (its `params.notification`), declared once as
 * a zod schema: the bus builds it, the dashboard reads it (generated: web/dashboard/wire-types.ts).
 */
import { z } from 'zod';

/** The `source`, `key` or `data` part of a message: names to string values. */
export const MessagePartSchema = z.record(z.string(), z.string({ error: 'expected a string value' }));

/** The message of an event (each part name -> value), as `events:notify` carries it. */
export interface NotificationMessage {
  source?: Readonly<Record<string, string>>;
  key?: Readonly<Record<string, string>>;
  data?: Readonly<Record<string, string>>;
}

/** `params.notification` of an `events:notify` message: every part sent, `{}` when the event has none. */
export const NotificationSchema = z.object({
  topic: z.string(),
  /** Epoch ms; absent when the device sends none (its timestamp mode, a publish without one). */
  timestamp: z.number().optional(),
  message: z.object({ source: MessagePartSchema, key: MessagePartSchema, data: MessagePartSchema }),
});

/** {@link NotificationSchema}'s type. */
export type Notification = z.infer<typeof NotificationSchema>;
