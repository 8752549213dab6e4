/**
 * The report's segment running now (since the start or the last reset), as `nameSegment()` and
 * `PUT /_emu/segment` answer it: declared once as a zod schema with its type inferred.
 */
import { z } from 'zod';

/** The segment running now. */
export const SegmentInfoSchema = z
  .object({
    /** 1 for the first, counting every reset. */
    index: z.number().int().meta({ description: '1 for the first, counting every reset' }),
    /** The name the test gave it, else `segment <index>`. */
    name: z.string().meta({ description: 'the name the test gave it, else `segment <index>`' }),
    named: z.boolean(),
    /** When it began. */
    from: z.string().meta({ description: 'when it began' }),
  })
  .meta({ id: 'Segment' });

/** The segment of the report running now. */
export type SegmentInfo = z.output<typeof SegmentInfoSchema>;
