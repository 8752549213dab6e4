/**
 * What a device tells of an event stream session (`device.sessions()`, `GET /_emu/sessions`,
 * the dashboard's sessions panel), declared once as a zod schema with its type inferred.
 */
import { z } from 'zod';
import { CLIENT_VIAS } from '../base/client-tag';
import { SentFilterSchema } from '../base/sent-filter';
import type { Stated } from '../base/stated-keys';

/** OPEN: connected, no filters yet; CONFIGURED: receiving events; CLOSED: gone. */
export const SESSION_STATES = ['OPEN', 'CONFIGURED', 'CLOSED'] as const;

/** One of {@link SESSION_STATES}. */
export type SessionState = (typeof SESSION_STATES)[number];

/** A session as {@link SessionInfo} tells it: its fields in the order the control API lists them (after `id`, its `device`). */
export const SessionInfoSchema = z.object({
  id: z.string(),
  state: z.enum(SESSION_STATES),
  remoteAddress: z.string().optional(),
  user: z.string().optional(),
  sources: z.array(z.string()),
  connectedAt: z.number(),
  /** The current filters, as the client wrote them. */
  filters: z.array(SentFilterSchema),
  /** Notifications sent (one per matching filter). */
  sent: z.number().int(),
  /** Notifications dropped because the client did not read fast enough. */
  dropped: z.number().int(),
  /** Set for a session of the emulator's own dashboard (not graded); absent for a client's. */
  via: z
    .enum(CLIENT_VIAS)
    .optional()
    .meta({ description: "the emulator's own client (the dashboard), not graded; absent for a client's session" }),
});

/** What `EventSession.info` reports, e.g. for `device.sessions()` (the address and user stated, if undefined). */
export type SessionInfo = Stated<z.output<typeof SessionInfoSchema>, 'remoteAddress' | 'user'>;
