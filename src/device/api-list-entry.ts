/** One entry of apidiscovery.cgi's `getApiList`, declared once: the CGI answers it, a persona file keeps it. */
import { z } from 'zod';

/** One entry of `getApiList` (and of a persona file's `apiList`). */
export const ApiListEntrySchema = z
  .object({
    id: z.string(),
    version: z.string(),
    name: z.string(),
    /** Where the API is documented: real devices give a link on every entry. */
    docLink: z.string(),
  })
  .strict();

/** One entry of `getApiList`. */
export type ApiListEntry = z.output<typeof ApiListEntrySchema>;
