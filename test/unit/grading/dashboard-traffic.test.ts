/**
 * The grader leaves out the emulator's own dashboard: the entries marked `via: 'dashboard'`
 * (the device marks every entry of the dashboard's requests and sessions when it writes it), on
 * the same address as the client under test, while the client's own entries are graded as before.
 */
import type { ClientVia } from '../../../src/base/client-tag';
import type { JournalEntry } from '../../../src/base/journal';
import { gradedEntries, JournalIndex } from '../../../src/grading/journal-index';
import { IO_PORT, JournalBuilder, MOTION, onlyFinding, REMOTE, ruleIds, USER } from './journal-builder';

const LATER = 600_000;
const REFUSED = { code: 2104, message: "Invalid parameter: eventFilterList[0].topicFilter: unexpected '/'" };

/** Marks `entry` (the builder's own object) as the dashboard's. */
function dashboard<E extends JournalEntry>(entry: E): E {
  (entry as { via?: ClientVia }).via = 'dashboard';
  return entry;
}

/** A session of the client, opened at `at` and configured 50 ms later for `topic`. */
function clientSession(b: JournalBuilder, id: string, at: number, topic = IO_PORT): void {
  b.at(at).wsOpen(id);
  b.advance(50).configure(id, [topic]);
}

describe('the grader and the dashboard', () => {
  it('finds nothing in a dashboard session with an invalid filter, never configured, from the same address', () => {
    const b = new JournalBuilder();
    dashboard(b.at(0).wsOpen('s1'));
    dashboard(b.at(100).configure('s1', ['tns1:VideoSource//Motion'], { error: REFUSED }));
    dashboard(b.at(200).notification('s1', MOTION));
    expect(b.grade(b.time(LATER)).findings).toEqual([]);
  });

  it("finds the same steps when they are the client's own (the control case)", () => {
    const b = new JournalBuilder();
    b.at(0).wsOpen('s1');
    const refused = b.at(100).configure('s1', ['tns1:VideoSource//Motion'], { error: REFUSED });
    b.at(200).notification('s1', MOTION);
    // The refused configure is the finding; the session it left unconfigured is not a second one.
    expect(ruleIds(b.grade(b.time(LATER)))).toEqual(['invalid-filter']);
    expect(onlyFindingOf(b, 'invalid-filter').evidence).toEqual([refused]);
  });

  it('leaves out marked requests and refused logins: no auth finding, and the dashboard user is not the client', () => {
    const b = new JournalBuilder();
    for (let i = 0; i < 5; i++) {
      dashboard(b.at(i * 1000).authRefused({ code: 'WRONG_PASSWORD', path: '/axis-cgi/featureflag.cgi', user: 'x' }));
      dashboard(b.at(i * 1000 + 10).http({ path: '/axis-cgi/featureflag.cgi', user: 'admin' }));
    }
    const wrong = b.at(9000).authRefused({ code: 'WRONG_PASSWORD', path: '/axis-cgi/param.cgi' });
    const f = onlyFinding(b.grade(b.time(LATER)), 'auth-failed');
    expect(f.evidence).toEqual([wrong]);
    expect(f.client).toEqual({ remote: REMOTE, users: [USER] });
  });

  it('does not count the dashboard session among the client sessions at once', () => {
    const thresholds = { maxSessionsPerClient: 1 };
    const b = new JournalBuilder();
    dashboard(b.at(0).wsOpen('s1', { user: 'root' }));
    dashboard(b.at(50).configure('s1', [MOTION]));
    clientSession(b, 's2', 100);
    expect(b.grade(b.time(LATER), { thresholds }).findings).toEqual([]);
    // The same two as the client's: one too many.
    const c = new JournalBuilder();
    clientSession(c, 's1', 0, MOTION);
    clientSession(c, 's2', 100);
    expect(ruleIds(c.grade(c.time(LATER), { thresholds }))).toEqual(['concurrent-sessions']);
  });

  it('grades a session id opened again by the client after the dashboard session closed', () => {
    const b = new JournalBuilder();
    dashboard(b.at(0).wsOpen('s1'));
    dashboard(b.at(100).configure('s1', [IO_PORT]));
    dashboard(b.at(200).wsClose('s1'));
    const open = b.at(300).wsOpen('s1');
    const f = onlyFinding(b.grade(b.time(LATER)), 'configure-missing');
    expect(f.evidence).toEqual([open]);
  });

  it('ties sessions per device: the same id on another device is the client', () => {
    const b = new JournalBuilder();
    dashboard(b.at(0).wsOpen('s1'));
    b.at(10).wsOpen('s1', { device: 'DEV2' });
    const refused = b.at(100).configure('s1', ['x//'], { error: REFUSED, device: 'DEV2' });
    dashboard(b.at(110).configure('s1', ['x//'], { error: REFUSED }));
    const report = b.grade(b.time(LATER), { devices: [b.facts(), b.facts({ serial: 'DEV2' })] });
    const invalid = report.findings.filter((f) => f.rule === 'invalid-filter');
    expect(invalid.map((f) => [f.device, f.evidence])).toEqual([['DEV2', [refused]]]);
  });

  it('does not take the dashboard session for the client meeting an expectation', () => {
    const b = new JournalBuilder();
    b.at(0).expect('back', 'connected', 5000);
    dashboard(b.at(100).wsOpen('s1'));
    const [result] = b.grade(b.time(LATER)).expectations;
    expect(result.status).toBe('broken');
  });

  it('keeps faults and expectations, and the journal count of the report', () => {
    const b = new JournalBuilder();
    b.at(0).fault('stall', 'on', { pings: true });
    dashboard(b.at(100).http());
    b.at(200).expect('back', 'connected', 5000);
    const index = new JournalIndex(b.entries);
    expect(index.entries.map((t) => t.entry.kind)).toEqual(['fault', 'expect']);
    expect(b.grade(b.time(LATER)).journal.entries).toBe(3);
  });
});

describe('gradedEntries', () => {
  it('answers the journal list itself when nothing is marked (no copy)', () => {
    const b = new JournalBuilder();
    clientSession(b, 's1', 0);
    expect(gradedEntries(b.entries)).toBe(b.entries);
  });

  it('keeps the order of the entries it keeps', () => {
    const b = new JournalBuilder();
    const first = b.at(0).http();
    dashboard(b.at(10).http());
    const open = b.at(20).wsOpen('s1');
    dashboard(b.at(30).wsOpen('s2'));
    dashboard(b.at(40).notification('s2', MOTION));
    const close = b.at(50).wsClose('s1');
    dashboard(b.at(60).wsClose('s2'));
    expect(gradedEntries(b.entries)).toEqual([first, open, close]);
  });
});

function onlyFindingOf(b: JournalBuilder, rule: 'invalid-filter') {
  const found = b.grade(b.time(LATER)).findings.filter((f) => f.rule === rule);
  expect(found).toHaveLength(1);
  return found[0];
}
