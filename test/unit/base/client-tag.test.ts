/**
 * The dashboard's tag: `X-BWC-Emu-Client: dashboard` names it, anything else names no one
 * (with a log line); journal entries carry `via` only when it is set, and the journal reads
 * by it (`via: 'dashboard'`, or `client` for all the others).
 */
import {
  clientVia,
  IGNORED_TAG_LOG_INTERVAL_MS,
  IGNORED_TAG_MESSAGE,
  IgnoredTagLog,
  isEmulatorClientEntry,
  LOGGED_IGNORED_TAGS,
} from '../../../src/base/client-tag';
import { ManualClock } from '../../../src/base/clock';
import { type DeviceJournalRecord, Journal, viaWriter, writeVia } from '../../../src/base/journal';
import { createLogger } from '../../../src/base/log';

/** An IgnoredTagLog whose lines are kept, parsed, on a manual clock. */
function tapped(): { log: IgnoredTagLog; lines: Record<string, unknown>[]; clock: ManualClock } {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({
    level: 'debug',
    write: (line) => lines.push(JSON.parse(line) as Record<string, unknown>),
  });
  const clock = new ManualClock();
  return { log: new IgnoredTagLog(logger, clock), lines, clock };
}

describe('clientVia', () => {
  it('names the dashboard for exactly `dashboard`, and the test for exactly `test`, without a log line', () => {
    const { log, lines } = tapped();
    expect(clientVia({ 'x-bwc-emu-client': 'dashboard' }, log, '::1')).toBe('dashboard');
    expect(clientVia({ 'x-bwc-emu-client': 'test' }, log, '::1')).toBe('test');
    expect(lines).toEqual([]);
  });

  it('names no one without the header, without a log line', () => {
    const { log, lines } = tapped();
    expect(clientVia({}, log, '::1')).toBeUndefined();
    expect(lines).toEqual([]);
  });

  it.each(['Dashboard', 'client', '', 'dashboard, dashboard', ' dashboard'])(
    'ignores %j with a log line naming the value and the address',
    (value) => {
      const { log, lines } = tapped();
      expect(clientVia({ 'x-bwc-emu-client': value }, log, '10.0.0.3')).toBeUndefined();
      expect(lines).toEqual([
        expect.objectContaining({
          level: 30,
          header: 'X-BWC-Emu-Client',
          value,
          remote: '10.0.0.3',
          msg: IGNORED_TAG_MESSAGE,
        }),
      ]);
      expect(IGNORED_TAG_MESSAGE).toBe(
        'X-BWC-Emu-Client ignored: the values known are "dashboard" and "test"; the request is graded as the client\'s',
      );
    },
  );

  it('ignores a value given twice, and cuts a long value in its log line', () => {
    const { log, lines } = tapped();
    expect(clientVia({ 'x-bwc-emu-client': ['dashboard', 'dashboard'] }, log, '::1')).toBeUndefined();
    expect(clientVia({ 'x-bwc-emu-client': 'd'.repeat(1000) }, log, '::1')).toBeUndefined();
    expect(lines.map((l) => l.value)).toEqual(['dashboard,dashboard', 'd'.repeat(64)]);
  });

  it('logs nothing without a log', () => {
    expect(clientVia({ 'x-bwc-emu-client': 'other' })).toBeUndefined();
  });
});

describe('IgnoredTagLog', () => {
  it(`logs ${LOGGED_IGNORED_TAGS} per interval one by one, then one summary line by address`, () => {
    const { log, lines, clock } = tapped();
    for (let i = 0; i < LOGGED_IGNORED_TAGS + 5; i++) clientVia({ 'x-bwc-emu-client': 'x' }, log, '10.0.0.3');
    clientVia({ 'x-bwc-emu-client': 'x' }, log, '10.0.0.4');
    expect(lines).toHaveLength(LOGGED_IGNORED_TAGS);
    clock.advance(IGNORED_TAG_LOG_INTERVAL_MS);
    clientVia({ 'x-bwc-emu-client': 'x' }, log, '10.0.0.3');
    expect(lines.slice(LOGGED_IGNORED_TAGS)).toEqual([
      expect.objectContaining({
        level: 40,
        count: 6,
        by: { '10.0.0.3': 5, '10.0.0.4': 1 },
        msg: 'X-BWC-Emu-Client values ignored, not logged one by one (counted by remote address)',
      }),
      expect.objectContaining({ level: 30, msg: IGNORED_TAG_MESSAGE }),
    ]);
  });

  it('tells what it still counts when flushed (at close)', () => {
    const { log, lines } = tapped();
    for (let i = 0; i < LOGGED_IGNORED_TAGS + 1; i++) clientVia({ 'x-bwc-emu-client': 'x' }, log, '::1');
    log.flush();
    expect(lines[LOGGED_IGNORED_TAGS]).toMatchObject({ count: 1, by: { '::1': 1 } });
  });
});

describe('isEmulatorClientEntry', () => {
  it('is true for a marked entry only', () => {
    expect(isEmulatorClientEntry({ kind: 'http', via: 'dashboard' })).toBe(true);
    expect(isEmulatorClientEntry({ kind: 'http' })).toBe(false);
    expect(isEmulatorClientEntry({ kind: 'fault' })).toBe(false);
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
