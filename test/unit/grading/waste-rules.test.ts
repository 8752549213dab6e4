/** polling and token-unused over synthetic journals: the mistakes, and the correct clients they must not flag. */
import {
  findingsOf,
  IO_PORT,
  JournalBuilder,
  onlyFinding,
  REMOTE,
  ruleIds,
  STREAM_PATH,
  USER,
} from './journal-builder';

const LATER = 600_000;
const FLAGS = '/axis-cgi/featureflag.cgi';

/** A session opened now, configured 10 ms later and closed by the client 10 ms after that. */
function session(b: JournalBuilder, id: string): void {
  b.wsOpen(id);
  b.advance(10).configure(id, [IO_PORT]);
  b.advance(10).wsClose(id);
}

describe('polling', () => {
  it('finds listAll every 50 ms: the busiest minute, with its rate', () => {
    const b = new JournalBuilder();
    const calls = Array.from({ length: 871 }, (_, i) =>
      b.at(i * 50).http({ method: 'POST', path: FLAGS, call: 'listAll' }),
    );
    const f = onlyFinding(b.grade(b.time(LATER)), 'polling');
    expect(f.severity).toBe('warning');
    expect(f.client).toEqual({ remote: REMOTE, users: [USER] });
    expect(f.message).toBe(
      `871 requests to ${FLAGS} listAll within 43.5 s, one every 50 ms on average (at most 60 per 60.0 s expected; 871 in all)`,
    );
    expect(f.evidence).toEqual(calls.slice(0, 10));
    expect(f.moreEvidence).toBe(861);
  });

  it('counts each JSON-RPC method and each client apart, and param.cgi by its path', () => {
    const b = new JournalBuilder();
    for (let i = 0; i < 50; i++) {
      b.at(i * 100).http({ method: 'POST', path: FLAGS, call: 'listAll' });
      b.at(i * 100 + 1).http({ method: 'POST', path: FLAGS, call: 'get' });
      b.at(i * 100 + 2).http({ method: 'POST', path: FLAGS, call: 'listAll', remote: '10.0.0.9' });
      b.at(i * 100 + 3).http({ path: `/axis-cgi/param.cgi?action=list&group=G${i}` });
    }
    const report = b.grade(b.time(LATER), { thresholds: { pollingMaxRequests: 49 } });
    expect(findingsOf(report, 'polling').map((f) => f.message.split(' within')[0])).toEqual([
      `50 requests to ${FLAGS} listAll`,
      `50 requests to ${FLAGS} get`,
      `50 requests to ${FLAGS} listAll`,
      '50 requests to /axis-cgi/param.cgi',
    ]);
    expect(ruleIds(b.grade(b.time(LATER)))).toEqual([]);
  });

  it('finds nothing for a call every 2 s for an hour, a 503 retried with back-off, or a burst at start-up', () => {
    const b = new JournalBuilder();
    for (let t = 0; t < 3_600_000; t += 2000) b.at(t).http({ method: 'POST', path: FLAGS, call: 'listAll' });
    let wait = 500;
    for (let t = 0; t < 600_000; t += wait, wait = Math.min(wait * 2, 30_000))
      b.at(t + 1).http({ method: 'POST', path: FLAGS, call: 'get', status: 503 });
    for (let i = 0; i < 40; i++) b.at(i).http({ method: 'POST', path: FLAGS, call: 'set' });
    expect(ruleIds(b.grade(b.time(3_700_000)))).toEqual([]);
  });

  it('does not count 401 first legs, requests the client gave up on, nor token fetches (token-unused judges those)', () => {
    const b = new JournalBuilder();
    for (let i = 0; i < 40; i++) {
      b.at(i * 1000).http({ path: FLAGS, status: 401, auth: undefined, user: undefined });
      b.at(i * 1000 + 1).http({ path: FLAGS, status: undefined });
      b.at(i * 1000 + 5).http({ path: FLAGS });
      b.at(i * 1000 + 10).tokenFetch();
      session(b.at(i * 1000 + 20), `s${i}`);
      b.advance(10).tokenFetch();
      session(b.advance(10), `t${i}`);
    }
    expect(ruleIds(b.grade(b.time(LATER), { thresholds: { pollingMaxRequests: 40 } }))).toEqual([]);
  });

  it('takes its window and its count as thresholds', () => {
    const b = new JournalBuilder();
    for (let i = 0; i < 10; i++) b.at(i * 2000).http({ path: FLAGS, call: 'listAll' });
    const thresholds = { pollingWindowMs: 10_000, pollingMaxRequests: 4 };
    expect(onlyFinding(b.grade(b.time(LATER), { thresholds }), 'polling').message).toBe(
      `5 requests to ${FLAGS} listAll within 8.00 s, one every 2.00 s on average (at most 4 per 10.0 s expected; 10 in all)`,
    );
  });
});

