/**
 * The zod schemas of `GET /_emu/journal`: its query, and its answer, whose entries are the
 * journal's own schema (../base/journal-entries).
 */
import { z } from 'zod';
import { CLIENT_VIAS } from '../base/client-tag';
import { JOURNAL_KINDS, JournalEntrySchema } from '../base/journal';

/** One journal entry, by its kind: declared with the journal (../base/journal-entries). */
export { JournalEntrySchema };

/**
 * A journal seq as a query parameter or a header gives it (`since`, `Last-Event-ID`): decimal
 * digits only, so that `since=`, ` 1`, `0x10`, `1e3` or `-1` are refused rather than read as
 * some other number. One rule for every place a seq comes in.
 */
export const SeqSchema = z
  .string()
  // At most 15 digits: every such number is exact in a double.
  .regex(/^\d{1,15}$/, { error: 'expected the seq of a journal entry: 1 to 15 decimal digits' })
  .transform(Number);

/** `?since=&kind=&session=&topic=&via=`; `kind` may repeat or list kinds separated by commas. */
export const JournalQuerySchema = z.strictObject({
  since: SeqSchema.optional().meta({ description: 'only entries after this seq' }),
  kind: z
    .preprocess((value) => [value].flat().flatMap((item) => String(item).split(',')), z.array(z.enum(JOURNAL_KINDS)))
    .optional()
    .meta({ description: 'only entries of these kinds (repeat the parameter, or separate by commas)' }),
  session: z.string().optional().meta({ description: 'only entries of this event stream session' }),
  topic: z.string().optional().meta({ description: 'only notifications of this topic' }),
  via: z
    .enum(['client', ...CLIENT_VIAS])
    .optional()
    .meta({
      description:
        "only the entries of the emulator's own dashboard (`dashboard`), or all but those " +
        '(`client`: the entries the report grades, with the faults and expectations)',
    }),
});

/** The answer of `GET /_emu/journal`. */
export const JournalAnswerSchema = z.object({
  entries: z.array(JournalEntrySchema),
  dropped: z.number().int().meta({ description: 'entries the bounded journal pushed out since the last clear' }),
});
