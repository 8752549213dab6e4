/** The answer schemas fit what the emulator hands the routes: checked by the compiler, and on samples. */
import type { z } from 'zod';
import { ManualClock } from '../../../src/base/clock';
import { Journal, type JournalEntry, type JournalRecord } from '../../../src/base/journal';
import { JournalAnswerSchema, JournalEntrySchema } from '../../../src/control/journal-schemas';
import { type FlagsSchema, type SessionsSchema } from '../../../src/control/schemas';
import type { FlagState } from '../../../src/device/feature-flags';
import type { EmulatorSession } from '../../../src/emulator/handle';

// Compile-time: every value of the emulator's types is a valid input of the schema.
export const fits = {
  entry: (entry: JournalEntry): z.input<typeof JournalEntrySchema> => entry,
  session: (session: EmulatorSession): z.input<typeof SessionsSchema>['sessions'][number] => session,
  flag: (flag: FlagState): z.input<typeof FlagsSchema>['flags'][number] => flag,
};

const device = 'B8A44F000001';
const RECORDS: JournalRecord[] = [
  {
    kind: 'http',
    device,
    method: 'GET',
    path: '/x',
    status: 200,
    auth: 'digest',
    user: 'root',
    ms: 1,
    remote: '::1',
    error: undefined,
  },
  {
    kind: 'http',
    device,
    method: 'GET',
    path: '/x',
    status: undefined,
    auth: undefined,
    user: undefined,
    ms: 1,
    remote: undefined,
    error: { code: 2100, message: 'version not supported' },
  },
  { kind: 'ws-open', device, session: 's1', user: 'root', remote: '127.0.0.1' },
  { kind: 'ws-close', device, session: 's1', code: 1001, reason: 'bye', by: 'device' },
  { kind: 'ws-refused', device, path: '/svc/ws-data-stream', status: 503, reason: 'no slot', remote: '::1' },
  { kind: 'configure', device, session: 's1', filters: [{ topicFilter: 'tns1:Device' }], error: undefined },
  { kind: 'configure', device, session: 's1', filters: [], error: { code: 2104, message: 'bad filter' } },
  {
    kind: 'http',
    device,
    method: 'POST',
    path: '/svc-cgi/featureflag.cgi',
    status: 200,
    auth: 'basic',
    user: 'root',
    ms: 1,
    remote: '::1',
    error: { code: 2104, message: 'Invalid parameter' },
    call: 'set',
    body: { bytes: 30, text: '{"method":"set","token":"[redacted]"}' },
  },
  {
    kind: 'message-refused',
    device,
    session: 's1',
    code: 2107,
    message: 'Request too large',
    closed: false,
    binary: false,
    sent: { bytes: 112_640, text: '{"apiVersion":"1.0"…' },
  },
  {
    kind: 'message-refused',
    device,
    session: 's1',
    code: 1009,
    message: 'Max payload',
    closed: true,
    binary: false,
    sent: undefined,
  },
  { kind: 'notification', device, session: 's1', topic: 'tns1:Device', event: 7 },
  {
    kind: 'auth-refused',
    device,
    method: 'GET',
    path: '/x',
    scheme: 'digest',
    code: 'STALE_NONCE',
    reason: 'nonce expired',
    stale: true,
    user: 'root',
    remote: '::1',
  },
  { kind: 'fault', device, name: 'stall', state: 'on', params: { pings: false, forMs: 1000 } },
  { kind: 'fault', device, name: 'stall', state: 'off', params: {} },
  { kind: 'expect', device, name: 'back', that: 'configured', withinMs: 60000, topic: undefined },
];

describe('JournalAnswerSchema', () => {
  it('takes an entry of every kind, as JSON carries it', () => {
    const journal = new Journal(new ManualClock(), 100);
    for (const record of RECORDS) journal.record(record);
    const answer: unknown = JSON.parse(JSON.stringify({ entries: journal.entries(), dropped: 0 }));
    expect(JournalAnswerSchema.safeParse(answer).error).toBeUndefined();
  });

  it('refuses an entry of an unknown kind', () => {
    const entry = { seq: 1, time: '2026-01-01T00:00:00.000Z', device, kind: 'other' };
    expect(JournalEntrySchema.safeParse(entry).success).toBe(false);
  });
});
