/** The journal routes: read what crossed the device's sockets, and clear it for every device. */
import { JournalAnswerSchema, JournalQuerySchema } from './journal-schemas';
import { defineRoute } from './route';

/** The routes of this file. */
export const JOURNAL_ROUTES = [
  defineRoute({
    method: 'get',
    path: '/journal',
    summary: "The device's journal: requests, sessions, configures, notifications, refused logins",
    description:
      'Oldest first, only the entries of this device. The journal is bounded: `dropped` counts the entries ' +
      'it pushed out since it was last cleared; read with `since` set to the last `seq` seen to get only new ones. ' +
      "The dashboard's own requests and sessions are kept, marked `via: dashboard`; `via=client` leaves them out.",
    query: JournalQuerySchema,
    response: JournalAnswerSchema,
    handler: ({ emulator, device, query }) => ({
      entries: emulator.journal({ ...query, device }),
      dropped: emulator.journalDropped,
    }),
  }),
  defineRoute({
    method: 'delete',
    path: '/journal',
    summary: 'Clear the journal',
    description:
      'The journal is shared by every device of a fleet: this clears the entries of all of them, ' +
      'whichever device it is sent to. Sequence numbers go on.',
    handler: ({ emulator }) => emulator.clearJournal(),
  }),
];
