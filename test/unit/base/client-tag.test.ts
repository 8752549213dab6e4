/**
 * The dashboard's tag: `X-BWC-Emu-Client: dashboard` names it, anything else names no one
 * (with a log line); journal entries carry `via` only when it is set, and the journal reads
 * by it (`via: 'dashboard'`, or `client` for all the others).
 */
import { clientVia } from '../../../src/base/client-tag';
import { ManualClock } from '../../../src/base/clock';
import { type DeviceJournalRecord, Journal, viaWriter, writeVia } from '../../../src/base/journal';
import { createLogger } from '../../../src/base/log';

/** A logger whose lines are kept, parsed. */
function tapped(): { log: ReturnType<typeof createLogger>; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const log = createLogger({
    level: 'debug',
    write: (line) => lines.push(JSON.parse(line) as Record<string, unknown>),
  });
  return { log, lines };
}

describe('clientVia', () => {
  it('names the dashboard for exactly `dashboard`, without a log line', () => {
    const { log, lines } = tapped();
    expect(clientVia({ 'x-bwc-emu-client': 'dashboard' }, log)).toBe('dashboard');
    expect(lines).toEqual([]);
  });

  it('names no one without the header, without a log line', () => {
    const { log, lines } = tapped();
    expect(clientVia({}, log)).toBeUndefined();
    expect(lines).toEqual([]);
  });

  it.each(['Dashboard', 'client', '', 'dashboard, dashboard', ' dashboard'])(
    'ignores %j with a log line naming the value',
    (value) => {
      const { log, lines } = tapped();
      expect(clientVia({ 'x-bwc-emu-client': value }, log)).toBeUndefined();
      expect(lines).toEqual([
        expect.objectContaining({
          header: 'X-BWC-Emu-Client',
          value,
          msg: 'X-BWC-Emu-Client ignored: the only value known is "dashboard"; the request is graded as the client\'s',
        }),
      ]);
    },
  );

  it('ignores a value given twice, and cuts a long value in its log line', () => {
    const { log, lines } = tapped();
    expect(clientVia({ 'x-bwc-emu-client': ['dashboard', 'dashboard'] }, log)).toBeUndefined();
    expect(clientVia({ 'x-bwc-emu-client': 'd'.repeat(1000) }, log)).toBeUndefined();
    expect(lines.map((l) => l.value)).toEqual(['dashboard,dashboard', 'd'.repeat(64)]);
  });

  it('logs nothing without a logger', () => {
    expect(clientVia({ 'x-bwc-emu-client': 'other' })).toBeUndefined();
  });
});

describe('writeVia and viaWriter', () => {
  const open = (session: string): DeviceJournalRecord => ({ kind: 'ws-open', session, user: 'root', remote: '::1' });

  it('marks an entry only when given a via: the others have no via field at all', () => {
    const journal = new Journal(new ManualClock(), 10);
    const write = journal.writerFor('D1');
    writeVia(write, open('s1'), 'dashboard');
    writeVia(write, open('s2'), undefined);
    viaWriter(write, 'dashboard')({ kind: 'notification', session: 's1', topic: 't', event: 1 });
    const [first, second, third] = journal.entries();
    expect(first.kind === 'ws-open' && first.via).toBe('dashboard');
    expect('via' in second).toBe(false);
    expect(third.kind === 'notification' && third.via).toBe('dashboard');
  });

  it('lets the journal read the dashboard entries, or all the others (faults included)', () => {
    const journal = new Journal(new ManualClock(), 10);
    const write = journal.writerFor('D1');
    writeVia(write, open('s1'), 'dashboard');
    writeVia(write, open('s2'), undefined);
    journal.record({ kind: 'fault', device: 'D1', name: 'stall', state: 'on', params: {} });
    const seqs = (via: 'client' | 'dashboard' | undefined): number[] => journal.entries({ via }).map((e) => e.seq);
    expect(seqs('dashboard')).toEqual([1]);
    expect(seqs('client')).toEqual([2, 3]);
    expect(seqs(undefined)).toEqual([1, 2, 3]);
    expect(journal.entries({ via: 'client', kind: 'ws-open' }).map((e) => e.seq)).toEqual([2]);
  });
});
