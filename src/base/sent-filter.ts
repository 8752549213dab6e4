/** A filter of an `events:configure` request as the client wrote it: the journal and the sessions keep it so. */
import { z } from 'zod';

/** A filter as the client sent it (its strings only: a filter of another type is kept empty). */
export const SentFilterSchema = z.object({ topicFilter: z.string().optional(), contentFilter: z.string().optional() });

/** A filter as the client sent it. */
export type SentFilter = z.output<typeof SentFilterSchema>;
