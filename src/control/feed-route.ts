/** The live feed route: Server-Sent Events of what happens on the device (./event-feed), for the dashboard. */
import { z } from 'zod';
import { fail, ok, type Result } from '../base/result';
import { refusalDocs } from './control-codes';
import { ControlError } from './control-error';
import { FEED_TIMING } from './event-feed';
import { TOO_MANY_FEEDS } from './feed-hubs';
import { SeqSchema } from './journal-schemas';
import { defineEventStream } from './route';
import { writeEventStreamHead } from './server-sent-events';

const FeedQuerySchema = z.strictObject({
  since: SeqSchema.optional().meta({
    description:
      'first send what the journal still holds after this seq (Last-Event-ID wins over it); ' +
      'above every seq issued: from the start, the first batch marked `reset`',
  }),
});

/**
 * The `Last-Event-ID` of a reconnecting client as a seq: undefined when absent or empty (the
 * standard's "no last event ID"), a `BAD_REQUEST` when not a seq as `since` takes it.
 */
function lastEventId(header: string | undefined): Result<number | undefined> {
  if (header === undefined || header === '') return ok(undefined);
  const parsed = SeqSchema.safeParse(header);
  if (parsed.success) return ok(parsed.data);
  return fail('BAD_REQUEST', `header Last-Event-ID: ${parsed.error.issues[0].message}`);
}

const { batchMs, maxBatch, snapshotMs, keepaliveMs, stallMs } = FEED_TIMING;

/** The routes of this file. */
export const FEED_ROUTES = [
  defineEventStream({
    path: '/feed',
    summary: 'A live feed of the device for a dashboard: journal entries, sessions, faults, scenario (SSE)',
    description:
      'Server-Sent Events until the client goes or the emulator closes. With `since` (or `Last-Event-ID`, ' +
      'which an EventSource sends when it reconnects) it first sends what the journal still holds after ' +
      'that seq; a seq above every seq issued (the emulator started again) replays from the start, the first ' +
      'batch marked `reset: true`. HEAD answers the headers only. The emulator serves a capped number of ' +
      'feeds at once (`control.maxFeeds`, default 100, over all its devices); a reader that takes nothing of ' +
      `what waits for it for ${stallMs / 1000} s is closed (an EventSource reconnects with its Last-Event-ID).`,
    query: FeedQuerySchema,
    refusals: refusalDocs(TOO_MANY_FEEDS),
    events:
      `event journal: { entries: JournalEntry[], skipped, reset? } - the device's new entries, a batch at most every ` +
      `${batchMs} ms carrying the newest ${maxBatch} (skipped: how many older ones were left out); id: the last seq. ` +
      'event sessions: as GET /sessions answers; event faults: as GET /faults; event scenario: as GET /scenario - ' +
      `each at the start, then only when it changed (checked every ${snapshotMs} ms). ` +
      `A ": keepalive" comment after ${keepaliveMs} ms without an event.`,
    open: ({ emulator, device, scheduler, log, query, feeds }, { req, res }) => {
      const resumed = lastEventId(req.get('Last-Event-ID'));
      if (!resumed.ok) throw new ControlError('BAD_REQUEST', resumed.error.message);
      if (req.method === 'HEAD') {
        writeEventStreamHead(res);
        return void res.end();
      }
      feeds.openFeed({ emulator, device, scheduler, log }, req, res, resumed.value ?? query.since);
    },
  }),
];