describe('token-unused', () => {
  it('finds a token fetched for every message, none used but the first', () => {
    const b = new JournalBuilder();
    b.at(0).tokenFetch();
    session(b.at(100), 's1');
    const unused = [1, 2, 3, 4].map((i) => b.at(i * 1000).tokenFetch());
    const f = onlyFinding(b.grade(b.time(LATER)), 'token-unused');
    expect(f.severity).toBe('warning');
    expect(f.message).toBe('4 of 5 session tokens fetched were never used for a handshake');
    expect(f.evidence).toEqual(unused);
  });

  it('counts a refused handshake as a use: a token fetched before a reboot and refused after it', () => {
    const b = new JournalBuilder();
    for (let i = 0; i < 5; i++) {
      b.at(i * 5000).tokenFetch();
      b.advance(10).authRefused({ code: 'TOKEN_UNKNOWN', path: `${STREAM_PATH}?wssession=[redacted]` });
      b.advance(10).wsRefused({ status: 503 });
    }
    // Each attempt used one token (a refused one and a 503 both): two attempts per token here.
    expect(ruleIds(b.grade(b.time(LATER)))).not.toContain('token-unused');
  });

  it('matches tokens fetched ahead in parallel with the connects that follow', () => {
    const b = new JournalBuilder();
    for (let i = 0; i < 4; i++) b.at(i).tokenFetch();
    for (let i = 0; i < 4; i++) session(b.at(100 + i * 100), `s${i}`);
    expect(ruleIds(b.grade(b.time(LATER)))).toEqual([]);
  });

  it('takes one unused token (a client stopping between fetch and connect), and waits while a token is valid', () => {
    const b = new JournalBuilder();
    b.at(0).tokenFetch();
    session(b.at(10), 's1');
    b.at(20_000).tokenFetch();
    expect(ruleIds(b.grade(b.time(LATER)))).toEqual([]);
    for (let i = 1; i <= 3; i++) b.at(30_000 + i * 1000).tokenFetch();
    // Four fetches pending: the three fetched in the last 15 s may still be used.
    expect(ruleIds(b.grade(b.time(40_000)))).toEqual([]);
    expect(onlyFinding(b.grade(b.time(60_000)), 'token-unused').message).toBe(
      '4 of 5 session tokens fetched were never used for a handshake',
    );
    expect(ruleIds(b.grade(b.time(60_000), { thresholds: { minUnusedTokens: 5 } }))).toEqual([]);
  });

  it('matches a numbered use to its own fetch: a client that uses an old token and leaves the new ones', () => {
    const b = new JournalBuilder();
    b.at(0).tokenFetch({ token: 1 });
    const unused = [2, 3, 4].map((n) => b.at(n * 100).tokenFetch({ token: n }));
    b.at(1000).wsOpen('s1', { token: 1 });
    b.advance(10).configure('s1', [IO_PORT]);
    const f = onlyFinding(b.grade(b.time(LATER)), 'token-unused');
    expect(f.evidence).toEqual(unused);
  });

  it("waits for the device's own token lifetime", () => {
    const b = new JournalBuilder();
    for (let i = 0; i < 3; i++) b.at(i).tokenFetch();
    const facts = b.facts({ tokenLifetimeMs: 60_000 });
    expect(ruleIds(b.grade(b.time(30_000), { devices: [facts] }))).toEqual([]);
    expect(ruleIds(b.grade(b.time(61_000), { devices: [facts] }))).toEqual(['token-unused']);
  });

  it('does not count a refused fetch (a 503, a 429, a 401)', () => {
    const b = new JournalBuilder();
    for (const status of [503, 429, 401, 503]) b.at(status).tokenFetch({ status });
    expect(ruleIds(b.grade(b.time(LATER)))).toEqual([]);
  });
});

describe('the thresholds of the recall rules', () => {
  it.each([
    ['pollingMaxRequests', 0],
    ['pollingMaxRequests', 1.5],
    ['minUnusedTokens', 0],
    ['maxRefusedRepeats', -1],
  ])('refuses %s %p: a count is a whole number of 1 or more', (name, value) => {
    const b = new JournalBuilder();
    expect(() => b.grade(b.now, { thresholds: { [name]: value } })).toThrow(
      `grading threshold ${name} must be a whole number of 1 or more, not ${value}`,
    );
  });

  it('refuses a negative window, and takes 0 (no polling is ever found)', () => {
    const b = new JournalBuilder();
    for (let i = 0; i < 100; i++) b.at(i).http({ path: FLAGS, call: 'listAll' });
    expect(() => b.grade(b.now, { thresholds: { pollingWindowMs: -1 } })).toThrow(/pollingWindowMs must be a number/);
    expect(ruleIds(b.grade(b.now, { thresholds: { pollingWindowMs: 0 } }))).toEqual([]);
    expect(ruleIds(b.grade(b.now))).toEqual(['polling']);
  });
});
