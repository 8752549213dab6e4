/** The live feed route: Server-Sent Events of what happens on the device (./event-feed), for the dashboard. */
import { z } from 'zod';
import { ControlError } from './control-error';
import { EventFeed, FEED_TIMING } from './event-feed';
import { defineEventStream } from './route';
import { lastEventId, writeEventStreamHead } from './server-sent-events';

const FeedQuerySchema = z.strictObject({
  since: z.coerce
    .number()
    .int()
    .nonnegative()
    .optional()
    .meta({ description: 'first send what the journal still holds after this seq (Last-Event-ID wins over it)' }),
});

const { batchMs, maxBatch, snapshotMs, keepaliveMs } = FEED_TIMING;

/** The routes of this file. */
export const FEED_ROUTES = [
  defineEventStream({
    path: '/feed',
    summary: 'A live feed of the device for a dashboard: journal entries, sessions, faults, scenario (SSE)',
    description:
      'Server-Sent Events until the client goes or the emulator closes. With `since` (or `Last-Event-ID`, ' +
      'which an EventSource sends when it reconnects) it first sends what the journal still holds after ' +
      'that seq. HEAD answers the headers only.',
    query: FeedQuerySchema,
    events:
      `event journal: { entries: JournalEntry[], skipped } - the device's new entries, a batch at most every ` +
      `${batchMs} ms carrying the newest ${maxBatch} (skipped: how many older ones were left out); id: the last seq. ` +
      'event sessions: as GET /sessions answers; event faults: as GET /faults; event scenario: as GET /scenario - ' +
      `each at the start, then only when it changed (checked every ${snapshotMs} ms). ` +
      `A ": keepalive" comment after ${keepaliveMs} ms without an event.`,
    open: ({ emulator, device, stateNow, scheduler, log, query }, { req, res }) => {
      const resumed = lastEventId(req.headers['last-event-id']);
      if (Number.isNaN(resumed))
        throw new ControlError(400, 'BAD_REQUEST', 'header Last-Event-ID: expected the seq of a journal entry');
      if (req.method === 'HEAD') {
        writeEventStreamHead(res);
        return void res.end();
      }
      new EventFeed(res, { emulator, device, state: stateNow, scheduler, log, since: resumed ?? query.since });
    },
  }),
];
