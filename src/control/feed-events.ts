/**
 * What the live feed's events carry (`GET /_emu/feed`, ./event-feed), declared once as zod:
 * the feed and its snapshots are typed by them, the tests check each event against them, and
 * the dashboard gets them generated (web/dashboard/wire-types.ts `FeedEvents`). The snapshots
 * are their GET routes' answers, the same schemas.
 */
import { z } from 'zod';
import { JournalEntrySchema } from '../base/journal-entries';
import { FaultsSchema } from './fault-schemas';
import { OverridesSchema } from './override-schemas';
import { ScenarioStatusSchema } from './scenario-status';
import { SessionsSchema } from './schemas';

/** A `journal` event: the device's new entries, the newest `maxBatch` of them. */
export const FeedBatchSchema = z.object({
  entries: z.array(JournalEntrySchema),
  /** Entries left out: older ones of the batch, or ones the journal no longer held. */
  skipped: z.number().int().nonnegative(),
  /** Set on the first batch when the seq resumed from is above every seq issued: the journal started again. */
  reset: z.literal(true).optional(),
});

/** Each event of the feed by its name, and its data. */
export const FeedEventsSchema = z.object({
  journal: FeedBatchSchema,
  sessions: SessionsSchema,
  faults: FaultsSchema,
  overrides: OverridesSchema,
  scenario: ScenarioStatusSchema,
});

/** The data of each event of the feed, by its name. */
export type FeedEvents = z.infer<typeof FeedEventsSchema>;

/** The name of an event of the feed. */
export type FeedEventName = keyof FeedEvents;
